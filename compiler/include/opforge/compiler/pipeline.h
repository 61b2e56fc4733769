//===- pipeline.h - the compiler's ordered, dumpable stages ---------------===//
//
// Stages run in order: ast (parse) -> ttir (semantic lowering) -> opt (pass
// pipeline). Later stages (lowered, llir, asm, bin) are appended by the code
// generator through register_stage(); every stage has a name, a summary and a
// dump function, so `opforge compile --dump <stage>` prints any of them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <any>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "opforge/compiler/ast.h"
#include "opforge/compiler/ir.h"
#include "opforge/compiler/kernel_binary.h"
#include "opforge/compiler/knobs.h"
#include "opforge/compiler/sema.h"

namespace opforge::compiler {

struct CompileOptions {
  std::string kernel;   // empty: the only (or first) @triton.jit function
  Specialization spec;  // runtime signature + constexpr values
  Knobs knobs = Knobs::from_env();
  TargetOptions target;  // used by the lowered, asm and bin stages
};

// State that flows through the stages.
struct CompileState {
  std::shared_ptr<const ast::Module> ast;
  std::string kernel;
  std::shared_ptr<ttir::Module> ttir;  // as lowered
  std::shared_ptr<ttir::Module> opt;   // after the pass pipeline
  std::vector<std::string> runtime_params;
  std::vector<std::string> passes_run;
  std::map<std::string, std::any> extra;  // later stages' products, by stage name
};

struct Stage {
  std::string name;
  std::string summary;
  std::function<void(CompileState &, const CompileOptions &)> run;
  std::function<std::string(const CompileState &)> dump;
};

// Registered stages in order (ast, ttir, opt, then any added).
const std::vector<Stage> &stages();
void register_stage(Stage stage);

// Runs every stage up to and including `last` ("ast", "ttir", "opt", ...).
// Throws opforge::Error (CompileError for source problems).
CompileState compile_file(const std::string &path, const CompileOptions &opts,
                          const std::string &last = "opt");
CompileState compile_source(std::shared_ptr<const ast::Module> module, const CompileOptions &opts,
                            const std::string &last = "opt");
std::string dump_stage(const CompileState &state, const std::string &stage);

}  // namespace opforge::compiler
