//===- corpus_fixture.h - small OpInfo corpora made by the real exporter ---===//
#pragma once

#include <string>
#include <vector>

namespace opforge::test {

// Run scripts/export-opinfo.py with the project venv's python; returns its exit status.
int run_exporter(const std::vector<std::string> &args, std::string *output = nullptr);

// A corpus of add, sum, softmax, mm, index_select, cat, where, sigmoid, exp,
// nn.functional.layer_norm, isclose, clone and others (at most 12 samples each), dtypes float32,
// bfloat16, int64 and bool, exported once into the build tree and shared by the tests (rebuilt when
// the exporter changes).
const std::string &small_corpus();

// A corpus exported with `args` (export-opinfo.py options, without --out/--quiet) into the
// build tree once and shared by every test process (ctest runs each test in its own): its name
// is keyed by `name`, the arguments and the exporter's timestamp, written under a private name
// and renamed, so a parallel test never reads a partial file.
std::string exported_corpus(const std::string &name, const std::vector<std::string> &args);

// A fresh temporary directory (removed at exit).
std::string temp_dir();

// Run a shell command and capture stdout+stderr; returns the exit status.
int run_command(const std::string &cmd, std::string *output);

}  // namespace opforge::test
