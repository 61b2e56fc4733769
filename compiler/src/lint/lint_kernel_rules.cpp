//===- lint_kernel_rules.cpp - capability-table rules for @triton.jit code -===//
#include <optional>

#include "lint_context.h"
#include "opforge/compiler/ext_intrinsic.h"
#include "opforge/compiler/mtia_builtins.h"

namespace opforge::compiler::lint_detail {

using namespace ast;

namespace {

bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

const Expr *arg_or_keyword(const Call &c, size_t index, std::string_view name) {
  if (index < c.args.size() && !c.args[index]->is<Starred>()) return c.args[index].get();
  if (auto *k = c.keyword(name)) return k->value.get();
  return nullptr;
}

std::optional<int64_t> const_int(const Expr &e) {
  if (auto *c = e.as<Constant>(); c && c->is_int()) return std::get<int64_t>(c->value);
  if (auto *u = e.as<UnaryOp>(); u && u->op == UnaryOpKind::USub)
    if (auto v = const_int(*u->operand)) return -*v;
  return std::nullopt;
}

// Literal shape: (A, B), [A, B] or a single int; only constant dimensions are returned.
std::vector<std::pair<int64_t, const Expr *>> literal_dims(const Expr &shape) {
  std::vector<std::pair<int64_t, const Expr *>> dims;
  const std::vector<ExprPtr> *elts = nullptr;
  if (auto *t = shape.as<Tuple>())
    elts = &t->elts;
  else if (auto *l = shape.as<List>())
    elts = &l->elts;
  if (elts) {
    for (auto &e : *elts)
      if (auto v = const_int(*e)) dims.push_back({*v, e.get()});
  } else if (auto v = const_int(shape)) {
    dims.push_back({*v, &shape});
  }
  return dims;
}

}  // namespace

void lint_kernel(Context &ctx, const FunctionDef &f) {
  const TargetCapabilities &caps = ctx.caps;
  std::vector<const Expr *> all;
  for (auto &s : f.body)
    walk(
        *s, [&](const Expr &e) { all.push_back(&e); }, [](const Stmt &) {});

  // tl attributes: unknown or unsupported builtins (outermost attribute chains only).
  std::set<const Expr *> inner;
  for (auto *e : all)
    if (auto *a = e->as<Attribute>(); a && a->value->is<Attribute>()) inner.insert(a->value.get());
  for (auto *e : all) {
    auto *a = e->as<Attribute>();
    if (!a || inner.count(e)) continue;
    std::string path = ctx.resolve(*e);
    const std::string tl = "triton.language.";
    if (path.rfind(tl, 0) != 0) continue;
    std::string rest = path.substr(tl.size());
    // tl.extra.mtia.X: the intrinsic of a loaded ISA extension (ext_intrinsic.h).
    const std::string ext_module = caps.ext_intrinsic_module + ".";
    if (rest.rfind(ext_module, 0) == 0) {
      std::string name = rest.substr(ext_module.size());
      if (name.find('.') != std::string::npos ||
          (!find_mtia_builtin(name) && !find_ext_intrinsic(name)))
        ctx.report("OPF014", a->attr_loc, ext_intrinsic_missing(name));
      continue;
    }
    std::string first = rest.substr(0, rest.find('.'));
    bool is_math_ns = first == "math" || rest.rfind("extra.libdevice.", 0) == 0 ||
                      rest.rfind("extra.cuda.libdevice.", 0) == 0;
    std::string fn = is_math_ns ? rest.substr(rest.rfind('.') + 1) : first;
    if (is_math_ns && rest.find('.') == std::string::npos) continue;  // bare tl.math
    if (rest == "extra" || rest == "extra.libdevice" || rest == caps.ext_intrinsic_module) continue;
    if (std::string why = unsupported_builtin_message(caps, unparse(*e), fn); !why.empty()) {
      ctx.report("OPF003", a->attr_loc, why);
      continue;
    }
    bool known = is_math_ns ? caps.math_functions.count(fn) != 0 : caps.tl_functions.count(fn) != 0;
    if (!known)
      ctx.report(
          "OPF004", a->attr_loc,
          std::string(is_math_ns ? "module 'triton.language.math'" : "module 'triton.language'") +
              " has no attribute '" + fn + "'");
  }
  // Names holding loaded data (flow-insensitive, to a fixed point).
  std::set<std::string> loaded;
  auto is_load_call = [&](const Expr &e) {
    auto *c = e.as<Call>();
    if (!c) return false;
    std::string p = ctx.resolve(*c->func);
    return p == "triton.language.load" || p.rfind("triton.language.atomic_", 0) == 0;
  };
  auto derives_from_load = [&](const Expr &e) {
    bool yes = false;
    walk(e, [&](const Expr &x) {
      if (is_load_call(x)) yes = true;
      if (auto *n = x.as<Name>(); n && loaded.count(n->id)) yes = true;
    });
    return yes;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto &s : f.body)
      walk(
          *s, [](const Expr &) {},
          [&](const Stmt &st) {
            auto mark = [&](const Expr &target) {
              walk(target, [&](const Expr &x) {
                if (auto *n = x.as<Name>(); n && loaded.insert(n->id).second) changed = true;
              });
            };
            if (auto *a = st.as<Assign>(); a && derives_from_load(*a->value))
              for (auto &t : a->targets) mark(*t);
            if (auto *a = st.as<AugAssign>(); a && derives_from_load(*a->value)) mark(*a->target);
            if (auto *a = st.as<AnnAssign>(); a && a->value && derives_from_load(*a->value))
              mark(*a->target);
          });
  }

  for (auto *e : all) {
    auto *c = e->as<Call>();
    if (!c) continue;
    std::string p = ctx.resolve(*c->func);
    if (p.rfind("triton.language.", 0) != 0) {
      // Method-style calls on blocks: x.to(tl.float64) is caught by the dtype rule.
      if (auto *sub = c->func->as<Subscript>();
          sub && sub->value->is<Name>() && ctx.jit_names.count(sub->value->cast<Name>().id))
        ctx.report("OPF110", c->loc,
                   "kernel launch '" + unparse(*c->func) +
                       "(...)' inside a @triton.jit function; "
                       "call the jit function directly instead");
      continue;
    }
    std::string fn = p.substr(16);
    if (fn == "store" || fn.rfind("atomic_", 0) == 0) {
      const Expr *ptr = arg_or_keyword(*c, 0, "pointer");
      if (ptr && derives_from_load(*ptr) && caps.scatter_stores != Support::Supported) {
        Severity sev =
            caps.scatter_stores == Support::Unsupported ? Severity::Error : Severity::Warning;
        ctx.report("OPF006", sev, ptr->loc,
                   "tl." + fn + " to addresses computed from loaded data (a scatter) is " +
                       std::string(support_name(caps.scatter_stores)) + " on target '" +
                       caps.target + "'");
      }
    }
    if (fn == "load") {
      const Expr *ptr = arg_or_keyword(*c, 0, "pointer");
      if (ptr && derives_from_load(*ptr) && caps.gather_loads != Support::Supported) {
        Severity sev =
            caps.gather_loads == Support::Unsupported ? Severity::Error : Severity::Warning;
        ctx.report("OPF007", sev, ptr->loc,
                   "tl.load from addresses computed from loaded data (a gather) is " +
                       std::string(support_name(caps.gather_loads)) + " on target '" + caps.target +
                       "'");
      }
    }
    if (fn.rfind("atomic_", 0) == 0) {
      if (caps.atomics == Support::Unsupported || !caps.atomic_functions.count(fn))
        ctx.report("OPF008", c->func->loc,
                   "tl." + fn + " is not supported on target '" + caps.target + "'");
      if (auto *k = c->keyword("sem"))
        if (auto *s = k->value->as<Constant>();
            s && s->is_str() && !caps.atomic_sems.count(std::get<std::string>(s->value)))
          ctx.report("OPF008", k->value->loc,
                     "atomic memory semantic '" + std::get<std::string>(s->value) +
                         "' is not supported (use relaxed, acquire, release or acq_rel)");
      if (auto *k = c->keyword("scope"))
        if (auto *s = k->value->as<Constant>();
            s && s->is_str() && std::get<std::string>(s->value) == "sys")
          ctx.report("OPF008", k->value->loc,
                     "atomic scope 'sys' (host-coherent atomics) is not supported on target '" +
                         caps.target + "'");
    }
    if (fn == "dot") {
      if (auto *k = c->keyword("out_dtype")) {
        std::string dt = ctx.resolve(*k->value);
        if (!dt.empty()) {
          std::string name = canonical_tl_dtype(dt.substr(dt.rfind('.') + 1));
          bool ok = false;
          for (auto &form : caps.dot_forms) ok |= form.output == name;
          if (!ok)
            ctx.report(
                "OPF005", k->value->loc,
                "tl.dot out_dtype " + name + " is not supported on target '" + caps.target + "'");
        }
      }
      if (auto *k = c->keyword("input_precision"))
        if (auto *s = k->value->as<Constant>();
            s && s->is_str() && !caps.dot_input_precisions.count(std::get<std::string>(s->value)))
          ctx.report("OPF005", k->value->loc,
                     "tl.dot input_precision '" + std::get<std::string>(s->value) +
                         "' is not supported (use ieee, tf32 or tf32x3)");
    }
    if (fn == "arange") {
      const Expr *start = arg_or_keyword(*c, 0, "start");
      const Expr *end = arg_or_keyword(*c, 1, "end");
      if (start && end) {
        auto s = const_int(*start), en = const_int(*end);
        if (s && en) {
          int64_t range = *en - *s;
          if (caps.block_dims_power_of_two && !is_pow2(range))
            ctx.report("OPF009", c->loc,
                       "arange's range must be a power of 2, got " + std::to_string(range));
          else if (range > caps.max_block_elements)
            ctx.report("OPF010", c->loc,
                       "tl.arange range " + std::to_string(range) + " exceeds the block limit of " +
                           std::to_string(caps.max_block_elements) + " elements");
        }
      }
    }
    if (fn == "zeros" || fn == "full" || fn == "make_block_ptr" || fn == "reshape" ||
        fn == "broadcast_to") {
      const Expr *shape = fn == "make_block_ptr" ? arg_or_keyword(*c, 4, "block_shape")
                          : fn == "reshape" || fn == "broadcast_to"
                              ? nullptr
                              : arg_or_keyword(*c, 0, "shape");
      if (!shape) continue;
      int64_t total = 1;
      bool all_const = true;
      for (auto &[v, node] : literal_dims(*shape)) {
        if (caps.block_dims_power_of_two && !is_pow2(v))
          ctx.report(
              "OPF009", node->loc,
              "block dimension " + std::to_string(v) + " of tl." + fn + " is not a power of 2");
        total *= v > 0 ? v : 1;
      }
      const std::vector<ExprPtr> *elts = nullptr;
      if (auto *t = shape->as<Tuple>())
        elts = &t->elts;
      else if (auto *l = shape->as<List>())
        elts = &l->elts;
      if (elts)
        for (auto &x : *elts) all_const &= const_int(*x).has_value();
      if (all_const && total > caps.max_block_elements)
        ctx.report("OPF010", shape->loc,
                   "block of " + std::to_string(total) +
                       " elements exceeds the target's limit of " +
                       std::to_string(caps.max_block_elements));
    }
    if (fn == "device_print" || fn == "static_print")
      ctx.report("OPF012", c->loc, "tl." + fn + " left in a kernel; remove it when done debugging");
  }
}

}  // namespace opforge::compiler::lint_detail
