//===- lexer.h - tokenizer for the Python subset Triton kernels use -------===//
//
// Python's tokenizer rules: NEWLINE ends a logical line, INDENT/DEDENT track
// indentation (tabs to multiples of 8, as CPython), lines continue inside
// brackets or after a backslash, comments and blank lines are skipped.
// Literals: decimal/hex/octal/binary integers with underscores, floats with
// exponents, single/double/triple-quoted strings with escapes, r-strings and
// f-strings (the body is kept raw for the parser to split into parts).
// Errors are CompileErrors with the position of the offending character.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "opforge/compiler/ast.h"
#include "opforge/compiler/diagnostics.h"

namespace opforge::compiler {

enum class TokenKind {
  Name,     // identifier (not a keyword)
  Keyword,  // def, if, lambda, True, None, ...
  Int,      // int_value (wrapped for literals in [2^63, 2^64), big_unsigned set)
  Float,    // float_value
  String,   // text = the decoded value
  FString,  // text = the raw body between the quotes; body_loc = its start
  Op,       // operator or delimiter; text = its spelling ("**=", "(", "->")
  Newline,
  Indent,
  Dedent,
  EndOfFile,
};
std::string_view token_kind_name(TokenKind k);

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  std::string text;  // spelling (Name/Keyword/Op), decoded value (String), raw body (FString)
  int64_t int_value = 0;
  bool big_unsigned = false;
  double float_value = 0.0;
  bool raw_string = false;  // r-prefix (for FString: no escape processing)
  SourceLoc loc;
  SourceLoc body_loc;  // FString only: position of the first body character

  bool is_op(std::string_view s) const { return kind == TokenKind::Op && text == s; }
  bool is_keyword(std::string_view s) const { return kind == TokenKind::Keyword && text == s; }
};

// Python's keywords (including soft ones the subset does not use).
bool is_python_keyword(std::string_view word);

// Tokenizes a whole file. Throws CompileError on a bad character, an
// unterminated string, inconsistent dedent or a malformed number. A bracket
// still open at end of file is not an error here: the EndOfFile token then
// carries the bracket in `text` and its position in `body_loc`, and the
// parser reports "'(' was never closed" (as CPython does) when its own
// error lies on a later line than the bracket.
std::vector<Token> tokenize(const SourceFile &file);

// Tokenizes a fragment (an f-string replacement field) whose first character
// sits at `start` in `file`; no INDENT/DEDENT/NEWLINE tokens are produced.
std::vector<Token> tokenize_fragment(const SourceFile &file, std::string_view text,
                                     SourceLoc start);

// Decodes Python escapes (\n, \t, \\, \', \", \xHH, \uXXXX, \N not supported)
// of a string body; throws CompileError at `loc` for a bad escape.
std::string decode_string_escapes(const SourceFile &file, std::string_view body, SourceLoc loc);

}  // namespace opforge::compiler
