//===- surface.cpp - the torch functions and tensor methods wrappers may use ===//
#include "opforge/compiler/wrapper.h"

namespace opforge::compiler {

const std::set<std::string> &wrapper_torch_functions() {
  static const std::set<std::string> fns = {
      "empty",
      "empty_like",
      "zeros",
      "zeros_like",
      "ones",
      "ones_like",
      "full",
      "full_like",
      "empty_strided",
      "arange",
      "broadcast_shapes",
      "broadcast_tensors",
      "promote_types",
      "result_type",
      "is_tensor",
      "is_floating_point",
      "device",
      "Size",
  };
  return fns;
}

const std::set<std::string> &wrapper_tensor_methods() {
  static const std::set<std::string> methods = {"size",
                                                "stride",
                                                "dim",
                                                "ndimension",
                                                "numel",
                                                "nelement",
                                                "is_contiguous",
                                                "element_size",
                                                "storage_offset",
                                                "contiguous",
                                                "view",
                                                "view_as",
                                                "reshape",
                                                "reshape_as",
                                                "expand",
                                                "expand_as",
                                                "permute",
                                                "transpose",
                                                "t",
                                                "unsqueeze",
                                                "squeeze",
                                                "flatten",
                                                "narrow",
                                                "select",
                                                "to",
                                                "float",
                                                "half",
                                                "bfloat16",
                                                "int",
                                                "long",
                                                "bool",
                                                "is_floating_point",
                                                "new_empty",
                                                "new_zeros",
                                                "new_ones",
                                                "new_full",
                                                "copy_",
                                                "zero_",
                                                "fill_",
                                                "clone",
                                                "type_as"};
  return methods;
}

}  // namespace opforge::compiler
