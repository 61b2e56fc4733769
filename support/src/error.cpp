//===- error.cpp - opforge::Error formatting ------------------------------===//
#include "opforge/support/error.h"

#include <cstdio>

namespace opforge {

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
  if (!ctx.path.empty()) out += ctx.path + ": ";
  if (ctx.pc) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "pc=0x%llx: ", static_cast<unsigned long long>(*ctx.pc));
    out += buf;
  }
  out += message;
  return out;
}

}  // namespace opforge
