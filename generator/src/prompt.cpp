// prompt.cpp - prompt templates ({{field}} substitution) and reference kernel selection.
#include "opforge/generator/prompt.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "error_ctx.h"
#include "opforge/compiler/wrapper.h"
#include "opforge/support/error.h"

namespace opforge::generator {

namespace fs = std::filesystem;

namespace {
std::string read_text(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read prompt template", at_file(path));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

std::map<std::string, std::string> PromptContext::fields() const {
  return {{"overload", overload},
          {"wrapper", wrapper},
          {"schema", schema},
          {"docstring", docstring.empty() ? "(no docstring recorded)" : docstring},
          {"category", category},
          {"dtypes", dtypes},
          {"call_signatures", call_signatures.empty() ? "(none recorded)" : call_signatures},
          {"wrapper_allowlist",
           wrapper_allowlist.empty() ? generator::wrapper_allowlist({}) : wrapper_allowlist},
          {"target_constraints", target_constraints},
          {"reference_kernels", reference_kernels.empty() ? "(none available)" : reference_kernels},
          {"feedback", feedback}};
}

PromptTemplates PromptTemplates::load(const std::string &dir) {
  PromptTemplates t;
  for (auto [name, slot] : {std::pair{"system.md", &t.system_}, std::pair{"task.md", &t.task_},
                            std::pair{"feedback.md", &t.feedback_}}) {
    std::string path = (fs::path(dir) / name).string();
    slot->path = path;
    slot->text = read_text(path);
  }
  return t;
}

std::string PromptTemplates::default_dir() {
  return std::string(OPFORGE_SOURCE_DIR) + "/generator/prompts";
}

std::string PromptTemplates::render(const Template &t,
                                    const std::map<std::string, std::string> &fields) {
  std::string out;
  size_t i = 0;
  while (i < t.text.size()) {
    size_t open = t.text.find("{{", i);
    if (open == std::string::npos) {
      out += t.text.substr(i);
      break;
    }
    out += t.text.substr(i, open - i);
    size_t close = t.text.find("}}", open + 2);
    int line = 1 + static_cast<int>(
                       std::count(t.text.begin(), t.text.begin() + static_cast<long>(open), '\n'));
    if (close == std::string::npos)
      throw Error("unterminated '{{' in prompt template", at_file(t.path, line));
    std::string name = t.text.substr(open + 2, close - open - 2);
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    auto it = fields.find(name);
    if (it == fields.end())
      throw Error("unknown template field '" + name + "'", at_file(t.path, line));
    out += it->second;
    i = close + 2;
  }
  return out;
}

std::vector<ChatMessage> PromptTemplates::first_turn(const PromptContext &ctx) const {
  auto f = ctx.fields();
  return {{"system", render(system_, f)}, {"user", render(task_, f)}};
}

ChatMessage PromptTemplates::feedback_turn(const PromptContext &ctx) const {
  return {"user", render(feedback_, ctx.fields())};
}

std::string wrapper_allowlist(const std::set<std::string> &implemented_ops) {
  auto join = [](const std::set<std::string> &names, const std::string &prefix,
                 const std::string &suffix) {
    std::string out;
    for (const auto &n : names) out += (out.empty() ? "" : ", ") + prefix + n + suffix;
    return out;
  };
  std::string out =
      "- torch functions: " + join(compiler::wrapper_torch_functions(), "torch.", "") +
      "\n- tensor methods: " + join(compiler::wrapper_tensor_methods(), ".", "()") +
      "\n- tensor attributes: .shape, .dtype, .device, .ndim; torch dtypes as values; "
      "triton.cdiv, triton.next_power_of_2; math.* on numbers; plain Python "
      "(if/for/while, comprehensions, lambdas, len/range/min/max/...)\n"
      "- launches: kernel[grid](...) with a tuple grid or a lambda over meta\n";
  if (implemented_ops.empty())
    out +=
        "- no other ATen computation: torch.ops.aten.*, torch.nn.functional.* and compute "
        "methods (x.sum(), x.exp(), ...) are rejected (lint OPF105); compute in kernels\n";
  else
    out += "- library ATen calls (torch.ops.aten.X.Y): " + join(implemented_ops, "", "") + "\n";
  return out;
}

std::string reference_kernels(const std::string &library_dir, const std::string &category,
                              const std::string &exclude_file, int max_files) {
  std::error_code ec;
  if (library_dir.empty() || !fs::is_directory(library_dir, ec)) return "";
  struct Candidate {
    bool same_category;
    std::string name, text;
  };
  std::vector<Candidate> all;
  for (const auto &e : fs::directory_iterator(library_dir, ec)) {
    if (!e.is_regular_file() || e.path().extension() != ".py") continue;
    std::string name = e.path().filename().string();
    if (name == exclude_file) continue;
    std::string text = read_text(e.path().string());
    bool same =
        !category.empty() && text.find("# category: " + category + "\n") != std::string::npos;
    all.push_back({same, name, std::move(text)});
  }
  std::sort(all.begin(), all.end(), [](const Candidate &a, const Candidate &b) {
    if (a.same_category != b.same_category) return a.same_category;
    return a.name < b.name;
  });
  std::string out;
  for (int i = 0; i < max_files && i < static_cast<int>(all.size()); ++i)
    out += "### " + all[i].name + "\n```python\n" + all[i].text +
           (all[i].text.ends_with("\n") ? "" : "\n") + "```\n";
  return out;
}

}  // namespace opforge::generator
