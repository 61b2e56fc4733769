// semantic_notes.cpp - semantic notes of internal overloads
// (generator/inductor/semantic_notes.json).
#include "opforge/generator/semantic_notes.h"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "error_ctx.h"
#include "opforge/support/error.h"

namespace opforge::generator {

SemanticNotes SemanticNotes::load(const std::string &dir) {
  SemanticNotes out;
  const std::string path = (std::filesystem::path(dir) / "semantic_notes.json").string();
  std::ifstream in(path);
  if (!in) return out;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
    for (const auto &n : j.at("notes")) {
      SemanticNote note;
      note.text = n.at("note").get<std::string>();
      note.replaces_docs = n.value("replaces_docs", false);
      for (const auto &o : n.at("overloads")) out.notes_[o.get<std::string>()] = note;
    }
  } catch (const nlohmann::json::exception &e) {
    throw Error(std::string("bad semantic notes: ") + e.what(), at_file(path));
  }
  return out;
}

std::optional<SemanticNote> SemanticNotes::find(const std::string &overload) const {
  auto it = notes_.find(overload);
  if (it == notes_.end()) return std::nullopt;
  return it->second;
}

std::string overload_documentation(const std::string &recorded_docstring,
                                   const std::optional<SemanticNote> &note) {
  if (!note) return recorded_docstring;
  if (note->replaces_docs || recorded_docstring.empty()) return note->text;
  return recorded_docstring + "\n\nNote on this overload: " + note->text;
}

}  // namespace opforge::generator
