//===- inductor_heuristics.cpp - Inductor kernel decorators: configs and grids ===//
//
// Reads `@triton_heuristics.<kind>(size_hints=..., triton_meta=..., inductor_meta=...)`
// as literals (nothing is executed), proposes candidate block-size configs from the
// size hints and the target, and computes the grid rule named by grid_type.
//
//===----------------------------------------------------------------------===//
#include "opforge/compiler/inductor_heuristics.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "opforge/compiler/diagnostics.h"
#include "opforge/support/error.h"

namespace opforge::compiler {

using namespace ast;

namespace {

// A literal of the decorator, evaluated without Python: constants, dicts, lists,
// tuples, `Enum.MEMBER` attributes (kept as text) and calls (kept as their name).
struct Literal {
  enum class Kind { None, Bool, Int, Float, Str, Dict, List, Name, Call } kind = Kind::None;
  int64_t i = 0;
  double f = 0;
  std::string s;                                        // Str, Name ("ReductionHint.INNER"), Call
  std::vector<std::pair<std::string, Literal>> fields;  // Dict (keys as text)
  std::vector<Literal> items;                           // List / Tuple

  const Literal *get(const std::string &key) const {
    for (auto &[k, v] : fields)
      if (k == key) return &v;
    return nullptr;
  }
};

std::string key_text(const Literal &l) {
  switch (l.kind) {
    case Literal::Kind::Str:
    case Literal::Kind::Name:
    case Literal::Kind::Call:
      return l.s;
    case Literal::Kind::Int:
      return std::to_string(l.i);
    default:
      return "<key>";
  }
}

Literal literal(const Expr &e) {
  Literal out;
  if (auto *c = e.as<Constant>()) {
    if (c->is_bool())
      out.kind = Literal::Kind::Bool, out.i = std::get<bool>(c->value);
    else if (c->is_int())
      out.kind = Literal::Kind::Int, out.i = std::get<int64_t>(c->value);
    else if (c->is_float())
      out.kind = Literal::Kind::Float, out.f = std::get<double>(c->value);
    else if (c->is_str())
      out.kind = Literal::Kind::Str, out.s = std::get<std::string>(c->value);
    return out;
  }
  if (auto *u = e.as<UnaryOp>(); u && u->op == UnaryOpKind::USub) {
    out = literal(*u->operand);
    out.i = -out.i;
    out.f = -out.f;
    return out;
  }
  if (auto *d = e.as<Dict>()) {
    out.kind = Literal::Kind::Dict;
    for (size_t k = 0; k < d->keys.size(); ++k)
      if (d->keys[k])
        out.fields.emplace_back(key_text(literal(*d->keys[k])), literal(*d->values[k]));
    return out;
  }
  if (auto *l = e.as<List>()) {
    out.kind = Literal::Kind::List;
    for (auto &x : l->elts) out.items.push_back(literal(*x));
    return out;
  }
  if (auto *t = e.as<Tuple>()) {
    out.kind = Literal::Kind::List;
    for (auto &x : t->elts) out.items.push_back(literal(*x));
    return out;
  }
  if (e.is<Attribute>() || e.is<Name>()) {
    out.kind = Literal::Kind::Name;
    out.s = dotted_name(e);
    return out;
  }
  if (auto *c = e.as<Call>()) {
    out.kind = Literal::Kind::Call;
    out.s = dotted_name(*c->func);
    return out;
  }
  out.kind = Literal::Kind::Name;
  out.s = "<expression>";
  return out;
}

int64_t next_pow2(int64_t v) {
  int64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

int64_t cdiv(int64_t a, int64_t b) { return b <= 0 ? a : (a + b - 1) / b; }

// The size-hint prefix a block parameter covers: XBLOCK -> "x", R0_BLOCK -> "r0_".
std::string hint_of_block(const std::string &block) {
  if (block == "RBLOCK") return "r0_";
  std::string base = block.substr(0, block.size() - 5);  // drop "BLOCK"
  if (base.size() == 1) return std::string(1, static_cast<char>(std::tolower(base[0])));
  if (base.size() >= 2 && base[0] == 'R' && base.back() == '_') {
    std::string r = base;
    r[0] = 'r';
    return r;
  }
  return base;
}

const std::set<std::string> kKinds = {"pointwise", "reduction",  "persistent_reduction", "template",
                                      "foreach",   "split_scan", "cooperative_reduction"};

}  // namespace

const char *inductor_kernel_kind_name(InductorKernelKind kind) {
  switch (kind) {
    case InductorKernelKind::Pointwise:
      return "pointwise";
    case InductorKernelKind::Reduction:
      return "reduction";
    case InductorKernelKind::PersistentReduction:
      return "persistent_reduction";
    case InductorKernelKind::Template:
      return "template";
    case InductorKernelKind::Foreach:
      return "foreach";
    case InductorKernelKind::SplitScan:
      return "split_scan";
  }
  return "?";
}

bool is_inductor_kernel_source(const Module &m) {
  for (auto &s : m.body)
    if (auto *from = s->as<ImportFrom>(); from && from->module == "torch._inductor.runtime")
      for (auto &a : from->names)
        if (a.name == "triton_heuristics") return true;
  return false;
}

std::string InductorConfig::str() const {
  std::string out;
  for (auto &[name, v] : blocks) out += name + ": " + std::to_string(v) + ", ";
  return out + "num_warps: " + std::to_string(num_warps) +
         ", num_stages: " + std::to_string(num_stages);
}

std::optional<int64_t> InductorConfig::get(const std::string &name) const {
  for (auto &[n, v] : blocks)
    if (n == name) return v;
  return std::nullopt;
}

InductorKernelInfo read_inductor_kernel(const Module &m, const std::string &kernel) {
  auto fail = [&](SourceLoc loc, const std::string &msg) -> CompileError {
    if (m.source) return CompileError::at(*m.source, loc, msg);
    return CompileError(msg, m.file, loc);
  };
  const FunctionDef *fn = nullptr;
  if (!kernel.empty()) {
    fn = m.function(kernel);
    if (!fn) throw fail({1, 1}, "no kernel '" + kernel + "' in this Inductor kernel source");
  } else {
    // The decorated one: a source may define jit helpers before it (the combine
    // functions of scans, `_triton_helper_fn_add0`).
    for (auto *f : m.jit_functions())
      for (auto &d : f->decorators)
        if (auto *c = d->as<Call>();
            !fn && c && dotted_name(*c->func).rfind("triton_heuristics.", 0) == 0)
          fn = f;
    for (auto *f : m.jit_functions())
      if (!fn && f->name.rfind("triton_helpers_", 0) != 0) fn = f;
    if (!fn) throw fail({1, 1}, "no @triton.jit kernel in this Inductor kernel source");
  }
  InductorKernelInfo info;
  info.kernel = fn->name;
  const Call *deco = nullptr;
  std::string kind;
  for (auto &d : fn->decorators)
    if (auto *c = d->as<Call>()) {
      std::string name = dotted_name(*c->func);
      if (name.rfind("triton_heuristics.", 0) == 0) {
        deco = c;
        kind = name.substr(18);
      }
    }
  if (!deco)
    throw fail(fn->loc, "kernel '" + fn->name +
                            "' has no @triton_heuristics.<kind>(...) decorator (Inductor kernel "
                            "sources have one)");
  info.line = deco->loc.line;
  if (!kKinds.count(kind))
    throw fail(deco->loc, "kernel '" + fn->name + "': @triton_heuristics." + kind +
                              " is not supported (supported: pointwise, reduction, "
                              "persistent_reduction, template, foreach, split_scan)");
  if (kind == "pointwise") info.kind = InductorKernelKind::Pointwise;
  if (kind == "reduction" || kind == "cooperative_reduction")
    info.kind = InductorKernelKind::Reduction;
  if (kind == "persistent_reduction") info.kind = InductorKernelKind::PersistentReduction;
  if (kind == "template") info.kind = InductorKernelKind::Template;
  if (kind == "foreach") info.kind = InductorKernelKind::Foreach;
  if (kind == "split_scan") info.kind = InductorKernelKind::SplitScan;

  std::optional<Literal> size_hints, triton_meta, inductor_meta;
  if (!deco->args.empty() && info.kind != InductorKernelKind::Template &&
      info.kind != InductorKernelKind::Foreach)
    size_hints = literal(*deco->args[0]);
  if (deco->args.size() > 1 && info.kind != InductorKernelKind::Foreach)
    triton_meta = literal(*deco->args[1]);
  for (auto &kw : deco->keywords) {
    if (kw.name == "size_hints") size_hints = literal(*kw.value);
    if (kw.name == "triton_meta") triton_meta = literal(*kw.value);
    if (kw.name == "inductor_meta") inductor_meta = literal(*kw.value);
    if (kw.name == "reduction_hint" || kw.name == "tile_hint") {
      std::string v = literal(*kw.value).s;
      v = v.substr(v.rfind('.') + 1);
      (kw.name == "tile_hint" ? info.tile_hint : info.reduction_hint) = v == "None" ? "" : v;
    }
    if (kw.name == "num_stages" || kw.name == "num_warps") {
      Literal l = literal(*kw.value);
      if (l.kind != Literal::Kind::Int)
        throw fail(kw.loc, "kernel '" + fn->name + "': " + kw.name + " must be an integer literal");
      (kw.name == "num_stages" ? info.num_stages : info.num_warps) = static_cast<int>(l.i);
    }
  }
  if (size_hints) {
    if (size_hints->kind != Literal::Kind::Dict)
      throw fail(deco->loc, "kernel '" + fn->name + "': size_hints must be a dict literal");
    for (auto &[k, v] : size_hints->fields) {
      if (v.kind != Literal::Kind::Int)
        throw fail(deco->loc,
                   "kernel '" + fn->name + "': size_hints['" + k + "'] must be an integer");
      info.size_hints.emplace_back(k, v.i);
    }
  } else if (info.kind != InductorKernelKind::Template &&
             info.kind != InductorKernelKind::Foreach) {
    throw fail(deco->loc, "kernel '" + fn->name + "': the decorator has no size_hints");
  }
  if (!triton_meta || triton_meta->kind != Literal::Kind::Dict || !triton_meta->get("signature"))
    throw fail(deco->loc,
               "kernel '" + fn->name + "': the decorator has no triton_meta['signature']");
  for (auto &[name, type] : triton_meta->get("signature")->fields) {
    if (type.kind != Literal::Kind::Str)
      throw fail(deco->loc, "kernel '" + fn->name + "': triton_meta['signature']['" + name +
                                "'] must be a string");
    info.signature.emplace_back(name, type.s);
  }
  if (auto *consts = triton_meta->get("constants")) {
    for (auto &[name, v] : consts->fields) {
      ParamSpec p;
      p.kind = ParamSpec::Kind::Constexpr;
      switch (v.kind) {
        case Literal::Kind::None:
          p.ckind = ParamSpec::CKind::None;
          break;
        case Literal::Kind::Bool:
          p.ckind = ParamSpec::CKind::Bool, p.i = v.i;
          break;
        case Literal::Kind::Int:
          p.ckind = ParamSpec::CKind::Int, p.i = v.i;
          break;
        case Literal::Kind::Float:
          p.ckind = ParamSpec::CKind::Float, p.f = v.f;
          break;
        case Literal::Kind::Str:
          p.ckind = ParamSpec::CKind::Str, p.s = v.s;
          break;
        default:
          throw fail(deco->loc, "kernel '" + fn->name + "': triton_meta['constants']['" + name +
                                    "'] is not a constant");
      }
      info.constants[name] = p;
    }
  }
  for (auto &[name, type] : info.signature)
    if (type == "constexpr" && !info.constants.count(name)) info.block_params.push_back(name);
  if (inductor_meta) {
    if (auto *g = inductor_meta->get("grid_type"); g && g->kind == Literal::Kind::Str)
      info.grid_type = g->s;
    if (auto *mut = inductor_meta->get("mutated_arg_names"))
      for (auto &x : mut->items) info.mutated_arg_names.push_back(x.s);
  }
  if (kind == "cooperative_reduction") info.grid_type = "CooperativeReductionGrid";
  return info;
}

std::vector<InductorConfig> inductor_configs(const InductorKernelInfo &info,
                                             const InductorTarget &target) {
  std::map<std::string, int64_t> hint;  // "x" -> next power of two of its size hint
  for (auto &[k, v] : info.size_hints) hint[k] = next_pow2(std::max<int64_t>(v, 1));
  auto hint_for = [&](const std::string &block) {
    auto it = hint.find(hint_of_block(block));
    return it == hint.end() ? int64_t(1) : it->second;
  };
  int64_t lanes = std::max(1, target.vector_bits / 32);  // fp32 elements per vector register
  // Elements of one block value the rule lets a program hold: a kernel keeps about a
  // dozen block values of 4-8 bytes live, and they share the PE's local memory.
  int64_t budget = std::max<int64_t>(lanes, static_cast<int64_t>(target.local_mem_bytes / 96));
  budget = int64_t(1) << (63 - __builtin_clzll(static_cast<uint64_t>(budget)));
  int pes = std::max(1, target.num_pes);

  std::vector<std::vector<std::pair<std::string, int64_t>>> candidates;
  auto add = [&](std::map<std::string, int64_t> want) {
    std::vector<std::pair<std::string, int64_t>> blocks;
    for (auto &b : info.block_params) {
      int64_t v = want.count(b) ? want[b] : 1;
      v = std::clamp<int64_t>(next_pow2(std::max<int64_t>(v, 1)), 1, hint_for(b));
      blocks.emplace_back(b, v);
    }
    if (std::find(candidates.begin(), candidates.end(), blocks) == candidates.end())
      candidates.push_back(blocks);
  };
  // The x block that gives every PE about one program (at least one vector).
  auto spread = [&](int64_t numel, int64_t per_program_cap) {
    int64_t b = next_pow2(cdiv(numel, pes));
    return std::clamp<int64_t>(b, std::min(lanes, numel), std::max<int64_t>(1, per_program_cap));
  };
  bool has = false;
  for (auto &b : info.block_params) has = has || b.find("BLOCK") != std::string::npos;
  int64_t hx = hint.count("x") ? hint["x"] : 1;
  int64_t hr = hint.count("r0_") ? hint["r0_"] : 1;
  switch (info.kind) {
    case InductorKernelKind::Pointwise: {
      bool two_d = std::find(info.block_params.begin(), info.block_params.end(), "YBLOCK") !=
                   info.block_params.end();
      if (!two_d) {
        int64_t best = spread(hx, std::min<int64_t>(budget, 4096));
        for (int64_t x : {best, best * 4, best / 4, std::min<int64_t>(budget, 1024), lanes * 4})
          add({{"XBLOCK", x}, {"ZBLOCK", 1}});
      } else {
        int64_t hy = hint.count("y") ? hint["y"] : 1;
        for (int64_t tile : {int64_t(1024), int64_t(256), int64_t(4096)}) {
          if (tile > budget) continue;
          int64_t x = std::min(hx, tile);
          add({{"XBLOCK", x}, {"YBLOCK", std::max<int64_t>(1, std::min(hy, tile / x))}});
          int64_t side = 1;
          while (side * side * 4 <= tile) side *= 2;
          add({{"XBLOCK", side}, {"YBLOCK", tile / side}});
        }
      }
      break;
    }
    case InductorKernelKind::PersistentReduction: {
      // R0_BLOCK is fixed in the body to the reduction's size: only XBLOCK varies.
      int64_t cap = std::max<int64_t>(1, budget / std::max<int64_t>(hr, 1));
      int64_t best = std::min(cap, std::max<int64_t>(1, next_pow2(cdiv(hx, pes))));
      if (best * hr < lanes) best = std::min(cap, next_pow2(cdiv(lanes, hr)));
      for (int64_t x : {best, int64_t(1), int64_t(8), int64_t(32), cap})
        if (x <= cap) add({{"XBLOCK", x}});
      break;
    }
    case InductorKernelKind::Reduction: {
      bool outer = info.reduction_hint == "OUTER" || info.reduction_hint == "OUTER_TINY";
      std::vector<std::pair<int64_t, int64_t>> shapes =
          outer ? std::vector<std::pair<int64_t, int64_t>>{{64, 8}, {8, 64}, {lanes, 16}, {1, 512}}
                : std::vector<std::pair<int64_t, int64_t>>{{1, 2048}, {8, 256}, {1, 512}, {64, 64}};
      for (auto [x, r] : shapes) {
        while (x * r > budget && r > 1) r /= 2;
        std::map<std::string, int64_t> want = {{"XBLOCK", x}};
        for (auto &b : info.block_params)
          if (b[0] == 'R') want[b] = r;
        add(want);
      }
      break;
    }
    case InductorKernelKind::SplitScan: {
      for (int64_t r : {std::min<int64_t>(hr, 1024), std::min<int64_t>(hr, 256)}) {
        std::map<std::string, int64_t> want = {{"XBLOCK", 1}};
        for (auto &b : info.block_params)
          if (b[0] == 'R') want[b] = r;
        add(want);
      }
      break;
    }
    case InductorKernelKind::Template:
    case InductorKernelKind::Foreach: {
      std::map<std::string, int64_t> want;
      for (auto &b : info.block_params) want[b] = std::min<int64_t>(hint_for(b), 64);
      add(want);
      break;
    }
  }
  (void)has;
  if (candidates.empty()) add({});
  std::vector<InductorConfig> out;
  for (auto &c : candidates) {
    InductorConfig cfg;
    cfg.blocks = c;
    cfg.num_warps = info.num_warps.value_or(1);
    cfg.num_stages = info.num_stages.value_or(1);
    out.push_back(cfg);
    if (out.size() == 6) break;
  }
  return out;
}

std::array<int64_t, 3> inductor_grid(const InductorKernelInfo &info, const InductorConfig &config,
                                     const std::map<std::string, int64_t> &numels) {
  auto numel = [&](const std::string &name) {
    auto it = numels.find(name);
    if (it == numels.end())
      throw CompileError("kernel '" + info.kernel + "': the " + info.grid_type +
                             " grid needs the launch's " + name,
                         "", {info.line, 1});
    return it->second;
  };
  auto blocks = [&](const std::string &dim, const std::string &block) {
    return cdiv(numel(dim), config.get(block).value_or(1));
  };
  const std::string &g = info.grid_type;
  if (g == "Grid1D") return {blocks("xnumel", "XBLOCK"), 1, 1};
  if (g == "Grid2D") return {blocks("xnumel", "XBLOCK"), blocks("ynumel", "YBLOCK"), 1};
  if (g == "Grid3D")
    return {blocks("xnumel", "XBLOCK"), blocks("ynumel", "YBLOCK"), blocks("znumel", "ZBLOCK")};
  if (g == "BatchMatmulGrid3D")
    return {blocks("znumel", "ZBLOCK"), blocks("ynumel", "YBLOCK"), blocks("xnumel", "XBLOCK")};
  if (g == "Grid2DWithYZOverflow") {
    constexpr int64_t kMaxYGrid = 65535;
    int64_t y_raw = blocks("ynumel", "YBLOCK");
    int64_t y_div = cdiv(y_raw, kMaxYGrid);
    return {blocks("xnumel", "XBLOCK"), y_div == 0 ? 0 : cdiv(y_raw, y_div), y_div};
  }
  if (g == "SplitScanGrid") return {blocks("r0_numel", "R0_BLOCK"), numel("xnumel"), 1};
  if (g == "CooperativeReductionGrid")
    return {config.get("RSPLIT").value_or(1), blocks("xnumel", "XBLOCK"), 1};
  throw CompileError("kernel '" + info.kernel + "': grid_type '" + g +
                         "' is not supported (supported: Grid1D, Grid2D, Grid3D, "
                         "BatchMatmulGrid3D, Grid2DWithYZOverflow, SplitScanGrid, "
                         "CooperativeReductionGrid)",
                     "", {info.line, 1});
}

Specialization inductor_specialization(const InductorKernelInfo &info,
                                       const InductorConfig &config) {
  Specialization spec;
  for (auto &[name, type] : info.signature) {
    if (type == "constexpr") continue;
    add_signature(spec, name + "=" + type);
  }
  for (auto &[name, p] : info.constants) spec.params[name] = p;
  for (auto &[name, v] : config.blocks) {
    ParamSpec p;
    p.kind = ParamSpec::Kind::Constexpr;
    p.ckind = ParamSpec::CKind::Int;
    p.i = v;
    spec.params[name] = p;
  }
  return spec;
}

}  // namespace opforge::compiler
