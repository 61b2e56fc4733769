//===- pipeline.cpp - the compiler's ordered stages and their driver (pipeline.h) ===//
//
// The stage list starts with ast, ttir (sema/) and opt (the ttir pass
// pipeline, passes/pass_pipeline.cpp); the code generator appends lowered,
// llir, asm and bin through register_stage() (codegen/stages.cpp).
// compile_source() runs the stages in order, dumping each to
// Knobs::dump_ir_dir and replacing ttir/opt from Knobs::replace_ir on request.
//
//===----------------------------------------------------------------------===//
#include "opforge/compiler/pipeline.h"

#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "opforge/compiler/ir_parser.h"
#include "opforge/compiler/ir_printer.h"
#include "opforge/compiler/parser.h"
#include "opforge/compiler/passes.h"

namespace opforge::compiler {

namespace {

std::shared_ptr<ttir::Module> clone_module(const ttir::Module &m) {
  auto out = std::make_shared<ttir::Module>();
  for (auto &f : m.functions) {
    ttir::Function *nf = out->add_function(f->name);
    nf->result_types = f->result_types;
    nf->loc = f->loc;
    std::map<ttir::Value *, ttir::Value *> map;
    for (auto &a : f->body->args) map[a.get()] = nf->body->add_arg(a->type, a->name);
    for (auto &op : f->body->ops) {
      auto c = ttir::clone_op(*op, map);
      c->parent = nf->body.get();
      nf->body->ops.push_back(std::move(c));
    }
  }
  return out;
}

std::vector<Stage> &stage_list() {
  static std::vector<Stage> list = {
      {"ast", "parse the source file into a syntax tree",
       [](CompileState &, const CompileOptions &) {},
       [](const CompileState &s) { return ast::dump_ast(*s.ast); }},
      {"ttir", "lower the kernel, specialised, to ttir (semantic analysis)",
       [](CompileState &s, const CompileOptions &o) {
         Specialization spec = o.spec;
         if (const ast::FunctionDef *fn = s.ast->function(s.kernel))
           add_autotune_defaults(*fn, spec);
         LoweredKernel k = lower_kernel(*s.ast, s.kernel, spec);
         s.ttir = k.module;
         s.runtime_params = k.runtime_params;
       },
       [](const CompileState &s) { return ttir::print(*s.ttir); }},
      {"opt", "run the ttir pass pipeline",
       [](CompileState &s, const CompileOptions &o) {
         s.opt = clone_module(*s.ttir);
         s.passes_run.clear();
         ttir::run_pass_pipeline(*s.opt, o.knobs, &s.passes_run);
       },
       [](const CompileState &s) { return ttir::print(*s.opt); }},
  };
  return list;
}

std::mutex &stage_mutex() {
  static std::mutex mu;
  return mu;
}

}  // namespace

const std::vector<Stage> &stages() { return stage_list(); }

void register_stage(Stage stage) {
  std::lock_guard<std::mutex> lock(stage_mutex());
  for (auto &s : stage_list())
    if (s.name == stage.name)
      throw Error("compiler stage '" + stage.name + "' is registered twice");
  stage_list().push_back(std::move(stage));
}

std::string dump_stage(const CompileState &state, const std::string &stage) {
  for (auto &s : stages())
    if (s.name == stage) return s.dump(state);
  throw Error("unknown compiler stage '" + stage + "'");
}

CompileState compile_source(std::shared_ptr<const ast::Module> module, const CompileOptions &opts,
                            const std::string &last) {
  bool known = false;
  for (auto &s : stages()) known |= s.name == last;
  if (!known) {
    std::string names;
    for (auto &s : stages()) names += (names.empty() ? "" : ", ") + s.name;
    throw Error("unknown compiler stage '" + last + "' (stages: " + names + ")");
  }
  CompileState st;
  st.ast = std::move(module);
  st.kernel = opts.kernel;
  if (st.kernel.empty()) {
    auto jits = st.ast->jit_functions();
    if (jits.empty()) throw Error(st.ast->file + ": no @triton.jit function in the file");
    st.kernel = jits.front()->name;
  }
  for (auto &s : stages()) {
    s.run(st, opts);
    auto rep = opts.knobs.replace_ir.find(s.name);
    if (rep != opts.knobs.replace_ir.end()) {
      // Debugging aid: continue from a hand-edited form of this stage.
      std::ifstream in(rep->second);
      if (!in)
        throw Error("OPFORGE_REPLACE_IR: cannot read '" + rep->second + "' for stage " + s.name);
      std::stringstream text;
      text << in.rdbuf();
      auto m = std::shared_ptr<ttir::Module>(ttir::parse_module(text.str(), rep->second).release());
      if (s.name == "ttir")
        st.ttir = m;
      else if (s.name == "opt")
        st.opt = m;
      else
        throw Error("OPFORGE_REPLACE_IR: stage '" + s.name + "' cannot be replaced from a file");
    }
    if (!opts.knobs.dump_ir_dir.empty()) {
      std::filesystem::create_directories(opts.knobs.dump_ir_dir);
      std::ofstream(std::filesystem::path(opts.knobs.dump_ir_dir) /
                    (st.kernel + "." + s.name + ".txt"))
          << s.dump(st);
    }
    if (s.name == last) break;
  }
  return st;
}

CompileState compile_file(const std::string &path, const CompileOptions &opts,
                          const std::string &last) {
  auto m = std::make_shared<ast::Module>(parse_file(path));
  return compile_source(std::move(m), opts, last);
}

}  // namespace opforge::compiler
