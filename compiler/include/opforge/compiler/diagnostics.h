//===- diagnostics.h - source-located compiler errors with a caret --------===//
//
// Every compiler stage (lexer, parser, semantics, linter, wrapper
// interpreter) reports problems the same way Triton's CompilationError does:
//
//   kernels/add.py:12:17: error: unsupported operand types for +: 'fp32' and 'pointer<fp32>'
//       out = x + ptr
//                 ^
//
// SourceFile holds the text and finds lines; CompileError is an opforge::Error
// (file/line/col in its context) that also carries the rendered snippet.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "opforge/compiler/ast.h"
#include "opforge/support/error.h"

namespace opforge::compiler {

enum class Severity { Error, Warning, Note };
std::string_view severity_name(Severity s);  // "error", "warning", "note"

// A source file's name and text with a line index.
class SourceFile {
 public:
  SourceFile() = default;
  SourceFile(std::string path, std::string text);
  // Reads a file; throws opforge::Error naming the path when it cannot.
  static std::shared_ptr<const SourceFile> load(const std::string &path);

  const std::string &path() const { return path_; }
  const std::string &text() const { return text_; }
  int line_count() const { return static_cast<int>(line_starts_.size()); }
  // Text of a 1-based line without its newline; empty when out of range.
  std::string_view line(int line) const;

 private:
  std::string path_;
  std::string text_;
  std::vector<size_t> line_starts_;
};

// "file:line:col: error: message" + the source line + a caret under col
// (tildes under the rest of the range when it is on the same line). Works
// with an unknown location (then no snippet) and a null file.
std::string format_diagnostic(const SourceFile *file, SourceLoc loc, Severity severity,
                              std::string_view message);
// Only the two snippet lines (source line and caret line), each ending in '\n';
// empty when the location or line is unknown.
std::string source_snippet(const SourceFile &file, SourceLoc loc);

// An error at a source location. what() is "file:line:col: message" (as for
// every opforge::Error); rendered() is the full diagnostic with the snippet.
class CompileError : public Error {
 public:
  CompileError(std::string message, std::string file, SourceLoc loc, std::string snippet = {});
  // Builds the error and its snippet from a SourceFile.
  static CompileError at(const SourceFile &file, SourceLoc loc, std::string message);

  SourceLoc loc() const { return loc_; }
  const std::string &snippet() const { return snippet_; }
  // "file:line:col: error: message\n<line>\n<caret>\n"
  std::string rendered() const;

 private:
  SourceLoc loc_;
  std::string snippet_;
};

}  // namespace opforge::compiler
