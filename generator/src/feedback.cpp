// feedback.cpp - deterministic, size-bounded summaries of failed candidates.
#include "opforge/generator/feedback.h"

#include <cstdio>
#include <sstream>

namespace opforge::generator {

namespace {

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string index_text(const std::vector<int64_t> &idx) {
  std::string s = "[";
  for (size_t i = 0; i < idx.size(); ++i) s += (i ? ", " : "") + std::to_string(idx[i]);
  return s + "]";
}

std::string indent(const std::string &text, const std::string &by = "    ") {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) out += by + line + "\n";
  return out;
}

std::string bounded(std::string s, size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  const std::string tail = "\n[feedback truncated]\n";
  if (max_bytes <= tail.size()) return s.substr(0, max_bytes);
  s.resize(max_bytes - tail.size());
  // Do not cut a UTF-8 sequence in half.
  while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80) s.pop_back();
  if (!s.empty() && (static_cast<unsigned char>(s.back()) & 0x80)) s.pop_back();
  return s + tail;
}

// "self bf16[10, 5] [0:5, 0:5]:\n    [..]\n" or "other bf16[] (0-d) = 3\n".
void window(std::ostringstream &o, const MismatchFacts::Window &w) {
  o << "  " << w.name << " " << w.type;
  if (w.region.empty() && w.values.find('\n') == std::string::npos) {
    o << " = " << w.values << "\n";
    return;
  }
  if (!w.region.empty()) o << " " << w.region;
  o << ":\n" << indent(w.values);
}

void mismatch_figures(std::ostringstream &o, const MismatchFacts &m) {
  o << "mismatched elements: " << m.mismatched << " of " << m.total << "\n";
  o << "max abs error: " << num(m.max_abs_error) << ", max rel error: " << num(m.max_rel_error)
    << "\n";
  o << "worst index: " << index_text(m.worst_index) << " actual " << num(m.worst_actual)
    << " expected " << num(m.worst_expected) << "\n";
}

void data_windows(std::ostringstream &o, const MismatchFacts &m) {
  if (m.operands.empty() && m.results.empty()) return;
  o << "data around the worst index " << index_text(m.worst_index)
    << " (operands placed by broadcasting; at most 5 elements per dimension):\n";
  for (const auto &w : m.operands) window(o, w);
  for (const auto &w : m.results) window(o, w);
}

void call_line(std::ostringstream &o, const Failure &f) {
  if (!f.failing_calls.empty()) o << "mismatching calls: " << f.failing_calls << "\n";
  if (!f.call_summary.empty())
    o << "failing call #" << f.call_index << ": " << f.call_summary << "\n";
}

const MismatchFacts::Window *find_window(const std::vector<MismatchFacts::Window> &ws,
                                         const std::string &name) {
  for (const auto &w : ws)
    if (w.name == name) return &w;
  return nullptr;
}

}  // namespace

std::string summarize_failure(Stage stage, const Failure &f, const FeedbackOptions &options) {
  std::ostringstream o;
  o << "stage: " << stage_name(stage) << "\n";
  o << "failure: " << failure_kind_name(f.kind) << "\n";
  switch (f.kind) {
    case Failure::Kind::None:
      break;
    case Failure::Kind::NoCode:
      o << "problem: the reply contained no ```python code block; answer with the complete kernel "
           "and wrapper in one fenced python block\n";
      break;
    case Failure::Kind::Lint: {
      o << "lint errors: " << f.findings.size() << "\n";
      size_t shown = 0;
      for (const auto &fd : f.findings) {
        if (shown == options.max_findings) {
          o << "(" << f.findings.size() - shown << " more lint errors not shown)\n";
          break;
        }
        o << "- " << fd.rule << " line " << fd.loc.line << ", col " << fd.loc.col << ": "
          << fd.message << "\n";
        ++shown;
      }
      if (!f.snippet.empty()) o << "first error at:\n" << indent(f.snippet);
      break;
    }
    case Failure::Kind::Compile:
    case Failure::Kind::Runtime:
      o << "error: " << f.message << "\n";
      if (!f.snippet.empty()) o << indent(f.snippet);
      break;
    case Failure::Kind::Trap: {
      char pc[32];
      std::snprintf(pc, sizeof pc, "0x%llx", static_cast<unsigned long long>(f.pc));
      o << "trap: " << f.message << "\n"
        << "pc: " << pc << "\n";
      if (!f.instruction.empty()) o << "instruction: " << f.instruction << "\n";
      if (!f.snippet.empty()) o << "source:\n" << indent(f.snippet);
      break;
    }
    case Failure::Kind::Mismatch:
      if (f.mismatch) {
        const auto &m = *f.mismatch;
        o << "mismatch in " << m.path << ": " << m.message << "\n";
        if (m.total > 0) {
          mismatch_figures(o, m);
          o << "tolerance: atol " << num(m.tolerance.atol) << ", rtol " << num(m.tolerance.rtol)
            << "\n";
          data_windows(o, m);
        }
      } else {
        o << "mismatch: " << f.message << "\n";
      }
      break;
    case Failure::Kind::Timeout:
      o << "timeout: " << f.message << "\n";
      break;
  }
  call_line(o, f);
  return bounded(o.str(), options.max_bytes);
}

bool same_failure(Stage stage, const Failure &f, Stage previous_stage, const Failure &previous) {
  if (stage != previous_stage || f.kind != previous.kind || f.kind == Failure::Kind::None)
    return false;
  if (f.call_index != previous.call_index) return false;
  switch (f.kind) {
    case Failure::Kind::Mismatch:
      if (f.mismatch.has_value() != previous.mismatch.has_value()) return false;
      return !f.mismatch || f.mismatch->path == previous.mismatch->path;
    case Failure::Kind::Lint:
      if (f.findings.empty() || previous.findings.empty()) return f.message == previous.message;
      return f.findings.front().rule == previous.findings.front().rule &&
             f.findings.front().loc.line == previous.findings.front().loc.line;
    case Failure::Kind::Trap:
      return f.message == previous.message && f.instruction == previous.instruction;
    default:
      return f.message == previous.message;
  }
}

std::string summarize_repeated_failure(Stage stage, const Failure &f, const Failure &previous,
                                       const FeedbackOptions &options) {
  std::ostringstream o;
  o << "stage: " << stage_name(stage) << "\n";
  o << "failure: " << failure_kind_name(f.kind)
    << " - same failure as the previous turn (the summary above still holds)\n";
  std::ostringstream changed;
  if (f.kind == Failure::Kind::Mismatch && f.mismatch && previous.mismatch) {
    const auto &m = *f.mismatch, &p = *previous.mismatch;
    auto diff = [&](const std::string &what, const std::string &was, const std::string &now) {
      if (was != now) changed << "  " << what << ": " << was << " -> " << now << "\n";
    };
    diff("mismatched elements", std::to_string(p.mismatched), std::to_string(m.mismatched));
    diff("max abs error", num(p.max_abs_error), num(m.max_abs_error));
    diff("max rel error", num(p.max_rel_error), num(m.max_rel_error));
    diff("worst index", index_text(p.worst_index), index_text(m.worst_index));
    diff("value at the worst index", num(p.worst_actual), num(m.worst_actual));
    diff("mismatching calls", previous.failing_calls, f.failing_calls);
    const std::string actual = "actual " + m.path;
    const auto *now = find_window(m.results, actual), *was = find_window(p.results, actual);
    if (now && (!was || was->values != now->values || was->region != now->region)) {
      std::ostringstream w;
      window(w, *now);
      changed << "  your new values:\n" << indent(w.str(), "  ");
    }
  } else if (f.message != previous.message) {
    changed << "  the error now reads: " << f.message << "\n";
  }
  if (changed.str().empty()) {
    o << "nothing changed: the new code fails exactly as the previous one did; look again at "
         "the data and the error above, the cause is still there\n";
  } else {
    o << "what changed since the previous turn:\n" << changed.str();
  }
  if ((f.kind == Failure::Kind::Compile || f.kind == Failure::Kind::Runtime ||
       f.kind == Failure::Kind::Lint || f.kind == Failure::Kind::Trap) &&
      !f.snippet.empty())
    o << "still at:\n" << indent(f.snippet);
  if (!f.call_summary.empty())
    o << "failing call #" << f.call_index << ": " << f.call_summary << "\n";
  return bounded(o.str(), options.max_bytes);
}

std::string carried_section(const std::string &code, const std::string &feedback) {
  std::string s =
      "\n## The previous dialog's last candidate and its failure\n\n"
      "A new dialog starts here. The last candidate of the previous dialog failed; fix it or "
      "write a better one.\n\n";
  if (!code.empty())
    s += "### Its code\n```python\n" + code + (code.ends_with("\n") ? "" : "\n") + "```\n\n";
  s += "### Its feedback\n" + feedback;
  if (!s.ends_with("\n")) s += "\n";
  return s;
}

}  // namespace opforge::generator
