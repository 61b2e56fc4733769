//===- lint_wrapper_rules.cpp - rules for host wrapper functions -----------===//
#include "lint_context.h"
#include "opforge/compiler/wrapper.h"

namespace opforge::compiler::lint_detail {

using namespace ast;

namespace {

// Method names that are ATen compute ops when called on a tensor. Names that
// are also common list/str/dict methods (copy, index, count, split, sort, ...)
// are left out: the linter cannot tell the receiver's type.
const std::set<std::string> kAtenMethods = {"sum",
                                            "mean",
                                            "amax",
                                            "amin",
                                            "argmax",
                                            "argmin",
                                            "exp",
                                            "exp2",
                                            "log",
                                            "log2",
                                            "log1p",
                                            "sqrt",
                                            "rsqrt",
                                            "abs",
                                            "neg",
                                            "add",
                                            "sub",
                                            "mul",
                                            "div",
                                            "pow",
                                            "matmul",
                                            "mm",
                                            "bmm",
                                            "addmm",
                                            "softmax",
                                            "log_softmax",
                                            "relu",
                                            "sigmoid",
                                            "tanh",
                                            "clamp",
                                            "clip",
                                            "masked_fill",
                                            "index_select",
                                            "gather",
                                            "scatter",
                                            "scatter_add",
                                            "cumsum",
                                            "cumprod",
                                            "topk",
                                            "var",
                                            "std",
                                            "norm",
                                            "prod",
                                            "eq",
                                            "ne",
                                            "lt",
                                            "le",
                                            "gt",
                                            "ge",
                                            "floor",
                                            "ceil",
                                            "round",
                                            "sin",
                                            "cos",
                                            "erf",
                                            "maximum",
                                            "minimum",
                                            "fmod",
                                            "remainder",
                                            "logical_and",
                                            "logical_or",
                                            "logical_not",
                                            "bitwise_and",
                                            "bitwise_or",
                                            "bitwise_xor",
                                            "bitwise_not",
                                            "add_",
                                            "sub_",
                                            "mul_",
                                            "div_",
                                            "clamp_",
                                            "relu_",
                                            "exp_",
                                            "sqrt_",
                                            "masked_fill_",
                                            "index_add",
                                            "index_add_",
                                            "index_put",
                                            "index_put_",
                                            "nonzero",
                                            "unique",
                                            "kthvalue",
                                            "median",
                                            "mode",
                                            "logsumexp",
                                            "square",
                                            "reciprocal",
                                            "sign",
                                            "trunc",
                                            "frac",
                                            "lerp",
                                            "addcmul",
                                            "addcdiv",
                                            "baddbmm",
                                            "dot",
                                            "outer",
                                            "cross",
                                            "tril",
                                            "triu",
                                            "flip",
                                            "roll",
                                            "repeat",
                                            "repeat_interleave",
                                            "tile",
                                            "max",
                                            "min",
                                            "all",
                                            "any",
                                            "isnan",
                                            "isinf",
                                            "isfinite",
                                            "nan_to_num",
                                            "to_dense",
                                            "to_sparse"};

const std::set<std::string> kLaunchOptions = {"num_warps", "num_stages",       "num_ctas",
                                              "maxnreg",   "enable_fp_fusion", "debug"};

// Names the autotune configs and heuristics of a kernel supply.
std::set<std::string> supplied_by_decorators(const Context &ctx, const FunctionDef &k) {
  std::set<std::string> names;
  for (auto &d : k.decorators) {
    auto *call = d->as<Call>();
    if (!call) continue;
    std::string callee = ctx.resolve(*call->func);
    auto dict_keys = [&](const Expr *e) {
      if (auto *dict = e ? e->as<Dict>() : nullptr)
        for (auto &key : dict->keys)
          if (auto *s = key ? key->as<Constant>() : nullptr; s && s->is_str())
            names.insert(std::get<std::string>(s->value));
    };
    if (callee == "triton.autotune") {
      const Expr *configs = call->keyword("configs") ? call->keyword("configs")->value.get()
                            : call->args.empty()     ? nullptr
                                                     : call->args[0].get();
      if (auto *list = configs ? configs->as<List>() : nullptr) {
        for (auto &cfg : list->elts)
          if (auto *cc = cfg->as<Call>()) {
            if (!cc->args.empty()) dict_keys(cc->args[0].get());
            if (auto *kw = cc->keyword("kwargs")) dict_keys(kw->value.get());
          }
      } else if (configs) {
        // Configs built by other code (a function, a comprehension, a module constant):
        // the keys of every triton.Config(...) of the file; "*" (anything may be supplied)
        // when one of them is not a dict literal or there is none.
        bool found = false, opaque = false;
        for (auto &s : ctx.module.body)
          walk(
              *s,
              [&](const Expr &e) {
                auto *cc = e.as<Call>();
                if (!cc) return;
                std::string f = ctx.resolve(*cc->func);
                if (f != "triton.Config" && f != "Config") return;
                found = true;
                const Expr *kw = !cc->args.empty()       ? cc->args[0].get()
                                 : cc->keyword("kwargs") ? cc->keyword("kwargs")->value.get()
                                                         : nullptr;
                if (!kw || !kw->is<Dict>()) opaque = true;
                dict_keys(kw);
              },
              [](const Stmt &) {});
        if (!found || opaque) names.insert("*");
      }
    } else if (callee == "triton.heuristics") {
      dict_keys(call->keyword("values") ? call->keyword("values")->value.get()
                : call->args.empty()    ? nullptr
                                        : call->args[0].get());
    }
  }
  return names;
}

void check_launch(Context &ctx, const FunctionDef &wrapper, const Call &call,
                  const Subscript &sub) {
  auto *kname = sub.value->as<Name>();
  if (!kname) return;
  const FunctionDef *k = ctx.module.function(kname->id);
  if (!k || !k->is_jit()) {
    if (!local_names(wrapper).count(kname->id))
      ctx.report("OPF107", sub.value->loc,
                 "'" + kname->id +
                     "' is not a @triton.jit function of this file; only kernels can be launched "
                     "with [grid]");
    return;
  }
  // Grid dimensions.
  const Expr *grid = sub.index.get();
  if (auto *n = grid->as<Name>()) {
    for (auto &s : wrapper.body)
      if (auto *a = s->as<Assign>(); a && a->targets.size() == 1 && a->targets[0]->is<Name>() &&
                                     a->targets[0]->cast<Name>().id == n->id)
        grid = a->value.get();
  }
  if (auto *l = grid->as<Lambda>()) grid = l->body.get();
  if (auto *t = grid->as<Tuple>(); t && static_cast<int>(t->elts.size()) > ctx.caps.max_grid_dims)
    ctx.report("OPF013", sub.index->loc,
               "launch grid has " + std::to_string(t->elts.size()) +
                   " dimensions; the target supports at most " +
                   std::to_string(ctx.caps.max_grid_dims));
  // Arguments against parameters.
  for (auto &a : call.args)
    if (a->is<Starred>()) return;
  for (auto &kw : call.keywords)
    if (kw.name.empty()) return;
  const auto &params = k->params.params;
  std::set<std::string> given;
  if (call.args.size() > params.size()) {
    ctx.report("OPF108", call.args[params.size()]->loc,
               "too many positional arguments for kernel '" + k->name + "': it takes " +
                   std::to_string(params.size()) + ", got " + std::to_string(call.args.size()));
    return;
  }
  for (size_t i = 0; i < call.args.size(); ++i) given.insert(params[i].name);
  std::set<std::string> from_decorators = supplied_by_decorators(ctx, *k);
  for (auto &kw : call.keywords) {
    if (kLaunchOptions.count(kw.name)) continue;
    if (k->params.find(kw.name) < 0) {
      ctx.report("OPF108", kw.loc,
                 "kernel '" + k->name + "' has no parameter named '" + kw.name + "'");
      continue;
    }
    if (!given.insert(kw.name).second)
      ctx.report("OPF108", kw.loc,
                 "kernel '" + k->name + "' got multiple values for argument '" + kw.name + "'");
    if (from_decorators.count(kw.name))
      ctx.report("OPF108", kw.loc,
                 "Conflicting meta-parameters: " + kw.name +
                     ". Make sure that you don't re-define auto-tuned symbols.");
  }
  for (auto &p : params) {
    if (given.count(p.name) || p.default_value || from_decorators.count(p.name) ||
        from_decorators.count("*"))
      continue;
    ctx.report("OPF108", call.loc,
               "kernel '" + k->name + "' launch is missing argument '" + p.name + "'");
  }
}

}  // namespace

void lint_wrapper(Context &ctx, const FunctionDef &f) {
  const auto &torch_fns = wrapper_torch_functions();
  const auto &methods = wrapper_tensor_methods();
  std::set<std::string> locals = local_names(f);
  std::vector<const Expr *> all;
  for (auto &s : f.body)
    walk(
        *s, [&](const Expr &e) { all.push_back(&e); }, [](const Stmt &) {});
  for (auto *e : all) {
    auto *c = e->as<Call>();
    if (!c) continue;
    // kernel[grid](...) launches and direct calls of jit functions.
    if (auto *sub = c->func->as<Subscript>()) {
      check_launch(ctx, f, *c, *sub);
      continue;
    }
    if (auto *n = c->func->as<Name>(); n && ctx.jit_names.count(n->id) && !locals.count(n->id)) {
      ctx.report("OPF106", c->loc,
                 "@triton.jit function '" + n->id +
                     "' cannot be called directly from host code; "
                     "launch it with " +
                     n->id + "[grid](...)");
      continue;
    }
    auto *attr = c->func->as<Attribute>();
    if (!attr) continue;
    std::string path = ctx.resolve(*c->func);
    // Device-to-host transfers.
    static const std::set<std::string> to_host = {"cpu",  "cuda",   "numpy",
                                                  "item", "tolist", "pin_memory"};
    if (path.empty() && to_host.count(attr->attr)) {
      ctx.report("OPF103", attr->attr_loc,
                 "'." + attr->attr +
                     "()' moves data off the device; wrappers must keep "
                     "tensors on the device and compute with kernels");
      continue;
    }
    // ATen ops through torch.*, torch.nn.functional.*, torch.ops.aten.*.
    if (path.rfind("torch.", 0) == 0) {
      std::string rest = path.substr(6);
      if (rest.rfind("ops.aten.", 0) == 0) {
        std::string opname = rest.substr(9);
        std::string op = opname.substr(0, opname.find('.'));
        std::string overload =
            opname.find('.') == std::string::npos ? "" : opname.substr(opname.find('.') + 1);
        if (!ctx.implemented(op, overload))
          ctx.report("OPF105", c->func->loc,
                     "ATen op '" + opname +
                         "' is not implemented by the kernel library; "
                         "compute it with a Triton kernel in this file");
        continue;
      }
      std::string op = rest.rfind("nn.functional.", 0) == 0 ? rest.substr(14) : rest;
      if (op.find('.') != std::string::npos) continue;  // host modules are OPF102
      if (rest == op && torch_fns.count(op)) continue;
      if (ctx.caps.dtypes.count(canonical_tl_dtype(op)) ||
          ctx.caps.unsupported_dtypes.count(canonical_tl_dtype(op)))
        continue;
      if (!ctx.implemented(op))
        ctx.report("OPF105", c->func->loc,
                   "'" + unparse(*c->func) + "' calls ATen op '" + op +
                       "', which the kernel library does not implement and the wrapper "
                       "interpreter cannot run; compute it with a Triton kernel in this file");
      continue;
    }
    if (!path.empty()) continue;  // triton.cdiv, math.*, ...
    // Tensor methods: device= / .to('cpu') and ATen compute methods.
    if (attr->attr == "to") {
      for (auto &a : c->args)
        if (auto *s = a->as<Constant>(); s && s->is_str())
          ctx.report("OPF103", a->loc,
                     "'.to(\"" + std::get<std::string>(s->value) +
                         "\")' moves the tensor to another device");
      if (auto *k = c->keyword("device"))
        ctx.report("OPF103", k->value->loc, "'.to(device=...)' moves the tensor to another device");
      continue;
    }
    if (methods.count(attr->attr)) continue;
    if (kAtenMethods.count(attr->attr) && !ctx.implemented(attr->attr))
      ctx.report("OPF105", attr->attr_loc,
                 "'." + attr->attr + "()' calls ATen op '" + attr->attr +
                     "', which the kernel library does not implement; compute it with a Triton "
                     "kernel in this file");
  }
  // device='cpu' / device='cuda' keywords anywhere in the wrapper.
  for (auto *e : all) {
    auto *c = e->as<Call>();
    if (!c) continue;
    if (auto *k = c->keyword("device"))
      if (auto *s = k->value->as<Constant>(); s && s->is_str())
        ctx.report("OPF103", k->value->loc,
                   "device='" + std::get<std::string>(s->value) +
                       "' places the tensor off the accelerator; use device=<input>.device");
  }
}

}  // namespace opforge::compiler::lint_detail
