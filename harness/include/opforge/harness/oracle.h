//===- oracle.h - ATen's CPU kernels as the reference: call any overload ---===//
//
// Calls an ATen overload by name ("aten::add.Tensor", "aten::_softmax")
// through the c10 dispatcher with boxed arguments built from Values
// (HostTensors with their strides and storage offsets, scalars, lists, None,
// dtypes, layouts, memory formats, devices). Positional and keyword arguments
// are matched to the schema; omitted ones take the schema's defaults. Returns
// the outputs as Values and the values of the arguments the schema marks as
// written. libtorch stays inside this library (opforge_oracle): no torch header
// is visible here.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "opforge/harness/corpus.h"

namespace opforge::harness {

struct OracleResult {
  Value out;                                           // one value, or a List for several returns
  std::vector<std::pair<std::string, Value>> mutated;  // written arguments after the call
};

class Oracle {
 public:
  // The overload's schema text; throws opforge::Error naming an unknown overload.
  static std::string schema(const std::string &overload);
  static bool has_overload(const std::string &overload);
  // Throws opforge::Error (naming the overload and argument) for bad arguments
  // and for errors ATen raises.
  static OracleResult call(const std::string &overload, const std::vector<Value> &args,
                           const std::vector<std::pair<std::string, Value>> &kwargs = {});
  static OracleResult call(const Call &c) { return call(c.overload, c.args, c.kwargs); }
};

}  // namespace opforge::harness
