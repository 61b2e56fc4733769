//===- prompt.h - prompts from editable template files --------------------===//
//
// Templates live in a directory (generator/prompts/ by default): system.md,
// task.md (first user turn) and feedback.md (user turn after a failure).
// `{{name}}` is replaced by a field of PromptContext; an unknown name is an
// error naming the template file and line. Reference kernels come from a
// library directory: up to three files, those of the overload's category
// first (a `# category: <name>` header line), then by name.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "opforge/generator/provider.h"

namespace opforge::generator {

struct PromptContext {
  std::string overload;  // "aten::add.Tensor"
  std::string wrapper;   // "add_Tensor"
  std::string schema;
  std::string docstring;
  std::string category;           // harness catalog category name
  std::string dtypes;             // "float32, int64": every dtype the recorded calls pass or return
  std::string call_signatures;    // several recorded calls, one per line (shapes, dtypes, kwargs)
  std::string wrapper_allowlist;  // "" -> wrapper_allowlist({}) (what the wrapper may call)
  std::string target_constraints;  // compiler::describe(capabilities)
  std::string reference_kernels;   // rendered reference files
  std::string feedback;            // summarized failure
  std::map<std::string, std::string> fields() const;
};

class PromptTemplates {
 public:
  // Loads system.md, task.md and feedback.md; throws opforge::Error naming a missing file.
  static PromptTemplates load(const std::string &dir);
  static std::string default_dir();  // <source>/generator/prompts

  std::vector<ChatMessage> first_turn(const PromptContext &ctx) const;
  ChatMessage feedback_turn(const PromptContext &ctx) const;

 private:
  struct Template {
    std::string path, text;
  };
  Template system_, task_, feedback_;
  static std::string render(const Template &t, const std::map<std::string, std::string> &fields);
};

// Up to `max_files` reference kernels from `library_dir` (missing dir: none),
// same category first, the overload's own file excluded; rendered as
// "### <file>\n```python\n...\n```\n" blocks.
// What a wrapper may use, from the wrapper interpreter's own tables
// (compiler::wrapper_torch_functions, wrapper_tensor_methods) and the ATen
// overloads the linter accepts as library calls (OPF105's implemented ops:
// none in the generation loop).
std::string wrapper_allowlist(const std::set<std::string> &implemented_ops);

std::string reference_kernels(const std::string &library_dir, const std::string &category,
                              const std::string &exclude_file, int max_files = 3);

}  // namespace opforge::generator
