//===- counters.cpp - the hierarchical counter registry -------------------===//
#include "opforge/model/counters.h"

#include "opforge/support/error.h"

namespace opforge::model {

uint64_t &CounterRegistry::add(const std::string &name) {
  if (index_.count(name)) throw Error("counter '" + name + "' registered twice");
  index_.emplace(name, names_.size());
  names_.push_back(name);
  values_.push_back(0);
  return values_.back();
}

int64_t CounterRegistry::find(const std::string &name) const {
  auto it = index_.find(name);
  return it == index_.end() ? -1 : static_cast<int64_t>(it->second);
}

uint64_t CounterRegistry::value(const std::string &name) const {
  int64_t i = find(name);
  if (i < 0) throw Error("unknown counter '" + name + "'");
  return values_[static_cast<size_t>(i)];
}

CounterSnapshot CounterRegistry::snapshot() const {
  CounterSnapshot s;
  s.reserve(names_.size());
  for (size_t i = 0; i < names_.size(); ++i) s.emplace_back(names_[i], values_[i]);
  return s;
}

static bool glob_match(const char *g, const char *s) {
  while (*g) {
    if (*g == '*') {
      for (const char *t = s;; ++t) {
        if (glob_match(g + 1, t)) return true;
        if (!*t) return false;
      }
    }
    if (*g != *s) return false;
    ++g;
    ++s;
  }
  return !*s;
}

std::vector<size_t> CounterRegistry::match(const std::string &glob) const {
  std::vector<size_t> out;
  for (size_t i = 0; i < names_.size(); ++i)
    if (glob_match(glob.c_str(), names_[i].c_str())) out.push_back(i);
  return out;
}

void CounterRegistry::reset() {
  for (auto &v : values_) v = 0;
}

CounterSnapshot CounterRegistry::delta(const CounterSnapshot &before,
                                       const CounterSnapshot &after) {
  CounterSnapshot d;
  d.reserve(after.size());
  std::unordered_map<std::string, uint64_t> b(before.begin(), before.end());
  for (const auto &[name, v] : after) {
    auto it = b.find(name);
    d.emplace_back(name, v - (it == b.end() ? 0 : it->second));
  }
  return d;
}

std::string pe_prefix(uint32_t row, uint32_t col) {
  return "pe[" + std::to_string(row) + "][" + std::to_string(col) + "]";
}

}  // namespace opforge::model
