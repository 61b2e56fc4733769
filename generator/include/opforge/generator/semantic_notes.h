//===- semantic_notes.h - hand-written meaning of overloads whose docs are missing or wrong ===//
//
// Internal ATen overloads (log_sigmoid_forward, nll_loss_forward, _log_softmax,
// ...) have no docstring of their own: the corpus records the docstring of
// the OpInfo that called them (multilabel_soft_margin_loss's for
// log_sigmoid_forward, CrossEntropyLoss's for nll_loss_forward). A short note
// per such overload, kept as data beside the lowering table
// (generator/inductor/semantic_notes.json), says what each output holds and
// the dtype rules; the prompt shows it instead of (replaces_docs) or after
// the recorded docstring.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <optional>
#include <string>

namespace opforge::generator {

struct SemanticNote {
  std::string text;
  bool replaces_docs = false;  // the recorded docstring is another operator's: do not show it
};

class SemanticNotes {
 public:
  // Reads <dir>/semantic_notes.json; a directory without the file has no notes.
  // Throws opforge::Error naming the file and field of a bad entry.
  static SemanticNotes load(const std::string &dir);
  std::optional<SemanticNote> find(const std::string &overload) const;
  size_t size() const { return notes_.size(); }

 private:
  std::map<std::string, SemanticNote> notes_;
};

// The documentation a prompt shows for `overload`: the note alone when it replaces
// the recorded docstring, else the docstring followed by the note.
std::string overload_documentation(const std::string &recorded_docstring,
                                   const std::optional<SemanticNote> &note);

}  // namespace opforge::generator
