//===- heuristics.cpp - what a kernel's @triton_heuristics decorator says --===//
#include "heuristics.h"

#include <algorithm>
#include <set>

namespace opforge::compiler::inductor_detail {

using namespace ast;

std::string TuneConfig::text() const {
  std::string s;
  for (auto &[n, v] : values) s += n + ": " + std::to_string(v) + ", ";
  return s + "num_warps: " + std::to_string(num_warps) +
         ", num_ctas: 1, num_stages: " + std::to_string(num_stages);
}

namespace {

const Expr *dict_get(const Expr *d, const std::string &key) {
  auto *dict = d ? d->as<Dict>() : nullptr;
  if (!dict) return nullptr;
  for (size_t i = 0; i < dict->keys.size(); ++i) {
    auto *k = dict->keys[i] ? dict->keys[i]->as<Constant>() : nullptr;
    if (k && k->is_str() && std::get<std::string>(k->value) == key) return dict->values[i].get();
  }
  return nullptr;
}

std::vector<int64_t> pow2_upto(int64_t hint, std::vector<int64_t> wanted) {
  std::vector<int64_t> out;
  for (int64_t w : wanted) {
    int64_t v = std::max<int64_t>(1, std::min(w, hint));
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

// Candidate configs from the size hints (the shapes Inductor's own heuristics try for
// these kinds; docs/compiler/inductor.md, "Configs").
std::vector<TuneConfig> candidates(const KernelHeuristics &h, const FunctionDef &k) {
  auto hint = [&](const std::string &d) {
    auto it = h.size_hints.find(d);
    return it == h.size_hints.end() ? int64_t{1} : it->second;
  };
  auto has_param = [&](const std::string &n) { return k.params.find(n) >= 0; };
  std::vector<TuneConfig> out;
  if (h.kind == "pointwise") {
    if (has_param("ZBLOCK")) {
      out.push_back({{{"ZBLOCK", std::min<int64_t>(hint("z"), 8)},
                      {"YBLOCK", std::min<int64_t>(hint("y"), 8)},
                      {"XBLOCK", std::min<int64_t>(hint("x"), 16)}}});
    } else if (has_param("YBLOCK")) {
      for (auto [y, x] : std::vector<std::pair<int64_t, int64_t>>{{32, 32}, {8, 128}}) {
        TuneConfig c{{{"YBLOCK", std::min(hint("y"), y)}, {"XBLOCK", std::min(hint("x"), x)}}};
        bool dup = false;
        for (auto &o : out) dup |= o.values == c.values;
        if (!dup) out.push_back(c);
      }
    } else {
      for (int64_t x : pow2_upto(hint("x"), {1024, 256, 128})) out.push_back({{{"XBLOCK", x}}});
    }
  } else if (h.kind == "persistent_reduction") {
    int64_t r = hint("r0_");
    for (int64_t x : pow2_upto(hint("x"), {1, 8, 32}))
      if (x == 1 || x * r <= 4096) out.push_back({{{"XBLOCK", x}}});
  } else if (h.kind == "reduction") {
    for (auto [x, r] : std::vector<std::pair<int64_t, int64_t>>{{1, 2048}, {8, 512}, {64, 64}}) {
      TuneConfig c{{{"XBLOCK", std::min(hint("x"), x)}, {"R0_BLOCK", std::min(hint("r0_"), r)}}};
      bool dup = false;
      for (auto &o : out) dup |= o.values == c.values;
      if (!dup) out.push_back(c);
    }
  }
  return out;
}

}  // namespace

KernelHeuristics read_heuristics(const SourceFile &file, const FunctionDef &k) {
  const Call *dec = nullptr;
  std::string kind;
  for (auto &d : k.decorators)
    if (auto *c = d->as<Call>()) {
      std::string callee = dotted_name(*c->func);
      if (callee.rfind("triton_heuristics.", 0) == 0) {
        dec = c;
        kind = callee.substr(18);
      }
    }
  if (!dec)
    throw CompileError::at(file, k.loc,
                           "Inductor module: kernel '" + k.name +
                               "' has no @triton_heuristics decorator (pointwise, "
                               "persistent_reduction or reduction)");
  static const std::set<std::string> kinds = {"pointwise", "persistent_reduction", "reduction"};
  if (!kinds.count(kind))
    throw CompileError::at(file, dec->loc,
                           "Inductor module: kernel '" + k.name + "': @triton_heuristics." + kind +
                               " kernels are not supported (pointwise, persistent_reduction, "
                               "reduction are)");
  KernelHeuristics h;
  h.kind = kind;
  auto bad = [&](const Expr &at, const std::string &what) {
    throw CompileError::at(file, at.loc,
                           "Inductor module: kernel '" + k.name + "': cannot read " + what);
  };
  if (auto *kw = dec->keyword("size_hints")) {
    auto *d = kw->value->as<Dict>();
    if (!d) bad(*kw->value, "size_hints (a dict literal of ints)");
    for (size_t i = 0; i < d->keys.size(); ++i) {
      auto *key = d->keys[i] ? d->keys[i]->as<Constant>() : nullptr;
      auto *val = d->values[i]->as<Constant>();
      if (!key || !key->is_str() || !val || !val->is_int()) bad(*d, "size_hints (a dict of ints)");
      h.size_hints[std::get<std::string>(key->value)] = std::get<int64_t>(val->value);
    }
  }
  if (auto *kw = dec->keyword("reduction_hint")) {
    std::string d = dotted_name(*kw->value);
    h.reduction_hint = d.substr(d.rfind('.') + 1);
  }
  if (auto *kw = dec->keyword("inductor_meta")) {
    if (auto *g = dict_get(kw->value.get(), "grid_type")) {
      auto *c = g->as<Constant>();
      if (!c || !c->is_str()) bad(*g, "inductor_meta's grid_type");
      h.grid_type = std::get<std::string>(c->value);
    }
    if (auto *m = dict_get(kw->value.get(), "mutated_arg_names"))
      if (auto *l = m->as<List>())
        for (auto &e : l->elts)
          if (auto *c = e->as<Constant>(); c && c->is_str())
            h.mutated.push_back(std::get<std::string>(c->value));
  }
  if (auto *kw = dec->keyword("triton_meta"))
    if (auto *cs = dict_get(kw->value.get(), "constants"))
      if (auto *d = cs->as<Dict>())
        for (size_t i = 0; i < d->keys.size(); ++i) {
          auto *key = d->keys[i] ? d->keys[i]->as<Constant>() : nullptr;
          auto *val = d->values[i]->as<Constant>();
          if (key && key->is_str() && val && val->is_int())
            h.constants[std::get<std::string>(key->value)] = std::get<int64_t>(val->value);
        }
  static const std::set<std::string> grids = {"Grid1D", "Grid2D", "Grid2DWithYZOverflow", "Grid3D"};
  if (!grids.count(h.grid_type))
    throw CompileError::at(file, dec->loc,
                           "Inductor module: kernel '" + k.name + "': grid type '" + h.grid_type +
                               "' is not supported (Grid1D, Grid2D, Grid2DWithYZOverflow, Grid3D)");
  h.configs = candidates(h, k);
  if (h.configs.empty())
    throw CompileError::at(
        file, dec->loc, "Inductor module: kernel '" + k.name + "': no config fits its size hints");
  return h;
}

}  // namespace opforge::compiler::inductor_detail
