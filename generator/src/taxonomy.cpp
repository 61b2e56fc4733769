// taxonomy.cpp - failure classes (alignment, type conversion, boundary/mask, hardware limits,
// numerics, other) from a failure's evidence, and the table beside TritorX's figures.
#include "opforge/generator/taxonomy.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <set>
#include <sstream>

namespace opforge::generator {

namespace {

constexpr std::array<FailureClass, 6> kClasses = {
    FailureClass::Alignment,      FailureClass::TypeConversion, FailureClass::BoundaryMask,
    FailureClass::HardwareLimits, FailureClass::Numerics,       FailureClass::Other};

std::string lower(std::string s) {
  for (auto &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool has(const std::string &text, std::initializer_list<const char *> needles) {
  for (const char *n : needles)
    if (text.find(n) != std::string::npos) return true;
  return false;
}

std::string first_line(const std::string &s, size_t max_chars = 160) {
  std::string line = s.substr(0, s.find('\n'));
  return line.size() > max_chars ? line.substr(0, max_chars) + "..." : line;
}

// Lint rules that say the target (the capability table, the wrapper interpreter) lacks
// something the candidate uses (docs/compiler/lint.md).
const std::set<std::string> &target_limit_rules() {
  static const std::set<std::string> rules = {"OPF002", "OPF003", "OPF005", "OPF006",
                                              "OPF007", "OPF008", "OPF009", "OPF010",
                                              "OPF013", "OPF014", "OPF105"};
  return rules;
}

// Runtime, trap and compile messages.
std::optional<FailureClassification> from_message(const std::string &what,
                                                  const std::string &message) {
  const std::string m = lower(message);
  if (has(m, {"misaligned", "misalignment", "unaligned"}))
    return FailureClassification{FailureClass::Alignment, what + ": " + first_line(message)};
  if (has(m, {"out-of-bounds", "out of bounds", "access fault", "out of range of buffer",
              "outside the buffer", "index out of range"}))
    return FailureClassification{FailureClass::BoundaryMask, what + ": " + first_line(message)};
  // A value the target cannot hold (complex tensors and dtypes reach the wrapper as opaque).
  if (has(m, {"kind the wrappers cannot take", "(opaque)"}))
    return FailureClassification{FailureClass::HardwareLimits, what + ": " + first_line(message)};
  if (has(m, {"not supported", "unsupported", "local memory", "exceeds the", "too large",
              "no float64", "needs an isa extension", "not implemented"}))
    return FailureClassification{FailureClass::HardwareLimits, what + ": " + first_line(message)};
  if (has(m, {"dtype", "cannot cast", "cannot convert", "cannot bitcast", "incompatible type",
              "type mismatch", "mismatched types", "conversion", "expected a float",
              "expected an int"}))
    return FailureClassification{FailureClass::TypeConversion, what + ": " + first_line(message)};
  return std::nullopt;
}

}  // namespace

std::string failure_class_name(FailureClass c) {
  switch (c) {
    case FailureClass::Alignment:
      return "alignment";
    case FailureClass::TypeConversion:
      return "type_conversion";
    case FailureClass::BoundaryMask:
      return "boundary_mask";
    case FailureClass::HardwareLimits:
      return "hardware_limits";
    case FailureClass::Numerics:
      return "numerics";
    case FailureClass::Other:
      return "other";
  }
  return "other";
}

std::optional<FailureClass> failure_class_from_name(const std::string &name) {
  for (auto c : kClasses)
    if (failure_class_name(c) == name) return c;
  return std::nullopt;
}

std::optional<double> tritorx_failure_share(FailureClass c) {
  switch (c) {
    case FailureClass::Alignment:
      return 0.42;
    case FailureClass::TypeConversion:
      return 0.23;
    case FailureClass::BoundaryMask:
      return 0.18;
    case FailureClass::HardwareLimits:
      return 0.12;
    case FailureClass::Numerics:
      return 0.05;
    case FailureClass::Other:
      return std::nullopt;
  }
  return std::nullopt;
}

FailureClassification classify_failure(const std::string &stage, const nlohmann::json &failure) {
  const std::string kind = failure.value("kind", "");
  const std::string message = failure.value("message", "");
  if (kind == "lint") {
    std::string rule, text = message;
    if (failure.contains("findings") && failure["findings"].is_array() &&
        !failure["findings"].empty()) {
      rule = failure["findings"][0].value("rule", "");
      text = failure["findings"][0].value("message", message);
    }
    if (target_limit_rules().count(rule))
      return {FailureClass::HardwareLimits, "lint " + rule + ": " + first_line(text)};
    return {FailureClass::Other,
            "lint " + (rule.empty() ? std::string("?") : rule) + ": " + first_line(text, 80)};
  }
  if (kind == "mismatch") {
    const nlohmann::json mm = failure.value("mismatch", nlohmann::json::object());
    const std::string mmsg = mm.value("message", message);
    const std::string path = mm.value("path", "out");
    if (mmsg.rfind("dtype ", 0) == 0)
      return {FailureClass::TypeConversion, "mismatch: " + path + ": " + first_line(mmsg)};
    if (mmsg.rfind("shape ", 0) == 0 || mmsg.rfind("strides ", 0) == 0)
      return {FailureClass::Other, "mismatch: " + path + ": " + first_line(mmsg, 80)};
    return {FailureClass::Numerics, "mismatch: " + path + ": " + first_line(mmsg)};
  }
  if (kind == "trap") {
    if (auto c = from_message("trap", message)) return *c;
    return {FailureClass::Other, "trap: " + first_line(message, 80)};
  }
  if (kind == "compile" || kind == "runtime") {
    if (auto c = from_message(kind, message)) return *c;
    return {FailureClass::Other, kind + ": " + first_line(message, 80)};
  }
  if (kind == "no_code" || kind == "no code") return {FailureClass::Other, "no code in the reply"};
  if (kind == "timeout") return {FailureClass::Other, stage + ": timeout"};
  return {FailureClass::Other, (kind.empty() ? stage : kind) + ": " + first_line(message, 80)};
}

int64_t FailureTaxonomy::total() const {
  int64_t n = 0;
  for (const auto &[c, k] : count) n += k;
  return n;
}

FailureTaxonomy failure_taxonomy(const std::vector<nlohmann::json> &records) {
  FailureTaxonomy t;
  for (const auto &r : records) {
    const std::string event = r.value("event", "");
    if (event == "verdict" && r.value("state", "") == "failed") {
      const std::string reason = r.value("reason", "");
      if (reason.rfind("provider: ", 0) == 0)
        ++t.without_candidate[reason.substr(0, reason.find(':', 10))];
      continue;
    }
    // A failed stage is a diagnostic record; a reply without code has only its feedback record.
    const bool failed_stage = event == "diagnostic" && !r.value("ok", true);
    const bool no_code = event == "feedback" && r.value("kind", "") == "no_code";
    if (!failed_stage && !no_code) continue;
    FailureClassification c;
    std::optional<FailureClass> recorded;
    if (r.contains("failure_class"))
      recorded = failure_class_from_name(r.value("failure_class", ""));
    if (recorded && !no_code) {
      c.cls = *recorded;
      c.reason = r.value("failure_class_reason", "");
    } else {
      c = no_code ? classify_failure("lint", {{"kind", "no_code"}})
                  : classify_failure(r.value("stage", ""),
                                     r.value("failure", nlohmann::json::object()));
    }
    ++t.count[c.cls];
    if (c.cls == FailureClass::Other) {
      // Reasons grouped by their kind and first words (the figures of a message differ).
      std::string key = c.reason.substr(0, std::min<size_t>(c.reason.size(), 60));
      ++t.other_reasons[key];
    }
  }
  return t;
}

std::string format_taxonomy(const FailureTaxonomy &t) {
  std::ostringstream os;
  const int64_t total = t.total();
  os << "failure taxonomy (" << total << " failed stages of candidates)\n";
  char line[160];
  std::snprintf(line, sizeof line, "  %-18s %7s %8s %9s\n", "class", "count", "share", "TritorX");
  os << line;
  for (auto c : kClasses) {
    auto it = t.count.find(c);
    int64_t n = it == t.count.end() ? 0 : it->second;
    double share = total ? 100.0 * static_cast<double>(n) / static_cast<double>(total) : 0.0;
    auto tx = tritorx_failure_share(c);
    std::string txs = tx ? std::to_string(static_cast<int>(*tx * 100 + 0.5)) + "%" : "-";
    std::snprintf(line, sizeof line, "  %-18s %7lld %7.1f%% %9s\n", failure_class_name(c).c_str(),
                  static_cast<long long>(n), share, txs.c_str());
    os << line;
  }
  if (!t.other_reasons.empty()) {
    std::vector<std::pair<std::string, int64_t>> reasons(t.other_reasons.begin(),
                                                         t.other_reasons.end());
    std::stable_sort(reasons.begin(), reasons.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    os << "  other, by reason:\n";
    size_t shown = 0;
    for (const auto &[reason, n] : reasons) {
      if (shown++ == 10) {
        os << "    ... " << reasons.size() - 10 << " more reasons\n";
        break;
      }
      os << "    " << n << "  " << reason << "\n";
    }
  }
  if (!t.without_candidate.empty()) {
    int64_t n = 0;
    for (const auto &[reason, k] : t.without_candidate) n += k;
    os << "  not in the table: " << n << " attempts ended without a candidate (";
    bool first = true;
    for (const auto &[reason, k] : t.without_candidate) {
      os << (first ? "" : ", ") << reason << " " << k;
      first = false;
    }
    os << ")\n";
  }
  return os.str();
}

}  // namespace opforge::generator
