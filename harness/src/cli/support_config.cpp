//===- support_config.cpp - `opforge config show|schema|presets` ----------===//
#include <iostream>
#include <sstream>

#include "opforge/harness/cli.h"
#include "opforge/support/arch_config.h"
#include "opforge/support/config.h"
#include "opforge/support/error.h"
#include "opforge/support/schema_doc.h"
#include "options.h"

namespace opforge::cli {
namespace {

const char *kUsage =
    "usage: opforge config show [--arch NAME|FILE] [--set KEY=VALUE]...\n"
    "       opforge config schema [--format text|markdown|json]\n"
    "       opforge config presets\n";

void print_help(std::ostream &os) {
  os << kUsage
     << "\nArchitecture configurations: JSON presets in the arch directories\n"
        "($OPFORGE_ARCH_DIR, then scenarios/arch) plus overrides.\n\n"
        "  show     print the fully resolved configuration as JSON\n"
        "  schema   list every field with type, unit, default, allowed values and doc\n"
        "  presets  list the preset names found\n\n"
        "show options:\n"
        "  --arch NAME|FILE    preset name or JSON file (default mtia-2i)\n"
        "  --set KEY=VALUE     override one field; repeatable, applied in order.\n"
        "                      KEY is a dotted path (pe_grid.rows); the unit suffix\n"
        "                      may be left out (sram.size=128MiB). VALUE is parsed\n"
        "                      per the field's type; quantities take units.\n\n"
        "See docs/config.md.\n";
}

int run_show(const std::vector<std::string> &args) {
  std::string arch = "mtia-2i";
  std::vector<std::string> overrides;
  OptionParser p("config show", print_help);
  p.text("arch", &arch).list("set", &overrides);
  if (auto rc = p.parse(args)) return *rc;
  // Bad command-line values (an unknown preset, a bad --set) are usage
  // errors (exit 2); a bad configuration file is a failure (exit 1).
  try {
    resolve_config_path(arch, arch_search_dirs());
  } catch (const Error &e) {
    return usage_error("config show", "--arch: " + std::string(e.what()));
  }
  ArchConfig config;
  try {
    config = ArchConfig::load(arch, overrides);
  } catch (const Error &e) {
    if (e.context().file.starts_with("--set")) return usage_error("config show", e.what());
    throw;
  }
  std::cout << arch_schema().dump_ordered(config.to_json()) << "\n";
  return kExitOk;
}

int run_schema(const std::vector<std::string> &args) {
  std::string format = "text";
  OptionParser p("config schema", print_help);
  p.text("format", &format);
  if (auto rc = p.parse(args)) return *rc;
  if (format == "text")
    std::cout << schema_text(arch_schema());
  else if (format == "markdown")
    std::cout << schema_markdown(arch_schema()) << "\n";
  else if (format == "json")
    std::cout << schema_json(arch_schema()).dump(2) << "\n";
  else
    return usage_error("config schema",
                       "bad --format '" + format + "' (expected text, markdown or json)");
  return kExitOk;
}

int run_presets(const std::vector<std::string> &args) {
  OptionParser p("config presets", print_help);
  if (auto rc = p.parse(args)) return *rc;
  for (const auto &name : list_presets(arch_search_dirs())) std::cout << name << "\n";
  return kExitOk;
}

int run_config(const std::vector<std::string> &args) {
  std::string sub;
  std::vector<std::string> rest;
  OptionParser p("config", print_help);
  p.subcommand(&sub, &rest);
  if (auto rc = p.parse(args)) return *rc;
  if (sub.empty()) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  if (sub == "help") {
    print_help(std::cout);
    return kExitOk;
  }
  if (sub == "show") return run_show(rest);
  if (sub == "schema") return run_schema(rest);
  if (sub == "presets") return run_presets(rest);
  return usage_error("config",
                     "unknown subcommand '" + sub + "' (expected show, schema or presets)");
}

CommandRegistrar reg{
    {"config", "show the resolved architecture config, its schema, the presets", run_config}};

}  // namespace
}  // namespace opforge::cli
