//===- capability.cpp - the MTIA-class target's capability table ----------===//
#include "opforge/compiler/capability.h"

#include "opforge/compiler/ext_intrinsic.h"

namespace opforge::compiler {

std::string_view support_name(Support s) {
  switch (s) {
    case Support::Supported:
      return "supported";
    case Support::Slow:
      return "slow";
    case Support::Unsupported:
      return "unsupported";
  }
  return "unsupported";
}

std::string canonical_tl_dtype(std::string_view name) {
  std::string n(name);
  for (std::string_view prefix : {"tl.", "triton.language.", "torch."})
    if (n.rfind(prefix, 0) == 0) n = n.substr(prefix.size());
  static const std::map<std::string, std::string> alias = {
      {"bool", "int1"},          {"fp16", "float16"},        {"half", "float16"},
      {"bf16", "bfloat16"},      {"fp32", "float32"},        {"float", "float32"},
      {"fp64", "float64"},       {"double", "float64"},      {"long", "int64"},
      {"int", "int32"},          {"short", "int16"},         {"cfloat", "complex64"},
      {"cdouble", "complex128"}, {"chalf", "complex32"},     {"fp8e4nv", "float8e4nv"},
      {"fp8e5", "float8e5"},     {"fp8e4b15", "float8e4b15"}};
  auto it = alias.find(n);
  return it == alias.end() ? n : it->second;
}

static TargetCapabilities build_mtia() {
  TargetCapabilities c;
  c.target = "mtia";
  c.dtypes = {"int1",       "int8",     "int16",      "int32",   "int64",    "uint8",
              "uint16",     "uint32",   "uint64",     "float16", "bfloat16", "float32",
              "float8e4nv", "float8e5", "float8e4b15"};  // fp8: load/store/convert
  const std::string no_fp64 =
      "the target has no float64 arithmetic (RVV ELEN is used for 64-bit integers only); use "
      "float32";
  const std::string no_complex = "complex types are not supported by the target or the compiler";
  const std::string no_fp8 =
      "the FNUZ fp8 variants (AMD) are not supported; fp8e4nv, fp8e5 and fp8e4b15 are "
      "(load, store and conversion)";
  c.unsupported_dtypes = {{"float64", no_fp64},      {"complex32", no_complex},
                          {"complex64", no_complex}, {"complex128", no_complex},
                          {"float8e4b8", no_fp8},    {"float8e5b16", no_fp8}};
  // torch's fp8 tensors: kernels take fp8 (tl.float8e4nv, tl.float8e5), wrappers cannot.
  for (const char *t : {"float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"})
    c.unsupported_dtypes[t] =
        std::string("torch.") + t +
        " tensors are not supported by the wrapper runtime (no fp8 host tensors): pass the bits "
        "as torch.uint8 and reinterpret them in the kernel, x.to(tl.float8e4nv, bitcast=True)";
  c.math_functions = {"abs", "exp", "exp2", "log", "log2", "log1p", "sqrt", "sqrt_rn", "rsqrt",
                      "sin", "cos", "tan", "tanh", "erf", "floor", "ceil", "fma", "sigmoid",
                      "div_rn", "fdiv", "umulhi", "pow", "exp_", "expm1", "asin", "acos", "atan",
                      "sinh", "cosh", "round", "trunc", "isnan", "isinf", "signbit", "max", "min",
                      "maximum", "minimum", "cdiv", "clamp", "fast_expf", "fast_logf", "rint",
                      "nearbyint", "neg", "recip", "fmod",
                      // libdevice functions TorchInductor's kernels call (builtins_math.cpp)
                      "log10", "acosh", "asinh", "atanh", "atan2", "copysign", "hypot", "ldexp",
                      "llrint", "erfc", "fast_tanhf", "erfinv", "lgamma"};
  c.math_functions.erase("exp_");
  c.tl_functions = {
      // program and block creation
      "program_id", "num_programs", "arange", "zeros", "zeros_like", "full", "full_like", "cast",
      // memory
      "load", "store", "make_block_ptr", "advance",
      // element-wise
      "where", "maximum", "minimum", "abs", "exp", "exp2", "log", "log2", "sqrt", "sqrt_rn",
      "rsqrt", "sin", "cos", "sigmoid", "softmax", "erf", "fma", "floor", "ceil", "cdiv", "umulhi",
      "clamp", "div_rn", "fdiv",
      // the frontend also takes tl.tanh (Triton has it in tl.math / libdevice only)
      "tanh",
      // reductions and scans
      "sum", "max", "min", "argmax", "argmin", "reduce", "xor_sum", "cumsum", "cumprod",
      "associative_scan",
      // linear algebra and shape
      "dot", "trans", "permute", "reshape", "view", "expand_dims", "broadcast", "broadcast_to",
      "split", "join", "interleave", "ravel",
      // atomics
      "atomic_add", "atomic_max", "atomic_min", "atomic_cas", "atomic_xchg", "atomic_and",
      "atomic_or", "atomic_xor",
      // compile-time and debugging
      "debug_barrier", "static_assert", "static_print", "device_print", "device_assert",
      "multiple_of", "max_contiguous", "max_constancy", "constexpr", "static_range", "range",
      "assume",
      // random numbers (Philox 4x32, bit-identical to Triton's)
      "rand", "randn", "randint", "randint4x", "rand4x", "randn4x", "philox", "philox_impl",
      "uint_to_uniform_float", "pair_uniform_to_normal", "random",
      // types and namespaces (attributes, not calls)
      "dtype", "pointer_type", "block_type", "tensor", "math", "extra", "libdevice", "PropagateNan",
      "int1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
      "bfloat16", "float32", "float64", "float8e4nv", "float8e5", "float8e4b15", "float8e4b8",
      "float8e5b16"};
  // Each entry: the target feature the builtin needs (unsupported_builtin_message).
  c.unsupported_tl_functions = {
      {"inline_asm_elementwise",
       "inline GPU assembly (PTX/AMDGCN), which has no RISC-V/Xmtia equivalent"},
      {"dot_scaled", "microscaled (mx) block-scaled dot products, which the DPE does not have"},
      {"make_tensor_descriptor",
       "TMA tensor descriptors, an NVIDIA feature; use tl.make_block_ptr (DMA block copies)"},
      {"sort", "an in-register sorting network over a block (not implemented for the target yet)"},
      {"flip", "an in-register block reversal (not implemented for the target yet)"},
      {"histogram", "block histograms (scatter-add into registers; not implemented yet)"},
      {"gather", "an in-register gather along an axis (not implemented for the target yet)"},
      {"extra_cuda", "CUDA's libdevice helpers, which do not exist on this target"}};
  c.gather_loads = Support::Supported;  // RVV indexed loads
  c.scatter_stores = Support::Slow;     // RVV indexed stores: correct, but serialised per element
  c.atomics = Support::Supported;
  c.atomic_functions = {"atomic_add",  "atomic_max", "atomic_min", "atomic_cas",
                        "atomic_xchg", "atomic_and", "atomic_or",  "atomic_xor"};
  // fp16/bf16 atomics are compare-and-swap loops on the containing word.
  c.atomic_dtypes = {"int32", "int64", "uint32", "uint64", "float32", "float16", "bfloat16"};
  c.atomic_sems = {"relaxed", "acquire", "release", "acq_rel"};
  c.tensor_alignment_bytes = 16;
  c.block_dims_power_of_two = true;
  c.max_block_elements = 1 << 20;  // Triton's TRITON_MAX_TENSOR_NUMEL
  c.max_grid_dims = 3;
  c.dot_forms = {{"float16", "float32", "dpe"},
                 {"float16", "float16", "dpe"},
                 {"bfloat16", "float32", "dpe"},
                 {"int8", "int32", "dpe"},
                 {"float32", "float32", "vector"}};
  c.dot_input_precisions = {"ieee", "tf32", "tf32x3"};
  return c;
}

const TargetCapabilities &mtia_capabilities() {
  static const TargetCapabilities caps = build_mtia();
  return caps;
}

std::string unsupported_builtin_message(const TargetCapabilities &caps, std::string_view shown,
                                        std::string_view fn) {
  auto it = caps.unsupported_tl_functions.find(std::string(fn));
  if (it == caps.unsupported_tl_functions.end()) return {};
  return "'" + std::string(shown) + "' is not supported on target '" + caps.target +
         "': it needs " + it->second;
}

bool TargetCapabilities::dtype_supported(std::string_view name) const {
  return dtypes.count(canonical_tl_dtype(name)) != 0;
}

std::string TargetCapabilities::dtype_problem(std::string_view name) const {
  auto it = unsupported_dtypes.find(canonical_tl_dtype(name));
  return it == unsupported_dtypes.end() ? std::string() : it->second;
}

bool TargetCapabilities::dot_supported(std::string_view input, std::string_view output) const {
  std::string in = canonical_tl_dtype(input), out = canonical_tl_dtype(output);
  for (auto &f : dot_forms)
    if (f.input == in && f.output == out) return true;
  return false;
}

nlohmann::json to_json(const TargetCapabilities &c) {
  nlohmann::json j;
  j["target"] = c.target;
  j["dtypes"] = c.dtypes;
  j["unsupported_dtypes"] = c.unsupported_dtypes;
  j["tl_functions"] = c.tl_functions;
  j["math_functions"] = c.math_functions;
  j["unsupported_tl_functions"] = c.unsupported_tl_functions;
  j["gather_loads"] = support_name(c.gather_loads);
  j["scatter_stores"] = support_name(c.scatter_stores);
  j["atomics"] = support_name(c.atomics);
  j["atomic_functions"] = c.atomic_functions;
  j["atomic_dtypes"] = c.atomic_dtypes;
  j["atomic_sems"] = c.atomic_sems;
  j["tensor_alignment_bytes"] = c.tensor_alignment_bytes;
  j["block_dims_power_of_two"] = c.block_dims_power_of_two;
  j["max_block_elements"] = c.max_block_elements;
  j["max_grid_dims"] = c.max_grid_dims;
  nlohmann::json dots = nlohmann::json::array();
  for (auto &d : c.dot_forms)
    dots.push_back({{"input", d.input}, {"output", d.output}, {"unit", d.unit}});
  j["dot_forms"] = dots;
  j["dot_input_precisions"] = c.dot_input_precisions;
  nlohmann::json ext = nlohmann::json::array();
  for (const isa::ExtInsn *x : isa::extension_insns())
    ext.push_back({{"function", "tl." + c.ext_intrinsic_module + "." + x->intrinsic},
                   {"instruction", x->mnemonic},
                   {"arguments", ext_intrinsic_signature(*x)},
                   {"semantics", x->semantics}});
  j["ext_intrinsics"] = ext;
  return j;
}

std::string describe(const TargetCapabilities &c) {
  auto join = [](const auto &set) {
    std::string s;
    for (auto &x : set) s += (s.empty() ? "" : ", ") + std::string(x);
    return s;
  };
  std::string out = "Target '" + c.target + "' constraints:\n";
  out += "- element types: " + join(c.dtypes) + "\n";
  for (auto &[t, why] : c.unsupported_dtypes)
    if (t == "float64") out += "- no " + t + ": " + why + "\n";
  out +=
      "- no complex types; fp8 (float8e4nv, float8e5, float8e4b15) only loads, stores and "
      "converts (.to(tl.float32) for arithmetic)\n";
  out += "- block sizes (tl.arange ranges, block shapes) must be powers of two, at most " +
         std::to_string(c.max_block_elements) + " elements per block\n";
  std::string dots;
  for (auto &d : c.dot_forms) dots += (dots.empty() ? "" : ", ") + d.input + "->" + d.output;
  out += "- tl.dot operand->accumulator types: " + dots + "\n";
  out += "- atomics: " + join(c.atomic_functions) + " on " + join(c.atomic_dtypes) + "\n";
  out += "- scatter stores (addresses computed from loaded data): " +
         std::string(support_name(c.scatter_stores)) + "\n";
  out += "- not available: ";
  std::string un;
  for (auto &[f, why] : c.unsupported_tl_functions) un += (un.empty() ? "tl." : ", tl.") + f;
  out += un + "\n";
  for (const isa::ExtInsn *x : isa::extension_insns())
    out += "- tl." + c.ext_intrinsic_module + "." + x->intrinsic + "(" +
           ext_intrinsic_signature(*x) + "): fp32 element-wise, " + x->semantics + " (" +
           x->mnemonic + ", ISA extension " + x->extension + ")\n";
  out += "- tensors passed to kernels should be " + std::to_string(c.tensor_alignment_bytes) +
         "-byte aligned; launch grids have at most " + std::to_string(c.max_grid_dims) +
         " dimensions\n";
  return out;
}

}  // namespace opforge::compiler
