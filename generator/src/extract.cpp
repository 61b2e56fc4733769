// extract.cpp - fenced code blocks out of a model reply.
#include "opforge/generator/extract.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace opforge::generator {

namespace {

std::string trim(std::string s) {
  auto ws = [](unsigned char c) { return std::isspace(c) != 0; };
  s.erase(s.begin(), std::find_if_not(s.begin(), s.end(), ws));
  s.erase(std::find_if_not(s.rbegin(), s.rend(), ws).base(), s.end());
  return s;
}

std::string lower(std::string s) {
  for (auto &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A fence line: optional indentation (<= 3 spaces), then >= 3 backticks or tildes.
bool fence_of(const std::string &line, char &ch, size_t &len, std::string &info) {
  size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  if (i >= line.size() || (line[i] != '`' && line[i] != '~')) return false;
  ch = line[i];
  size_t j = i;
  while (j < line.size() && line[j] == ch) ++j;
  len = j - i;
  if (len < 3) return false;
  info = trim(line.substr(j));
  return true;
}

bool python_tag(const std::string &lang) {
  return lang.empty() || lang == "python" || lang == "py" || lang == "python3" || lang == "triton";
}

}  // namespace

std::vector<CodeBlock> find_code_blocks(const std::string &reply) {
  std::vector<CodeBlock> blocks;
  std::istringstream in(reply);
  std::string line;
  bool inside = false;
  char open_ch = 0;
  size_t open_len = 0;
  CodeBlock cur;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    char ch;
    size_t len;
    std::string info;
    if (!inside) {
      if (fence_of(line, ch, len, info)) {
        inside = true;
        open_ch = ch;
        open_len = len;
        std::string tag = info.substr(0, info.find_first_of(" \t{"));
        cur = CodeBlock{lower(tag), ""};
      }
      continue;
    }
    if (fence_of(line, ch, len, info) && ch == open_ch && len >= open_len && info.empty()) {
      blocks.push_back(cur);
      inside = false;
      continue;
    }
    cur.code += line;
    cur.code += '\n';
  }
  if (inside && !cur.code.empty()) blocks.push_back(cur);  // unterminated final fence
  return blocks;
}

std::string extract_code(const std::string &reply) {
  auto blocks = find_code_blocks(reply);
  std::string out;
  for (const auto &b : blocks) {
    if (!python_tag(b.language)) continue;
    if (trim(b.code).empty()) continue;
    if (!out.empty()) out += "\n\n";
    out += b.code;
  }
  if (!out.empty()) return out;
  if (blocks.empty() && reply.find("@triton.jit") != std::string::npos &&
      (reply.find("import triton") != std::string::npos ||
       reply.find("def ") != std::string::npos)) {
    std::string whole = trim(reply);
    return whole.empty() ? whole : whole + "\n";
  }
  return "";
}

}  // namespace opforge::generator
