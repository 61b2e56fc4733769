//===- ir_text.h - counting what emitted IR text contains, for the lowering tests ===//
#pragma once

#include <cstddef>
#include <string>

namespace opforge::compiler {

// How many times `what` occurs in `text` (overlapping occurrences counted).
inline size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace opforge::compiler
