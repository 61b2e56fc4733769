//===- python.h - the project venv's Python (torch, triton, h5py, matplotlib) ===//
//
// opforge runs Python only from the project virtual environment that
// scripts/install-deps.sh builds from requirements.txt (default `.venv` in the
// source tree; OPFORGE_PYTHON overrides the interpreter path).
#pragma once

#include <string>

namespace opforge {

/// Path of the project venv's python. Throws opforge::Error with one line naming
/// the path and the command that installs it when it is missing.
std::string project_python();

/// The command that (re)creates the project venv, for error messages.
const char *project_python_install_hint();

}  // namespace opforge
