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

#include "opforge/compiler/wrapper.h"
#include "opforge/harness/corpus.h"
#include "opforge/support/dtype.h"

namespace opforge::compiler {
class Executor;
}  // namespace opforge::compiler
namespace opforge::compiler::ast {
struct Module;
}
namespace opforge::model {
class Device;
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
// Kernel variants that use ISA extension intrinsics: for each registered
// extension instruction (isa/extension.h) in registration order, the
// directory generator/library/ext/<intrinsic> when it exists. Searched
// before default_library_dir(), so an overload's variant replaces the
// shipped kernel only while its extension is loaded.
std::vector<std::string> extension_library_dirs();

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

// The chip an Executor of kind Chip runs on: an architecture preset name
// (tiny, mtia-2i, mtia-v1) or JSON file, parameter overrides ("dram.channels=32")
// and the timing mode (functional or lt; "" keeps the preset's).
struct ChipOptions {
  std::string arch = "mtia-2i";
  std::vector<std::string> sets;
  std::string timing = "functional";
};
// True when this build has the chip executor (the code generator and the model).
bool chip_executor_available();
// The process's chip (model::Device allows one per process): made on the first
// call; a later call with different options throws opforge::Error.
model::Device &chip_device(const ChipOptions &options);
// A new executor of that kind (chip executors share the process's device and
// start with no buffers); throws opforge::Error when it is not built in.
// A chip executor keeps each launch's record (ChipExecutor::launches()) only when
// `keep_launches` is set (opforge run prints them); validation keeps the count.
std::unique_ptr<compiler::Executor> make_executor(ExecutorKind kind, const ChipOptions &chip = {},
                                                  bool keep_launches = false);

struct ValidateOptions {
  std::vector<std::string> overloads;  // empty: every overload the corpus records
  std::vector<opforge::DType> dtypes;  // empty: every dtype group of the corpus
  ExecutorKind executor = ExecutorKind::Interp;
  ChipOptions chip;  // for ExecutorKind::Chip
  int jobs = 1;      // overloads validated in parallel threads (interp only; the chip is
                     // single-threaded: `opforge validate --jobs` shards it over processes)
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
  // Lossless JSON form (shards of a multi-process run travel in it).
  std::string to_json() const;
  // Throws opforge::Error naming `source` for malformed text.
  static ValidateReport from_json(const std::string &text, const std::string &source);
};

// Runs one recorded call through a wrapper of `module` on `executor`; returns
// "" when the verifier accepts the result, else a one-line reason. The outputs
// and the inputs the call mutated (read back by schema argument name, the schema
// coming from the corpus) are both verified.
std::string run_call(const compiler::ast::Module &module, const std::string &wrapper,
                     compiler::Executor &executor, const Call &call, const Corpus &corpus);

// Argument names of an ATen schema, in order ("add.Tensor(Tensor self, Tensor
// other, *, Scalar alpha=1) -> Tensor" -> self, other, alpha).
std::vector<std::string> schema_argument_names(const std::string &schema);

// Runs one recorded call of a view/metadata overload through the runtime (aten_runtime.h).
std::string run_view_call(compiler::Executor &executor, const Call &call, const Corpus &corpus);

ValidateReport validate(const Corpus &corpus, const KernelLibrary &library,
                        const ValidateOptions &options);

// A wrapper call written as a Python expression (`opforge run --call`):
// "add_Tensor(randn(1024, 1024), randn(1024), alpha=2)". Arguments are Python
// literals (int, float, bool, None, strings, tuples, lists, torch.<dtype>,
// float('inf'/'nan')) and tensor factories randn/rand/randint/arange/zeros/
// ones/full/tensor (optionally torch.-prefixed, dtype=torch.X), drawn from one
// generator seeded with `seed`; .t(), .transpose(a, b), .permute(...),
// .contiguous(), .to(dtype) and subscripts (ints, slices with a positive step)
// make views, so non-contiguous inputs keep their strides.
struct CallExpression {
  std::string function;  // the wrapper's name
  std::vector<Value> args;
  std::vector<std::pair<std::string, Value>> kwargs;
};
// Throws opforge::Error whose context is ("--call", line 1, the 1-based column)
// and whose message ends with the expression and a caret under that column.
CallExpression parse_call_expression(const std::string &text, uint64_t seed = 0);

// A wrapper run on an executor from host Values: the returned value and every
// argument read back after the call (what in-place wrappers wrote).
struct WrapperCallResult {
  Value out;
  std::vector<Value> args_after;
  std::vector<std::pair<std::string, Value>> kwargs_after;
  std::vector<compiler::AutotuneRecord> autotune;  // what @triton.autotune did (wrapper.h)
  uint64_t autotune_trial_cycles = 0;              // cycles of autotune trial launches
  int64_t autotune_trial_launches = 0;
};
// Throws opforge::Error (CompileError for wrapper errors, traps from the chip).
WrapperCallResult run_wrapper_call(const compiler::ast::Module &module, const std::string &wrapper,
                                   compiler::Executor &executor, const std::vector<Value> &args,
                                   const std::vector<std::pair<std::string, Value>> &kwargs,
                                   const compiler::WrapperOptions &options = {});

}  // namespace opforge::harness
