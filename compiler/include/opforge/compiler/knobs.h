//===- knobs.h - every environment switch of the compiler, in one place ---===//
//
//   OPFORGE_DOT_PRECISION    default input_precision of tl.dot on fp32 operands
//                            ("ieee" default: the target has no TF32; "tf32", "tf32x3")
//   OPFORGE_DISABLE_PASSES   comma-separated pass names skipped by the pipeline
//   OPFORGE_VERIFY_EACH_PASS "0" turns off verification after every pass
//   OPFORGE_DUMP_IR_DIR      when set, every stage's form is written there as
//                            <kernel>.<stage>.txt
//   OPFORGE_REPLACE_IR       "ttir=FILE[,opt=FILE]": after running a stage,
//                            continue from the ttir in FILE (debugging)
//
// Knobs::from_env() reads them; code takes a Knobs value, never getenv itself.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <set>
#include <string>

namespace opforge::compiler {

struct Knobs {
  std::string dot_precision = "ieee";
  std::set<std::string> disabled_passes;
  bool verify_each_pass = true;
  std::string dump_ir_dir;
  std::map<std::string, std::string> replace_ir;  // stage -> ttir file

  static Knobs from_env();
};

}  // namespace opforge::compiler
