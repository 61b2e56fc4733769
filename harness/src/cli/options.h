//===- options.h - the one option parser of every `opforge` command -------===//
//
// Every command declares its options and positional arguments on an
// OptionParser (Boost.Program_options underneath) and calls parse() before
// anything else, so all commands behave alike:
//   --help, -h      print the command's help text (followed by the option table
//                   when options were declared with a help string); exit 0
//   usage errors    an unknown option, a missing or bad value, an argument too
//                   many: "opforge CMD: error: ..." through usage_error(), naming
//                   the option or argument; exit kExitUsage (2)
//   --name=VALUE    and --name VALUE both work; names must be given in full
//   repeated        list() options (--set K=V) collect every value in order;
//                   text() and number() options take the last value given
//   numbers         whole numbers (decimal or 0x hex) or reals, the whole text,
//                   in the declared sign range; the error names the option
// Options with an empty help string are documented by the command's help text.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <boost/program_options.hpp>

#include <functional>
#include <iosfwd>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "opforge/harness/cli.h"

namespace opforge::cli {

namespace po = boost::program_options;

// The values a number() option accepts.
enum class Sign { Any, NonNegative, Positive };

class OptionParser {
 public:
  // `command` as usage_error() names it ("run", "config show"); `help` is what --help prints.
  OptionParser(std::string command, std::string help);
  // Help written when asked for (e.g. `opforge compile` lists the registered stages).
  OptionParser(std::string command, std::function<void(std::ostream &)> help);

  // --name (or "name,n" to accept -n too; ",o" for -o alone): sets *out to true.
  OptionParser &flag(const std::string &name, bool *out, const std::string &help = "");
  // --name VALUE: sets *out (the last one given wins).
  OptionParser &text(const std::string &name, std::string *out, const std::string &help = "",
                     const std::string &value_name = "ARG");
  // --name VALUE, repeatable: appends every value, in order, to *out.
  OptionParser &list(const std::string &name, std::vector<std::string> *out,
                     const std::string &help = "", const std::string &value_name = "ARG");
  // --name N: an integer or a real of type T, checked whole and against `sign`.
  template <class T>
  OptionParser &number(const std::string &name, T *out, const std::string &help = "",
                       Sign sign = Sign::Any);
  // The next positional argument (`name` as usage errors show it: "FILE.py").
  OptionParser &positional(const std::string &name, std::string *out);
  // Every remaining positional argument.
  OptionParser &positionals(const std::string &name, std::vector<std::string> *out);
  // For commands with subcommands: the first positional argument names the subcommand
  // (*name) and every argument after it is left unparsed in *rest for the subcommand's own
  // parser; only flags may come before it.
  OptionParser &subcommand(std::string *name, std::vector<std::string> *rest);
  // Plain Boost declarations, read back through vm() (commands with many options); a
  // positional(name, nullptr) may then fill a declared option.
  po::options_description_easy_init add();

  // Parses `args`. nullopt: go on with the command; otherwise the command returns this exit
  // status (kExitOk after printing the help, kExitUsage after printing a usage error).
  std::optional<int> parse(const std::vector<std::string> &args);

  const po::variables_map &vm() const { return vm_; }
  // Whether the option was given on the command line (not merely defaulted).
  bool given(const std::string &name) const;
  // A usage error of this command: prints it, returns kExitUsage.
  int error(const std::string &message) const { return usage_error(command_, message); }
  void print_help(std::ostream &os) const;

 private:
  // Converts a given option's value into the bound variable; returns an error message or "".
  using Binder = std::function<std::string(const po::variable_value &)>;
  struct Positional {
    std::string name, key;  // as shown, as declared
    bool many;
  };
  OptionParser &declare(const std::string &name, const po::value_semantic *semantic,
                        const std::string &help, Binder bind);
  template <class T>
  static std::string convert(const std::string &name, const std::string &text, T *out, Sign sign);

  std::string command_;
  std::function<void(std::ostream &)> help_;
  po::options_description documented_{"options"}, undocumented_;
  bool any_documented_ = false;
  std::vector<std::pair<std::string, Binder>> binders_;  // option key, binder
  std::vector<Positional> positionals_;
  std::string *subcommand_ = nullptr;
  std::vector<std::string> *subcommand_rest_ = nullptr;
  po::variables_map vm_;
};

// Number parsing shared by every instantiation of number(): the whole text, or nullopt.
std::optional<long long> parse_signed(const std::string &text);
std::optional<unsigned long long> parse_unsigned(const std::string &text);
std::optional<double> parse_real(const std::string &text);
// "a positive integer", "a non-negative number", ...
std::string describe_number(bool integer, bool is_unsigned, Sign sign);

template <class T>
std::string OptionParser::convert(const std::string &name, const std::string &text, T *out,
                                  Sign sign) {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
  bool ok = false;
  if constexpr (std::is_floating_point_v<T>) {
    auto v = parse_real(text);
    ok = v && (sign == Sign::Any || (sign == Sign::NonNegative ? *v >= 0 : *v > 0));
    if (ok) *out = static_cast<T>(*v);
  } else if constexpr (std::is_signed_v<T>) {
    auto v = parse_signed(text);
    ok = v && *v >= static_cast<long long>(std::numeric_limits<T>::lowest()) &&
         *v <= static_cast<long long>(std::numeric_limits<T>::max()) &&
         (sign == Sign::Any || (sign == Sign::NonNegative ? *v >= 0 : *v > 0));
    if (ok) *out = static_cast<T>(*v);
  } else {
    auto v = parse_unsigned(text);
    ok = v && *v <= static_cast<unsigned long long>(std::numeric_limits<T>::max()) &&
         (sign != Sign::Positive || *v > 0);
    if (ok) *out = static_cast<T>(*v);
  }
  if (ok) return "";
  return "--" + name + " needs " +
         describe_number(!std::is_floating_point_v<T>, std::is_unsigned_v<T>, sign) + ", got '" +
         text + "'";
}

template <class T>
OptionParser &OptionParser::number(const std::string &name, T *out, const std::string &help,
                                   Sign sign) {
  const std::string shown = name.substr(0, name.find(','));
  return declare(name, po::value<std::vector<std::string>>()->value_name("N"), help,
                 [shown, out, sign](const po::variable_value &v) {
                   return convert(shown, v.as<std::vector<std::string>>().back(), out, sign);
                 });
}

}  // namespace opforge::cli
