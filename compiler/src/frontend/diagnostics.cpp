//===- diagnostics.cpp - rendering of source-located compiler errors -------===//
#include "opforge/compiler/diagnostics.h"

#include <fstream>
#include <sstream>

namespace opforge::compiler {

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
  }
  return "error";
}

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n' && i + 1 < text_.size()) line_starts_.push_back(i + 1);
}

std::shared_ptr<const SourceFile> SourceFile::load(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  ErrorContext ctx;
  ctx.file = path;
  if (!in) throw Error("cannot open source file", ctx);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw Error("cannot read source file", ctx);
  return std::make_shared<SourceFile>(path, ss.str());
}

std::string_view SourceFile::line(int line) const {
  if (line < 1 || line > line_count()) return {};
  size_t start = line_starts_[static_cast<size_t>(line - 1)];
  size_t end = text_.find('\n', start);
  if (end == std::string::npos) end = text_.size();
  std::string_view v(text_.data() + start, end - start);
  if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
  return v;
}

std::string source_snippet(const SourceFile &file, SourceLoc loc) {
  if (!loc.known()) return {};
  std::string_view text = file.line(loc.line);
  if (text.empty() && loc.line > file.line_count()) return {};
  std::string out(text);
  out += "\n";
  int col = loc.col < 1 ? 1 : loc.col;
  std::string caret;
  for (int i = 1; i < col; ++i) {
    size_t idx = static_cast<size_t>(i - 1);
    caret += (idx < text.size() && text[idx] == '\t') ? '\t' : ' ';
  }
  caret += '^';
  if (loc.end_line == loc.line && loc.end_col > col + 1) {
    int last = std::min<int>(loc.end_col, static_cast<int>(text.size()) + 1);
    for (int i = col + 1; i < last; ++i) caret += '~';
  }
  out += caret + "\n";
  return out;
}

std::string format_diagnostic(const SourceFile *file, SourceLoc loc, Severity severity,
                              std::string_view message) {
  std::string out;
  if (file && !file->path().empty()) out += file->path() + ":";
  if (loc.known()) out += std::to_string(loc.line) + ":" + std::to_string(loc.col) + ":";
  if (!out.empty()) out += " ";
  out += std::string(severity_name(severity)) + ": " + std::string(message) + "\n";
  if (file) out += source_snippet(*file, loc);
  return out;
}

static ErrorContext context_of(const std::string &file, SourceLoc loc) {
  ErrorContext ctx;
  ctx.file = file;
  if (loc.known()) {
    ctx.line = loc.line;
    ctx.col = loc.col;
  }
  return ctx;
}

CompileError::CompileError(std::string message, std::string file, SourceLoc loc,
                           std::string snippet)
    : Error(std::move(message), context_of(file, loc)), loc_(loc), snippet_(std::move(snippet)) {}

CompileError CompileError::at(const SourceFile &file, SourceLoc loc, std::string message) {
  return CompileError(std::move(message), file.path(), loc, source_snippet(file, loc));
}

std::string CompileError::rendered() const {
  std::string out;
  if (!context().file.empty()) out += context().file + ":";
  if (loc_.known()) out += std::to_string(loc_.line) + ":" + std::to_string(loc_.col) + ":";
  if (!out.empty()) out += " ";
  out += "error: " + message() + "\n" + snippet_;
  return out;
}

}  // namespace opforge::compiler
