//===- corpus.h - reader for the OpInfo ATen call corpus (HDF5) ------------===//
//
// The corpus (docs/corpus.md, written by scripts/export-opinfo.py) holds every
// ATen call PyTorch's OpInfo samples make, per dtype: the overload, its
// arguments and keyword arguments, its outputs and the values of the inputs it
// mutated. Corpus opens the file, checks its structure, and decodes calls into
// Values (HostTensors, scalars, lists, None, dtypes, ...). Errors name the file
// and the object or call at fault.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "opforge/support/dtype.h"
#include "opforge/support/host_tensor.h"

namespace opforge::harness {

// One argument or output of an ATen call.
struct Value {
  enum class Kind {
    None,
    Bool,
    Int,
    Double,
    Complex,       // number + imag
    String,        // text
    Tensor,        // tensor
    List,          // list (a tuple of outputs is a List too)
    DType,         // dtype
    Layout,        // text: "strided"
    MemoryFormat,  // text: "contiguous_format", "channels_last", "preserve_format"
    Device,        // text: "cpu"
    Opaque,        // a value opforge cannot hold (complex tensor); text describes it
  };
  Kind kind = Kind::None;
  bool boolean = false;
  int64_t integer = 0;
  double number = 0;
  double imag = 0;
  std::string text;
  opforge::DType dtype = opforge::DType::Float32;
  HostTensor tensor;
  std::vector<Value> list;

  static Value none() { return {}; }
  static Value of_bool(bool b);
  static Value of_int(int64_t i);
  static Value of_double(double d);
  static Value of_tensor(HostTensor t);
  static Value of_list(std::vector<Value> items);
  static Value of_dtype(opforge::DType t);

  bool is_tensor() const { return kind == Kind::Tensor; }
  // Short form for listings: "f32[2, 3]", "1.5", "[f32[2], None]".
  std::string summary() const;
};

std::string_view value_kind_name(Value::Kind kind);

// One recorded call.
struct Call {
  std::string overload;  // "aten::add.Tensor"
  std::string opinfo;    // the OpInfo whose sample made it ("add", "normal.number_mean")
  opforge::DType dtype;  // the corpus dtype group it belongs to
  int64_t index = 0;     // position within the dtype group
  int64_t sample = 0;    // sample number within the OpInfo
  std::vector<Value> args;
  std::vector<std::pair<std::string, Value>> kwargs;
  Value out;  // one value, or a List for tuple outputs
  // Values of mutated arguments after the call, by schema argument name.
  std::vector<std::pair<std::string, Value>> mutated;
  bool uninitialized = false;  // the overload returns uninitialized memory (recorded zeroed)

  // "aten::add.Tensor(f32[2, 3], f32[2, 3], alpha=2) -> f32[2, 3]"
  std::string summary() const;
};

struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

struct OpInfoEntry {
  std::string name;                    // "add", "nn.functional.relu", "normal.number_mean"
  std::string aten_name;               // OpInfo's aten_name
  std::string docstring;               // of the public function it tests
  std::vector<opforge::DType> dtypes;  // dtypes the OpInfo supports on CPU (of the exported ones)
};

struct Exclusion {
  std::string opinfo;  // "*" for all
  std::string dtype;   // "*" for all
  std::string reason;
};

struct OverloadEntry {
  std::string name;    // "aten::add.Tensor"
  std::string schema;  // "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
  std::map<opforge::DType, int64_t> calls_per_dtype;
  int64_t total_calls() const;
  std::vector<opforge::DType> dtypes() const;
};

class Corpus {
 public:
  // Opens and checks the file; throws opforge::Error naming the file and what is wrong.
  static Corpus open(const std::string &path);
  // OPFORGE_CORPUS if set, else <source dir>/corpus/opinfo.h5.
  static std::string default_path();
  // The torch release opforge is pinned to (requirements.txt, "2.15.0"). open() rejects a
  // corpus whose /@torch_version has another release part (the text before any "+local").
  static std::string expected_torch_version();

  Corpus(Corpus &&) noexcept;
  Corpus &operator=(Corpus &&) noexcept;
  ~Corpus();

  const std::string &path() const;
  std::string torch_version() const;
  std::vector<opforge::DType> dtypes() const;  // dtype groups present

  const std::vector<OverloadEntry> &overloads() const;
  bool has_overload(const std::string &name) const;
  // Throws "unknown overload 'X' in corpus FILE" for an overload the corpus lacks.
  const OverloadEntry &overload(const std::string &name) const;
  // Docstring of the public function behind an overload: the OpInfo whose aten_name
  // matches it, else the first OpInfo whose samples call it ("" when none has one).
  std::string docstring(const std::string &overload) const;
  // OpInfos whose samples call an overload.
  std::vector<std::string> opinfos_calling(const std::string &overload) const;

  const std::vector<OpInfoEntry> &opinfos() const;
  const std::vector<Exclusion> &exclusions() const;
  // toleranceOverride declared by an OpInfo for a dtype, if any.
  std::optional<Tolerance> tolerance(const std::string &opinfo, opforge::DType dtype) const;

  int64_t call_count(opforge::DType dtype) const;
  int64_t sample_count(opforge::DType dtype) const;
  // Decode one call of a dtype group by index.
  Call call(opforge::DType dtype, int64_t index) const;
  // Calls of an overload (all dtypes when dtype is empty), at most max_calls.
  std::vector<Call> calls(const std::string &overload, std::optional<opforge::DType> dtype = {},
                          size_t max_calls = SIZE_MAX) const;
  // Visit calls one by one (stops when fn returns false).
  void for_each_call(const std::string &overload, std::optional<opforge::DType> dtype,
                     const std::function<bool(const Call &)> &fn) const;

 private:
  struct State;
  explicit Corpus(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace opforge::harness
