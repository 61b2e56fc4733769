//===- cli.h - the opforge command-line front end's command registry ------===//
//
// Each subcommand lives in its own file under harness/src/cli/ and registers
// itself with a static CommandRegistrar, and parses its arguments with the
// shared OptionParser (harness/src/cli/options.h: --help, usage errors, values).
// Exit codes: 0 success, 1 failure of the requested work, 2 usage error
// (unknown command/option, bad value).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace opforge::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

struct Command {
  std::string name;     // "config", "asm", ...
  std::string summary;  // one line for `opforge --help`
  // Runs with the arguments after the command name.
  std::function<int(const std::vector<std::string> &args)> run;
};

void register_command(Command cmd);
const std::vector<Command> &commands();

struct CommandRegistrar {
  explicit CommandRegistrar(Command cmd) { register_command(std::move(cmd)); }
};

// Print "opforge: error: <msg>" and a usage hint to stderr; returns kExitUsage.
int usage_error(const std::string &command, const std::string &message);

}  // namespace opforge::cli
