//===- config.cpp - JSON files, presets, inheritance and overrides --------===//
#include "opforge/support/config.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "opforge/support/error.h"

namespace opforge {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// 1-based line and column of byte offset `byte` in `text`.
std::pair<int, int> line_col(std::string_view text, size_t byte) {
  byte = std::min(byte, text.size());
  int line = 1, col = 1;
  for (size_t i = 0; i < byte; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {line, col};
}

// Reject nesting deeper than kMaxJsonDepth before building anything: deep
// documents parse fine but every recursive walk over them (copy, merge,
// normalize, dump) overflows the stack.
void check_depth(std::string_view text, const std::string &file) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        auto [line, col] = line_col(text, i);
        throw Error("malformed JSON: arrays and objects nested deeper than " +
                        std::to_string(kMaxJsonDepth) + " levels",
                    ErrorContext{file, {}, line, col, {}});
      }
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    }
  }
}

// nlohmann's DOM builder plus the JSON pointer of the value being parsed, so
// that an error (a number out of range, a syntax error) names its field.
class PathSax {
 public:
  explicit PathSax(json &result) : dom_(result, true) {}

  bool null() { return value(dom_.null()); }
  bool boolean(bool v) { return value(dom_.boolean(v)); }
  bool number_integer(json::number_integer_t v) { return value(dom_.number_integer(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return value(dom_.number_unsigned(v)); }
  bool number_float(json::number_float_t v, const json::string_t &s) {
    return value(dom_.number_float(v, s));
  }
  bool string(json::string_t &v) { return value(dom_.string(v)); }
  bool binary(json::binary_t &v) { return value(dom_.binary(v)); }
  bool start_object(std::size_t n) {
    frames_.push_back({false, 0, {}});
    return dom_.start_object(n);
  }
  bool key(json::string_t &k) {
    frames_.back().key = k;
    frames_.back().has_key = true;
    return dom_.key(k);
  }
  bool end_object() {
    frames_.pop_back();
    return value(dom_.end_object());
  }
  bool start_array(std::size_t n) {
    frames_.push_back({true, 0, {}});
    return dom_.start_array(n);
  }
  bool end_array() {
    frames_.pop_back();
    return value(dom_.end_array());
  }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string &token, const Exception &ex) {
    position_ = position;
    return dom_.parse_error(position, token, ex);
  }

  // The JSON pointer of the value being parsed ("/sram/size_bytes").
  std::string path() const {
    std::string p;
    for (const auto &f : frames_) {
      if (f.array)
        p += "/" + std::to_string(f.index);
      else if (f.has_key)
        p += "/" + f.key;
    }
    return p;
  }
  std::size_t error_position() const { return position_; }

 private:
  struct Frame {
    bool array;
    size_t index;
    std::string key;
    bool has_key = false;
  };
  bool value(bool ok) {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    return ok;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::vector<Frame> frames_;
  std::size_t position_ = 0;
};

// Drop nlohmann's "[json.exception.parse_error.101] parse error at line L, column C: " prefix.
std::string strip_prefix(const std::string &what) {
  size_t colon = what.find(": ");
  if (what.starts_with("[json.exception.parse_error") && colon != std::string::npos)
    return what.substr(colon + 2);
  size_t bracket = what.find("] ");
  if (what.starts_with("[json.exception.") && bracket != std::string::npos)
    return what.substr(bracket + 2);
  return what;
}

}  // namespace

json parse_json(std::string_view text, const std::string &file) {
  check_depth(text, file);
  json result;
  PathSax sax(result);
  try {
    json::sax_parse(text.begin(), text.end(), &sax);
    return result;
  } catch (const json::exception &e) {
    // e.byte / the SAX position is the 1-based offset of the character that
    // stopped the parser.
    size_t byte = sax.error_position();
    if (const auto *pe = dynamic_cast<const json::parse_error *>(&e)) byte = pe->byte;
    auto [line, col] = line_col(text, byte == 0 ? 0 : byte - 1);
    // A number out of range names its field; a syntax error its line and column.
    if (dynamic_cast<const json::out_of_range *>(&e))
      throw Error(strip_prefix(e.what()), ErrorContext{file, sax.path(), line, col, {}});
    throw Error("malformed JSON: " + strip_prefix(e.what()), ErrorContext{file, {}, line, col, {}});
  }
}

json load_json_file(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open file", ErrorContext{path.string(), {}, {}, {}, {}});
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw Error("cannot read file", ErrorContext{path.string(), {}, {}, {}, {}});
  return parse_json(ss.str(), path.string());
}

std::vector<std::string> list_presets(const std::vector<fs::path> &search_dirs) {
  std::vector<std::string> names;
  for (const auto &dir : search_dirs) {
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(dir, ec))
      if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

fs::path resolve_config_path(const std::string &name_or_file,
                             const std::vector<fs::path> &search_dirs) {
  if (name_or_file.empty()) throw Error("empty configuration name");
  bool looks_like_file =
      name_or_file.find('/') != std::string::npos || name_or_file.ends_with(".json");
  std::error_code ec;
  if (looks_like_file || fs::is_regular_file(name_or_file, ec)) {
    if (!fs::is_regular_file(name_or_file, ec))
      throw Error("no such configuration file", ErrorContext{name_or_file, {}, {}, {}, {}});
    return name_or_file;
  }
  for (const auto &dir : search_dirs) {
    fs::path p = dir / (name_or_file + ".json");
    if (fs::is_regular_file(p, ec)) return p;
  }
  std::string known;
  for (const auto &n : list_presets(search_dirs)) known += (known.empty() ? "" : ", ") + n;
  std::string dirs;
  for (const auto &d : search_dirs) dirs += (dirs.empty() ? "" : ", ") + d.string();
  throw Error("unknown preset '" + name_or_file +
              "' (known presets: " + (known.empty() ? "none" : known) + "; searched " +
              (dirs.empty() ? "nothing" : dirs) + ")");
}

void merge_json(json &base, const json &over) {
  if (!base.is_object() || !over.is_object()) {
    base = over;
    return;
  }
  for (const auto &[k, v] : over.items()) {
    if (base.contains(k) && base[k].is_object() && v.is_object())
      merge_json(base[k], v);
    else
      base[k] = v;
  }
}

namespace {

// Remember which file each JSON pointer's value came from.
void record_origin(const json &doc, const std::string &ptr, const std::string &file,
                   std::map<std::string, std::string> &origin) {
  origin[ptr] = file;
  if (doc.is_object())
    for (const auto &[k, v] : doc.items()) record_origin(v, ptr + "/" + k, file, origin);
}

json load_layer(const fs::path &path, const std::vector<fs::path> &search_dirs, int depth,
                std::vector<std::string> &chain, std::vector<std::string> &order,
                std::map<std::string, std::string> &origin) {
  if (depth > 16)
    throw Error("\"extends\" chain deeper than 16 files (a cycle?)",
                ErrorContext{path.string(), "/extends", {}, {}, {}});
  json doc = load_json_file(path);
  if (!doc.is_object())
    throw Error("expected a JSON object at the top level",
                ErrorContext{path.string(), "/", {}, {}, {}});
  json result = json::object();
  if (doc.contains("extends")) {
    const json &ext = doc["extends"];
    if (!ext.is_string())
      throw Error("expected the name of a preset or a file",
                  ErrorContext{path.string(), "/extends", {}, {}, {}});
    std::vector<fs::path> dirs{path.parent_path()};
    dirs.insert(dirs.end(), search_dirs.begin(), search_dirs.end());
    fs::path base_path;
    try {
      std::string name = ext.get<std::string>();
      // A relative file in "extends" is relative to the extending file.
      if ((name.find('/') != std::string::npos || name.ends_with(".json")) &&
          fs::path(name).is_relative())
        name = (path.parent_path() / name).string();
      base_path = resolve_config_path(name, dirs);
    } catch (const Error &e) {
      throw Error(e.message(), ErrorContext{path.string(), "/extends", {}, {}, {}});
    }
    chain.push_back(path.string());
    for (const auto &seen : chain)
      if (fs::weakly_canonical(seen) == fs::weakly_canonical(base_path))
        throw Error("\"extends\" cycle through " + base_path.string(),
                    ErrorContext{path.string(), "/extends", {}, {}, {}});
    result = load_layer(base_path, search_dirs, depth + 1, chain, order, origin);
    chain.pop_back();
    doc.erase("extends");
  }
  order.push_back(path.string());
  record_origin(doc, "", path.string(), origin);
  merge_json(result, doc);
  return result;
}

}  // namespace

LoadedConfig load_config(const Schema &schema, const std::string &name_or_file,
                         const std::vector<std::string> &overrides,
                         const std::vector<fs::path> &search_dirs) {
  LoadedConfig out;
  out.file = resolve_config_path(name_or_file, search_dirs);
  std::map<std::string, std::string> origin;
  std::vector<std::string> stack;
  json doc = load_layer(out.file, search_dirs, 0, stack, out.chain, origin);
  for (const auto &o : overrides) schema.apply_override(doc, o);
  try {
    out.resolved = schema.normalize(doc, out.file.string());
  } catch (const Error &e) {
    // Blame the file the offending value came from (longest matching pointer).
    std::string ptr = e.context().path;
    while (!ptr.empty() && ptr != "/") {
      auto it = origin.find(ptr);
      if (it != origin.end()) {
        ErrorContext ctx = e.context();
        ctx.file = it->second;
        throw Error(e.message(), ctx);
      }
      ptr = ptr.substr(0, ptr.rfind('/'));
    }
    throw;
  }
  return out;
}

}  // namespace opforge
