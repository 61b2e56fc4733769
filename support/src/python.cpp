//===- python.cpp - locate the project venv's Python ----------------------===//
#include "opforge/support/python.h"

#include <unistd.h>

#include <cstdlib>

#include "opforge/support/error.h"

namespace opforge {

const char *project_python_install_hint() {
  return "run 'bash scripts/install-deps.sh' (or 'make deps') in the opforge source tree to create it";
}

std::string project_python() {
  std::string path;
  if (const char *env = std::getenv("OPFORGE_PYTHON"); env && *env)
    path = env;
  else
    path = OPFORGE_VENV_PYTHON;
  if (::access(path.c_str(), X_OK) != 0)
    throw Error("no project Python at " + path + " (the venv with torch and triton); " +
                project_python_install_hint());
  return path;
}

}  // namespace opforge
