//===- validate.h - run recorded ATen calls through the kernel library -----===//
//
// The kernel library (generator/library/aten/, docs/library.md) holds one
// Triton file per ATen overload with a host wrapper named after it
// (aten::add.Tensor -> add_Tensor, aten::exp -> exp). Validation runs every
// recorded corpus call of the selected overloads through its wrapper on an
// Executor (the IR interpreter, or the chip) and compares the results with
// the recorded ATen outputs using the verifier (per-OpInfo tolerances).
// A library file that fails to parse or lint, or an overload with no
// wrapper, fails that overload with a reason naming it; the others continue.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "opforge/harness/corpus.h"
#include "opforge/support/dtype.h"

namespace opforge::compiler {
class Executor;
}  // namespace opforge::compiler
namespace opforge::compiler::ast {
struct Module;
}

namespace opforge::harness {

// "aten::add.Tensor" -> "add_Tensor", "aten::exp" -> "exp".
std::string wrapper_name_for(const std::string &overload);
// Every wrapper name that serves an overload: wrapper_name_for(overload), and
// for an overload with no overload name (aten::mm) also "<op>_default".
std::vector<std::string> wrapper_names_for(const std::string &overload);
// "aten::add.Tensor" -> "add.Tensor.py".
std::string library_file_name_for(const std::string &overload);
// The library shipped with opforge (<source dir>/generator/library/aten).
std::string default_library_dir();

// The kernel files of a library directory, parsed and linted.
class KernelLibrary {
 public:
  struct File {
    std::string path;
    std::string overload;                           // from the file name: "aten::add.Tensor"
    std::shared_ptr<compiler::ast::Module> module;  // null when it failed to load
    std::string error;                  // why it failed to parse or lint ("" when loaded)
    std::vector<std::string> wrappers;  // top-level non-jit functions
    // The wrapper of this file serving `overload` ("" when none).
    std::string wrapper_for(const std::string &overload) const;
  };
  // Reads every *.py file of `dir` (sorted). Throws opforge::Error only when
  // the directory cannot be read; bad files are recorded in File::error.
  static KernelLibrary load(const std::string &dir);

  const std::string &dir() const { return dir_; }
  const std::vector<File> &files() const { return files_; }
  // The file defining the wrapper of `overload` (or the broken file named
  // after it, whose error says why); null when there is neither.
  const File *find(const std::string &overload) const;

 private:
  std::string dir_;
  std::vector<File> files_;
};

enum class ExecutorKind { Interp, Chip };
// "interp" / "chip"; throws opforge::Error for anything else.
ExecutorKind parse_executor_kind(const std::string &text);
// A new executor of that kind; throws opforge::Error when it is not built in.
std::unique_ptr<compiler::Executor> make_executor(ExecutorKind kind);

struct ValidateOptions {
  std::vector<std::string> overloads;  // empty: every overload the corpus records
  std::vector<opforge::DType> dtypes;  // empty: every dtype group of the corpus
  ExecutorKind executor = ExecutorKind::Interp;
  int jobs = 1;  // overloads validated in parallel
  size_t max_calls_per_overload = SIZE_MAX;
};

struct CallFailure {
  opforge::DType dtype = opforge::DType::Float32;
  int64_t index = 0;    // call index within its dtype group
  std::string summary;  // Call::summary()
  std::string reason;   // one line
};

struct OverloadResult {
  std::string overload;
  std::string file;  // library file used ("" when none)
  int64_t passed = 0;
  int64_t total = 0;  // calls selected
  std::string error;  // library-level problem (no wrapper, parse/lint error); all calls fail
  std::vector<CallFailure> failures;                                // in call order
  std::map<opforge::DType, std::pair<int64_t, int64_t>> per_dtype;  // passed, total
  bool ok() const { return error.empty() && passed == total; }
  // The library error, else the first call failure, else "".
  std::string first_failure() const;
};

struct ValidateReport {
  std::vector<OverloadResult> results;  // in the order of the selected overloads
  bool ok() const;
  int64_t calls_passed() const;
  int64_t calls_total() const;
  // The table: overload, passed/total, first failure reason.
  std::string table() const;
  // Writes /validate/overloads and /validate/failures tables to an HDF5 file.
  void write_hdf5(const std::string &path) const;
};

// Runs one recorded call through a wrapper of `module` on `executor`; returns
// "" when the verifier accepts the result, else a one-line reason.
std::string run_call(const compiler::ast::Module &module, const std::string &wrapper,
                     compiler::Executor &executor, const Call &call, const Corpus &corpus);

// Runs one recorded call of a view/metadata overload through the runtime (aten_runtime.h).
std::string run_view_call(compiler::Executor &executor, const Call &call, const Corpus &corpus);

ValidateReport validate(const Corpus &corpus, const KernelLibrary &library,
                        const ValidateOptions &options);

}  // namespace opforge::harness
