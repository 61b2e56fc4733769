//===- compiler_lint.cpp - `opforge lint`: lint Triton kernel files --------===//
#include <fstream>
#include <iostream>
#include <sstream>

#include "opforge/compiler/capability.h"
#include "opforge/compiler/lint.h"
#include "opforge/harness/cli.h"
#include "options.h"

namespace opforge::cli {
namespace {

const char *kUsage =
    "usage: opforge lint FILE.py... [--json] [--implemented OPS] [--rules] [--capabilities]\n\n"
    "Check Triton kernel files (kernels + host wrappers) before compilation against the\n"
    "target capability table and the wrapper rules. One line per finding:\n"
    "  file:line:col: RULE-ID message\n\n"
    "options:\n"
    "  --json              print the findings as a JSON array instead\n"
    "  --implemented OPS   ATen overloads the kernel library implements, that wrappers may\n"
    "                      call: a comma-separated list (add.Tensor,mm.default) or @FILE\n"
    "                      with one overload per line\n"
    "  --rules             list every rule (ID, name, severity, summary) and exit\n"
    "  --capabilities      print the target capability table as JSON and exit\n\n"
    "exit status: 0 no error-severity finding, 1 at least one, 2 usage error\n";

bool read_ops(const std::string &spec, std::set<std::string> &out, std::string &error) {
  std::string text = spec;
  if (!spec.empty() && spec[0] == '@') {
    std::ifstream in(spec.substr(1));
    if (!in) {
      error = "cannot read --implemented file '" + spec.substr(1) + "'";
      return false;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  std::string item;
  for (char c : text + "\n") {
    if (c == ',' || c == '\n' || c == ' ' || c == '\t' || c == '\r') {
      if (!item.empty() && item[0] != '#') out.insert(item);
      item.clear();
    } else {
      item += c;
    }
  }
  return true;
}

int run_lint(const std::vector<std::string> &args) {
  bool json = false, rules = false, capabilities = false;
  std::vector<std::string> files, implemented;
  compiler::LintOptions options;
  OptionParser p("lint", kUsage);
  p.flag("json", &json)
      .flag("rules", &rules)
      .flag("capabilities", &capabilities)
      .list("implemented", &implemented)
      .positionals("FILE.py", &files);
  if (auto rc = p.parse(args)) return *rc;
  if (rules) {
    for (auto &r : compiler::lint_rules())
      std::cout << r.id << "  " << r.name << "  " << compiler::severity_name(r.severity) << "  "
                << r.summary << "\n";
    return kExitOk;
  }
  if (capabilities) {
    std::cout << compiler::to_json(compiler::mtia_capabilities()).dump(2) << "\n";
    return kExitOk;
  }
  for (const auto &spec : implemented) {
    std::string error;
    if (!read_ops(spec, options.implemented_ops, error)) return p.error(error);
  }
  if (files.empty()) return usage_error("lint", "no input file");
  std::vector<compiler::LintFinding> all;
  for (auto &f : files) {
    auto findings = compiler::lint_file(f, options);
    all.insert(all.end(), findings.begin(), findings.end());
  }
  if (json) {
    std::cout << compiler::findings_to_json(all).dump(2) << "\n";
  } else {
    for (auto &f : all) std::cout << compiler::format_finding(f) << "\n";
  }
  return compiler::has_errors(all) ? kExitFailure : kExitOk;
}

CommandRegistrar reg{{"lint", "check Triton kernel files against the target's rules", run_lint}};

}  // namespace
}  // namespace opforge::cli
