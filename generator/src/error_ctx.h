// error_ctx.h - ErrorContext builders for the generator's error messages (private).
#pragma once

#include <optional>
#include <string>

#include "opforge/support/error.h"

namespace opforge::generator {

inline ErrorContext at_file(std::string file, std::optional<int> line = {}) {
  ErrorContext c;
  c.file = std::move(file);
  c.line = line;
  return c;
}

inline ErrorContext at_field(std::string file, std::string path) {
  ErrorContext c;
  c.file = std::move(file);
  c.path = std::move(path);
  return c;
}

}  // namespace opforge::generator
