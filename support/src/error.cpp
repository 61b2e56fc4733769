//===- error.cpp - opforge::Error formatting ------------------------------===//
#include "opforge/support/error.h"

#include <cstdio>

namespace opforge {

namespace {

// An error line echoes values from input files; a 1 MB value must not make a 1 MB
// line. Any run of more than kLongRun bytes without a space keeps its first and
// last bytes around a count of the bytes left out, and the whole text is cut to
// kLongText bytes the same way.
constexpr size_t kLongRun = 240, kLongText = 4000;

std::string elide(const std::string &s, size_t keep_head, size_t keep_tail) {
  return s.substr(0, keep_head) + "[... " + std::to_string(s.size() - keep_head - keep_tail) +
         " bytes ...]" + s.substr(s.size() - keep_tail);
}

std::string bounded(const std::string &text) {
  if (text.size() <= kLongRun) return text;
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    size_t space = text.find(' ', i);
    size_t end = space == std::string::npos ? text.size() : space + 1;
    std::string run = text.substr(i, end - i);
    out += run.size() > kLongRun ? elide(run, kLongRun / 2, kLongRun / 4) : run;
    i = end;
  }
  if (out.size() > kLongText) out = elide(out, kLongText / 2, kLongText / 4);
  return out;
}

}  // namespace

Error::Error(std::string message, ErrorContext ctx)
    : std::runtime_error(format(message, ctx)),
      message_(std::move(message)),
      ctx_(std::move(ctx)) {}

Error Error::with_file(const std::string &file) const {
  ErrorContext c = ctx_;
  if (c.file.empty()) c.file = file;
  return Error(message_, c);
}

Error Error::with_path(const std::string &path) const {
  ErrorContext c = ctx_;
  if (c.path.empty()) c.path = path;
  return Error(message_, c);
}

std::string Error::format(const std::string &message, const ErrorContext &ctx) {
  std::string out;
  if (!ctx.file.empty()) {
    out += ctx.file;
    if (ctx.line) {
      out += ":" + std::to_string(*ctx.line);
      if (ctx.col) out += ":" + std::to_string(*ctx.col);
    }
    out += ": ";
  } else if (ctx.line) {
    out += "line " + std::to_string(*ctx.line);
    if (ctx.col) out += ":" + std::to_string(*ctx.col);
    out += ": ";
  }
  if (!ctx.path.empty()) out += bounded(ctx.path) + ": ";
  if (ctx.pc) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "pc=0x%llx: ", static_cast<unsigned long long>(*ctx.pc));
    out += buf;
  }
  out += bounded(message);
  return out;
}

}  // namespace opforge
