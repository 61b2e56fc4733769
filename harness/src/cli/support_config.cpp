//===- support_config.cpp - `opforge config show|schema|presets` ----------===//
#include <boost/program_options.hpp>
#include <iostream>
#include <sstream>

#include "opforge/harness/cli.h"
#include "opforge/support/arch_config.h"
#include "opforge/support/config.h"
#include "opforge/support/error.h"
#include "opforge/support/schema_doc.h"

namespace po = boost::program_options;

namespace opforge::cli {
namespace {

const char *kUsage =
    "usage: opforge config show [--arch NAME|FILE] [--set KEY=VALUE]...\n"
    "       opforge config schema [--format text|markdown|json]\n"
    "       opforge config presets\n";

void print_help() {
  std::cout << kUsage
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

// Parse `args` against `desc` (no positional arguments); returns false and
// reports a usage error on bad input.
bool parse(const std::vector<std::string> &args, const po::options_description &desc,
           po::variables_map &vm, const std::string &command, int &rc) {
  try {
    po::store(po::command_line_parser(args).options(desc).run(), vm);
    po::notify(vm);
    return true;
  } catch (const po::error &e) {
    rc = usage_error(command, e.what());
    return false;
  }
}

int run_show(const std::vector<std::string> &args) {
  po::options_description desc("config show");
  desc.add_options()("help,h", "")("arch", po::value<std::string>()->default_value("mtia-2i"), "")(
      "set", po::value<std::vector<std::string>>()->composing(), "");
  po::variables_map vm;
  int rc = kExitOk;
  if (!parse(args, desc, vm, "config show", rc)) return rc;
  if (vm.count("help")) {
    print_help();
    return kExitOk;
  }
  std::vector<std::string> overrides;
  if (vm.count("set")) overrides = vm["set"].as<std::vector<std::string>>();
  const std::string arch = vm["arch"].as<std::string>();
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
  po::options_description desc("config schema");
  desc.add_options()("help,h", "")("format", po::value<std::string>()->default_value("text"), "");
  po::variables_map vm;
  int rc = kExitOk;
  if (!parse(args, desc, vm, "config schema", rc)) return rc;
  if (vm.count("help")) {
    print_help();
    return kExitOk;
  }
  const std::string format = vm["format"].as<std::string>();
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
  for (const auto &a : args) {
    if (a == "--help" || a == "-h") {
      print_help();
      return kExitOk;
    }
    return usage_error("config presets", "unexpected argument '" + a + "'");
  }
  for (const auto &name : list_presets(arch_search_dirs())) std::cout << name << "\n";
  return kExitOk;
}

int run_config(const std::vector<std::string> &args) {
  if (args.empty()) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  const std::string &sub = args[0];
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (sub == "--help" || sub == "-h" || sub == "help") {
    print_help();
    return kExitOk;
  }
  if (sub == "show") return run_show(rest);
  if (sub == "schema") return run_schema(rest);
  if (sub == "presets") return run_presets(rest);
  if (sub.starts_with("-")) return usage_error("config", "unknown option '" + sub + "'");
  return usage_error("config",
                     "unknown subcommand '" + sub + "' (expected show, schema or presets)");
}

CommandRegistrar reg{
    {"config", "show the resolved architecture config, its schema, the presets", run_config}};

}  // namespace
}  // namespace opforge::cli
