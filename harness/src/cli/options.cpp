//===- options.cpp - the one option parser of every `opforge` command -----===//
#include "options.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iostream>

namespace opforge::cli {
namespace {

// Boost's default style without prefix guessing: an option is named in full, as it always was.
constexpr int kStyle =
    po::command_line_style::default_style & ~po::command_line_style::allow_guessing;

// Positional arguments beyond the declared ones land here and are reported.
constexpr const char *kExtraKey = "opforge-extra-arguments";

bool is_help(const std::string &a) { return a == "--help" || a == "-h"; }

// Boost's message, with a declared option named as it is typed: Boost shows an option with only
// a short name as "--o" and a one-letter long name as "-k".
std::string message_of(const po::error &e, const po::options_description &all) {
  std::string message = e.what();
  const auto *named = dynamic_cast<const po::error_with_option_name *>(&e);
  if (!named) return message;
  const std::string shown = named->get_option_name();
  const std::string bare = shown.substr(std::min(shown.find_first_not_of('-'), shown.size()));
  const po::option_description *od = all.find_nothrow(bare, false);
  if (!od) od = all.find_nothrow("-" + bare, false);
  if (!od || shown.empty()) return message;
  const std::string typed = od->canonical_display_name(po::command_line_style::allow_long);
  for (size_t at = message.find("'" + shown + "'"); at != std::string::npos;
       at = message.find("'" + shown + "'", at + typed.size() + 2))
    message.replace(at + 1, shown.size(), typed);
  return message;
}

}  // namespace

std::optional<unsigned long long> parse_unsigned(const std::string &text) {
  std::string_view s = text;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  unsigned long long v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<long long> parse_signed(const std::string &text) {
  const bool negative = !text.empty() && text[0] == '-';
  auto magnitude = parse_unsigned(negative ? text.substr(1) : text);
  if (!magnitude) return std::nullopt;
  const auto limit = static_cast<unsigned long long>(std::numeric_limits<long long>::max());
  if (negative) {
    if (*magnitude > limit + 1) return std::nullopt;
    return *magnitude == limit + 1 ? std::numeric_limits<long long>::min()
                                   : -static_cast<long long>(*magnitude);
  }
  if (*magnitude > limit) return std::nullopt;
  return static_cast<long long>(*magnitude);
}

std::optional<double> parse_real(const std::string &text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
  char *end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string describe_number(bool integer, bool is_unsigned, Sign sign) {
  const std::string what = integer ? "integer" : "number";
  if (sign == Sign::Positive) return "a positive " + what;
  if (sign == Sign::NonNegative || is_unsigned) return "a non-negative " + what;
  return integer ? "an integer" : "a number";
}

OptionParser::OptionParser(std::string command, std::string help)
    : OptionParser(std::move(command), [help = std::move(help)](std::ostream &os) { os << help; }) {
}

OptionParser::OptionParser(std::string command, std::function<void(std::ostream &)> help)
    : command_(std::move(command)), help_(std::move(help)) {
  documented_.add_options()("help,h", "show this help");
}

OptionParser &OptionParser::declare(const std::string &name, const po::value_semantic *semantic,
                                    const std::string &help, Binder bind) {
  po::options_description &into = help.empty() ? undocumented_ : documented_;
  any_documented_ |= !help.empty();
  into.add_options()(name.c_str(), semantic, help.c_str());
  if (bind) binders_.emplace_back(into.options().back()->key(""), std::move(bind));
  return *this;
}

OptionParser &OptionParser::flag(const std::string &name, bool *out, const std::string &help) {
  // A vector of no tokens: naming a flag twice is harmless, as it always was.
  return declare(name, po::value<std::vector<std::string>>()->zero_tokens(), help,
                 [out](const po::variable_value &) {
                   *out = true;
                   return std::string();
                 });
}

OptionParser &OptionParser::text(const std::string &name, std::string *out, const std::string &help,
                                 const std::string &value_name) {
  return declare(name, po::value<std::vector<std::string>>()->value_name(value_name), help,
                 [out](const po::variable_value &v) {
                   *out = v.as<std::vector<std::string>>().back();
                   return std::string();
                 });
}

OptionParser &OptionParser::list(const std::string &name, std::vector<std::string> *out,
                                 const std::string &help, const std::string &value_name) {
  return declare(name, po::value<std::vector<std::string>>()->value_name(value_name), help,
                 [out](const po::variable_value &v) {
                   const auto &values = v.as<std::vector<std::string>>();
                   out->insert(out->end(), values.begin(), values.end());
                   return std::string();
                 });
}

OptionParser &OptionParser::positional(const std::string &name, std::string *out) {
  std::string key = name;
  if (out) {
    key = "opforge-positional-" + std::to_string(positionals_.size());
    undocumented_.add_options()(key.c_str(), po::value<std::string>(out), "");
  }
  positionals_.push_back({name, key, false});
  return *this;
}

OptionParser &OptionParser::positionals(const std::string &name, std::vector<std::string> *out) {
  const std::string key = "opforge-positional-" + std::to_string(positionals_.size());
  undocumented_.add_options()(key.c_str(), po::value<std::vector<std::string>>(out), "");
  positionals_.push_back({name, key, true});
  return *this;
}

OptionParser &OptionParser::subcommand(std::string *name, std::vector<std::string> *rest) {
  subcommand_ = name;
  subcommand_rest_ = rest;
  return *this;
}

po::options_description_easy_init OptionParser::add() {
  any_documented_ = true;
  return documented_.add_options();
}

bool OptionParser::given(const std::string &name) const {
  auto it = vm_.find(name);
  return it != vm_.end() && !it->second.defaulted();
}

void OptionParser::print_help(std::ostream &os) const {
  help_(os);
  if (any_documented_) os << "\n" << documented_;
}

std::optional<int> OptionParser::parse(const std::vector<std::string> &args_in) {
  std::vector<std::string> args = args_in;
  if (subcommand_) {
    // Options up to the first positional argument are this parser's; the rest the subcommand's.
    size_t i = 0;
    while (i < args.size() && args[i].starts_with("-") && args[i] != "-") ++i;
    if (i < args.size()) {
      *subcommand_ = args[i];
      subcommand_rest_->assign(args.begin() + static_cast<long>(i) + 1, args.end());
      args.resize(i);
    }
  }
  po::options_description all;
  all.add(documented_).add(undocumented_);
  all.add_options()(kExtraKey, po::value<std::vector<std::string>>(), "");
  po::positional_options_description pos;
  bool takes_rest = false;
  for (const auto &p : positionals_) {
    pos.add(p.key.c_str(), p.many ? -1 : 1);
    takes_rest |= p.many;
  }
  if (!takes_rest) pos.add(kExtraKey, -1);
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).style(kStyle).run(), vm_);
    if (vm_.count("help")) {
      print_help(std::cout);
      return kExitOk;
    }
    po::notify(vm_);
  } catch (const po::error &e) {
    // `--help` anywhere still shows the help, as it did before an error.
    for (const auto &a : args)
      if (is_help(a)) {
        print_help(std::cout);
        return kExitOk;
      }
    return error(message_of(e, all));
  }
  if (vm_.count(kExtraKey)) {
    const std::string extra = vm_[kExtraKey].as<std::vector<std::string>>().front();
    // One positional argument declared and given twice: name both.
    if (positionals_.size() == 1 && vm_.count(positionals_[0].key))
      return error("more than one " + positionals_[0].name + " given ('" +
                   vm_[positionals_[0].key].as<std::string>() + "', '" + extra + "')");
    return error("unexpected argument '" + extra + "'");
  }
  for (const auto &[key, bind] : binders_) {
    if (!vm_.count(key)) continue;
    if (std::string why = bind(vm_[key]); !why.empty()) return error(why);
  }
  return std::nullopt;
}

}  // namespace opforge::cli
