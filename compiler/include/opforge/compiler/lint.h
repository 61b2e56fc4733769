//===- lint.h - rules checked on Triton source before compilation ---------===//
//
// The linter runs on the AST (parser.h) before anything is compiled. Kernel
// rules (OPF0xx) come from the target capability table (capability.h):
// element types, tl builtins, dot forms, atomics, block shapes, access
// patterns. Wrapper rules (OPF1xx) keep host wrappers inside what the
// wrapper interpreter allows: no host escapes (files, network, processes,
// reflection, eval), no imports beyond torch/triton/tl/math, no moving data
// to the CPU or CUDA, no ATen ops the kernel library does not implement,
// kernels launched only as `kernel[grid](...)`. Rule IDs are stable and
// each is documented in docs/compiler/lint.md.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "opforge/compiler/ast.h"
#include "opforge/compiler/capability.h"
#include "opforge/compiler/diagnostics.h"

namespace opforge::compiler {

struct LintRule {
  std::string id;       // "OPF001"
  std::string name;     // "disallowed-import"
  Severity severity;    // default severity (some rules take it from the table)
  std::string summary;  // one line
};
// Every rule, in ID order.
const std::vector<LintRule> &lint_rules();
const LintRule *find_lint_rule(std::string_view id);

struct LintFinding {
  std::string rule;  // rule ID
  Severity severity = Severity::Error;
  std::string message;
  std::string file;
  SourceLoc loc;
};

struct LintOptions {
  const TargetCapabilities *capabilities = nullptr;  // null: mtia_capabilities()
  // ATen overloads the kernel library implements ("add.Tensor", "mm.default");
  // a wrapper may call these (torch.add, torch.ops.aten.add.Tensor, x.add).
  std::set<std::string> implemented_ops;
};

// Lints a parsed module (parse it with ParseOptions{.check_imports = false}
// so that disallowed imports become findings). Findings are sorted by location.
std::vector<LintFinding> lint_module(const ast::Module &m, const LintOptions &options = {});
// Reads, parses and lints a file; a syntax error becomes an OPF000 finding.
// Throws opforge::Error when the file cannot be read.
std::vector<LintFinding> lint_file(const std::string &path, const LintOptions &options = {});
std::vector<LintFinding> lint_source(const std::string &path, const std::string &text,
                                     const LintOptions &options = {});

// "file:line:col: OPF001 message"
std::string format_finding(const LintFinding &f);
nlohmann::json findings_to_json(const std::vector<LintFinding> &findings);
bool has_errors(const std::vector<LintFinding> &findings);

}  // namespace opforge::compiler
