//===- extract.h - code out of a model's reply --------------------------===//
//
// Finds fenced code blocks (``` or ~~~, any length >= 3, language tag
// python/py/triton or none) in a reply. Several blocks are joined in order
// (a model that splits kernel and wrapper into two blocks, or two "files"
// introduced by a `# file: x.py` line, gives one module); blocks tagged with
// another language (bash, json, text, ...) are skipped. An unterminated
// final fence takes the rest of the reply. With no fence at all, a reply
// that itself looks like Python with @triton.jit is taken whole.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace opforge::generator {

struct CodeBlock {
  std::string language;  // tag after the fence ("python", "" when none)
  std::string code;
};

std::vector<CodeBlock> find_code_blocks(const std::string &reply);
// The Python source of a reply ("" when it has none).
std::string extract_code(const std::string &reply);

}  // namespace opforge::generator
