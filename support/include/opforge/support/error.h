//===- error.h - opforge's error type with source/field context ----------===//
//
// One error type for the whole project. It carries optional context (file,
// JSON path / field, line, column, PC) so callers can print a precise message.
// Library code throws opforge::Error; CLI front ends catch and print it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace opforge {

struct ErrorContext {
  std::string file;            // file name, if known
  std::string path;            // field/JSON path ("/sram/size"), if known
  std::optional<int> line;     // 1-based line
  std::optional<int> col;      // 1-based column
  std::optional<uint64_t> pc;  // guest program counter
};

class Error : public std::runtime_error {
 public:
  explicit Error(std::string message, ErrorContext ctx = {});

  const std::string &message() const { return message_; }
  const ErrorContext &context() const { return ctx_; }

  // Return a copy with more context filled in (fields already set are kept).
  Error with_file(const std::string &file) const;
  Error with_path(const std::string &path) const;

  // "file:line:col: path: message" with absent parts omitted.
  static std::string format(const std::string &message, const ErrorContext &ctx);

 private:
  std::string message_;
  ErrorContext ctx_;
};

}  // namespace opforge
