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

std::string indent(const std::string &text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) out += "    " + line + "\n";
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
          o << "mismatched elements: " << m.mismatched << " of " << m.total << "\n";
          o << "max abs error: " << num(m.max_abs_error)
            << ", max rel error: " << num(m.max_rel_error) << "\n";
          o << "worst index: " << index_text(m.worst_index) << " actual " << num(m.worst_actual)
            << " expected " << num(m.worst_expected) << "\n";
          o << "tolerance: atol " << num(m.tolerance.atol) << ", rtol " << num(m.tolerance.rtol)
            << "\n";
        }
      } else {
        o << "mismatch: " << f.message << "\n";
      }
      break;
    case Failure::Kind::Timeout:
      o << "timeout: " << f.message << "\n";
      break;
  }
  if (!f.call_summary.empty())
    o << "failing call #" << f.call_index << ": " << f.call_summary << "\n";
  return bounded(o.str(), options.max_bytes);
}

}  // namespace opforge::generator
