//===- value.h - runtime values of the wrapper interpreter (internal) ------===//
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "opforge/compiler/ast.h"
#include "opforge/compiler/executor.h"

namespace opforge::compiler::wrapper_detail {

struct Scope;
struct Value;
using ValueList = std::vector<Value>;

struct Value {
  enum class T {
    None,
    Bool,
    Int,
    Float,
    Str,
    DType,
    Device,
    Tensor,
    List,
    Tuple,
    Dict,
    Range,
    Slice,
    Ellipsis,
    Function,  // a top-level def of the module (not jit)
    Lambda,    // a lambda with its defining scope
    Kernel,    // a @triton.jit function
    Launcher,  // kernel[grid]
    Builtin,   // a builtin function by qualified name ("len", "torch.empty", "math.ceil")
    Method,    // a bound method: self + name ("x.view", "l.append")
    Module,    // torch, triton, triton.language, math, torch.nn.functional
    Type,      // int, float, bool, str, list, tuple, dict, torch.Tensor (for isinstance)
    Config,    // triton.Config: items = {kwargs dict, num_warps, num_stages, num_ctas, maxnreg,
               // pre_hook} (autotune.cpp)
  };
  T t = T::None;
  bool b = false;
  int64_t i = 0;  // Int; Range start; Slice presence bits
  double f = 0.0;
  std::string s;  // Str, Device, Builtin/Method/Module/Type name
  DType dtype = DType::Float32;
  std::shared_ptr<TensorHandle> tensor;
  std::shared_ptr<ValueList> items;  // List (shared, mutable), Tuple, Dict keys+values interleaved
  std::shared_ptr<Value> self;       // Method receiver; Launcher grid
  const ast::FunctionDef *fn = nullptr;  // Function, Kernel, Launcher
  const ast::Lambda *lambda = nullptr;
  std::shared_ptr<Scope> closure;                   // Lambda
  int64_t r_stop = 0, r_step = 1;                   // Range
  std::shared_ptr<Value> s_lower, s_upper, s_step;  // Slice (null = absent)

  static Value none() { return {}; }
  static Value boolean(bool v) {
    Value x;
    x.t = T::Bool;
    x.b = v;
    return x;
  }
  static Value integer(int64_t v) {
    Value x;
    x.t = T::Int;
    x.i = v;
    return x;
  }
  static Value floating(double v) {
    Value x;
    x.t = T::Float;
    x.f = v;
    return x;
  }
  static Value str(std::string v) {
    Value x;
    x.t = T::Str;
    x.s = std::move(v);
    return x;
  }
  static Value dtype_of(DType d) {
    Value x;
    x.t = T::DType;
    x.dtype = d;
    return x;
  }
  static Value device(std::string d) {
    Value x;
    x.t = T::Device;
    x.s = std::move(d);
    return x;
  }
  static Value of(TensorHandle h) {
    Value x;
    x.t = T::Tensor;
    x.tensor = std::make_shared<TensorHandle>(std::move(h));
    return x;
  }
  static Value list(ValueList v) {
    Value x;
    x.t = T::List;
    x.items = std::make_shared<ValueList>(std::move(v));
    return x;
  }
  static Value tuple(ValueList v) {
    Value x;
    x.t = T::Tuple;
    x.items = std::make_shared<ValueList>(std::move(v));
    return x;
  }
  static Value builtin(std::string name) {
    Value x;
    x.t = T::Builtin;
    x.s = std::move(name);
    return x;
  }
  static Value module(std::string name) {
    Value x;
    x.t = T::Module;
    x.s = std::move(name);
    return x;
  }
  static Value type(std::string name) {
    Value x;
    x.t = T::Type;
    x.s = std::move(name);
    return x;
  }
  static Value method(Value self, std::string name) {
    Value x;
    x.t = T::Method;
    x.s = std::move(name);
    x.self = std::make_shared<Value>(std::move(self));
    return x;
  }

  bool is_num() const { return t == T::Int || t == T::Float || t == T::Bool; }
  bool is_int_like() const { return t == T::Int || t == T::Bool; }
  bool is_seq() const { return t == T::List || t == T::Tuple; }
  const TensorHandle &th() const { return *tensor; }
};

// Python's type name of a value ("int", "Tensor", "function").
std::string type_name(const Value &v);
// repr()/str() text.
std::string repr(const Value &v);
std::string str_of(const Value &v);
// A triton.Config as Triton's Config.__str__ prints it: "BLOCK: 64, num_warps: 4, num_ctas: 1,
// num_stages: 3, maxnreg: None" (autotune.cpp).
std::string config_text(const Value &config);

// A function scope: local variables and the enclosing scope (lambdas).
struct Scope {
  std::map<std::string, Value> vars;
  std::shared_ptr<Scope> parent;
  Value *find(const std::string &name) {
    for (Scope *s = this; s; s = s->parent.get()) {
      auto it = s->vars.find(name);
      if (it != s->vars.end()) return &it->second;
    }
    return nullptr;
  }
};

}  // namespace opforge::compiler::wrapper_detail
