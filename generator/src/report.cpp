// report.cpp - coverage by category, pass@k and failure reasons of a generation run.
#include "opforge/generator/report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "error_ctx.h"
#include "opforge/generator/loop.h"
#include "opforge/support/error.h"

namespace opforge::generator {

nlohmann::json outcome_to_json(const OverloadOutcome &o) {
  return {{"event", "overload_result"},
          {"overload", o.overload},
          {"category", o.category},
          {"result", o.result},
          {"reason", o.reason},
          {"attempts", o.attempts},
          {"passed", o.passed},
          {"model_calls", o.model_calls},
          {"pass_by_attempt", o.pass_by_attempt},
          {"wall_s", o.wall_s},
          {"calls_checked", o.calls_checked},
          {"calls_recorded", o.calls_recorded},
          {"calls_failed", o.calls_failed}};
}

OverloadOutcome outcome_from_json(const nlohmann::json &j) {
  OverloadOutcome o;
  try {
    o.overload = j.at("overload").get<std::string>();
    o.category = j.value("category", "");
    o.result = j.at("result").get<std::string>();
    o.reason = j.value("reason", "");
    o.attempts = j.value("attempts", 0);
    o.passed = j.value("passed", 0);
    o.model_calls = j.value("model_calls", 0);
    if (j.contains("pass_by_attempt"))
      o.pass_by_attempt = j["pass_by_attempt"].get<std::vector<bool>>();
    o.wall_s = j.value("wall_s", 0.0);
    o.calls_checked = j.value("calls_checked", int64_t{-1});
    o.calls_recorded = j.value("calls_recorded", int64_t{-1});
    o.calls_failed = j.value("calls_failed", int64_t{0});
  } catch (const nlohmann::json::exception &e) {
    throw Error(std::string("bad overload_result record: ") + e.what());
  }
  static const char *kResults[] = {"pass", "partial", "fail", "cached", "excluded", "error"};
  if (std::find(std::begin(kResults), std::end(kResults), o.result) == std::end(kResults))
    throw Error("bad overload_result record: unknown result '" + o.result + "'");
  return o;
}

std::vector<OverloadOutcome> outcomes_from_records(const std::vector<nlohmann::json> &records) {
  std::vector<OverloadOutcome> out;
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < records.size(); ++i) {
    const auto &r = records[i];
    if (!r.is_object() || r.value("event", "") != "overload_result") continue;
    OverloadOutcome o;
    try {
      o = outcome_from_json(r);
    } catch (const Error &e) {
      throw Error(e.message(), at_field("", "record " + std::to_string(i)));
    }
    auto it = index.find(o.overload);
    if (it == index.end()) {
      index[o.overload] = out.size();
      out.push_back(std::move(o));
    } else {
      out[it->second] = std::move(o);
    }
  }
  return out;
}

std::optional<double> tritorx_coverage(const std::string &category) {
  static const std::map<std::string, double> figures = {
      {"shape/view", 0.96}, {"pointwise", 0.85}, {"linear algebra", 0.80},
      {"indexing", 0.79},   {"reduction", 0.75}, {"normalization/DL", 0.71}};
  auto it = figures.find(category);
  if (it == figures.end()) return std::nullopt;
  return it->second;
}

std::vector<CategoryCoverage> coverage_by_category(const std::vector<OverloadOutcome> &outcomes) {
  std::map<std::string, CategoryCoverage> by;
  CategoryCoverage all;
  all.category = "all";
  for (const auto &o : outcomes) {
    auto &c = by[o.category];
    c.category = o.category;
    for (auto *t : {&c, &all}) {
      ++t->total;
      if (o.result == "excluded") ++t->excluded;
      if (o.passing()) ++t->passing;
    }
  }
  std::vector<CategoryCoverage> rows;
  for (auto &[k, v] : by) rows.push_back(v);
  rows.push_back(all);
  return rows;
}

std::vector<double> mean_pass_at_k(const std::vector<OverloadOutcome> &outcomes) {
  int max_k = 0, n = 0;
  for (const auto &o : outcomes)
    if (o.attempts > 0) {
      max_k = std::max(max_k, o.attempts);
      ++n;
    }
  std::vector<double> out;
  for (int k = 1; k <= max_k; ++k) {
    double sum = 0;
    for (const auto &o : outcomes)
      if (o.attempts > 0) sum += pass_at_k(o.attempts, o.passed, std::min(k, o.attempts));
    out.push_back(n ? sum / n : 0);
  }
  return out;
}

namespace {
std::string pct(double v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%5.1f%%", 100.0 * v);
  return buf;
}
std::string pad(std::string s, size_t w) {
  if (s.size() < w) s.append(w - s.size(), ' ');
  return s;
}
}  // namespace

std::string cut_text(const std::string &text, size_t max_chars) {
  if (text.size() <= max_chars) return text;
  size_t end = max_chars;
  // Do not cut a UTF-8 sequence in half.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end) + " [... " + std::to_string(text.size() - end) + " more characters]";
}

namespace {
// "124/124", "8/124", "-" (unknown); "+ N failed" when calls mismatched.
std::string calls_text(const OverloadOutcome &o) {
  if (o.calls_checked < 0 || o.calls_recorded < 0) return "-";
  std::string s = std::to_string(o.calls_checked) + "/" + std::to_string(o.calls_recorded);
  if (o.calls_failed > 0) s += " (" + std::to_string(o.calls_failed) + " failed)";
  return s;
}
}  // namespace

std::string format_report(const std::vector<OverloadOutcome> &outcomes) {
  std::ostringstream o;
  o << pad("category", 18) << pad("overloads", 11) << pad("excluded", 10) << pad("passing", 9)
    << pad("coverage", 10) << "TritorX\n";
  for (const auto &c : coverage_by_category(outcomes)) {
    auto tx = tritorx_coverage(c.category);
    o << pad(c.category, 18) << pad(std::to_string(c.total), 11)
      << pad(std::to_string(c.excluded), 10) << pad(std::to_string(c.passing), 9)
      << pad(pct(c.coverage()), 10) << (tx ? pct(*tx) : std::string("    -")) << "\n";
  }
  o << "coverage = passing / (overloads - excluded); passing counts overloads already in the "
       "library (cached)\n";
  auto pk = mean_pass_at_k(outcomes);
  if (!pk.empty()) {
    o << "\npass@k (unbiased, mean over the overloads generated in the run):";
    for (size_t k = 0; k < pk.size(); ++k) o << "  pass@" << k + 1 << " " << pct(pk[k]);
    o << "\n";
  }
  std::map<std::string, int> reasons;  // failure class -> count
  std::ostringstream failing, excluded;
  for (const auto &c : outcomes) {
    if (c.passing()) continue;
    if (c.result == "excluded") {
      excluded << "  " << pad(c.overload, 40) << c.reason << "\n";
      continue;
    }
    // Failure class: the failure kind ("mismatch", "compile", ...) or, for a
    // provider failure, "provider <status>" ("provider unsupported": no lowering rule).
    std::string cls = c.reason.substr(0, c.reason.find(':'));
    if (cls == "provider" && c.reason.size() > 10) {
      std::string rest = c.reason.substr(10);
      cls += " " + rest.substr(0, rest.find(':'));
    }
    if (c.result == "partial") cls = "partial";
    ++reasons[cls.empty() ? c.result : cls];
    failing << "  " << pad(c.overload, 40) << pad(c.category, 18) << cut_text(c.reason, 240)
            << "\n";
  }
  std::ostringstream counts;
  for (const auto &c : outcomes) {
    if (c.result == "excluded") continue;
    counts << "  " << pad(c.overload, 40) << pad(c.result, 9) << calls_text(c) << "\n";
  }
  if (!counts.str().empty())
    o << "\ncalls checked / recorded per overload (every recorded call of every dtype must pass; "
         "'-': not known, e.g. cached):\n"
      << counts.str();
  if (!reasons.empty()) {
    o << "\nfailure reasons:\n";
    std::vector<std::pair<int, std::string>> sorted;
    for (auto &[k, v] : reasons) sorted.emplace_back(-v, k);
    std::sort(sorted.begin(), sorted.end());
    for (auto &[n, k] : sorted) o << "  " << pad(std::to_string(-n), 6) << k << "\n";
    o << "\nfailing overloads:\n" << failing.str();
  }
  if (!excluded.str().empty()) o << "\nexcluded overloads:\n" << excluded.str();
  return o.str();
}

}  // namespace opforge::generator
