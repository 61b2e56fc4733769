//===- sem_rv_v_fp.cpp - RVV floating point (and Zvfbfmin conversions) -----===//
#include "fp_helpers.h"
#include "vec_common.h"

using namespace opforge::isa;
using namespace opforge::isa::sem;
using namespace opforge::isa::vec;

OPF_SEM_UNIT(rv_v_fp)
