//===- rtl_backends.cpp - registers pe.dpe.impl=rtl|lockstep for every chip-model command -===//
//
// Not a subcommand: a static registration (compiled into the executable, so
// it is not dropped as it would be from a static library) of opforge_rtl's
// DPE backends with the chip model.
//
//===----------------------------------------------------------------------===//
#if __has_include("opforge/rtl/dpe_backends.h") && __has_include("opforge/model/pe_accel.h")
#include "opforge/rtl/dpe_backends.h"

namespace {

const bool kRtlBackendsRegistered = [] {
  opforge::rtl::register_model_backends();
  return true;
}();

}  // namespace
#endif
