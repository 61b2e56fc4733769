// prompt_facts.cpp - dtypes and call signatures for generation prompts, from the recorded calls.
#include "opforge/harness/prompt_facts.h"

#include <set>

namespace opforge::harness {

namespace {

void collect(const Value &v, std::set<std::string> &out) {
  if (v.is_tensor()) out.insert(std::string(dtype_name(v.tensor.dtype())));
  for (const auto &item : v.list) collect(item, out);
}

}  // namespace

std::string call_dtypes(const std::vector<Call> &calls) {
  std::set<std::string> names;
  for (const auto &c : calls) {
    for (const auto &a : c.args) collect(a, names);
    for (const auto &[k, v] : c.kwargs) collect(v, names);
    collect(c.out, names);
  }
  std::string out;
  for (const auto &n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string call_signatures(const std::vector<Call> &calls, size_t max_calls) {
  std::vector<const Call *> picked;
  std::set<std::string> seen;
  std::set<DType> groups;
  auto take = [&](const Call &c) {
    if (picked.size() >= max_calls) return;
    if (!seen.insert(c.summary()).second) return;
    picked.push_back(&c);
  };
  for (const auto &c : calls)
    if (groups.insert(c.dtype).second) take(c);
  for (const auto &c : calls) take(c);
  std::string out;
  for (const Call *c : picked) {
    std::string s = c->summary();
    if (s.size() > 240) s = s.substr(0, 240) + " ...";
    out += "- " + s + "\n";
  }
  return out;
}

}  // namespace opforge::harness
