//===- binutils_util.h - run GNU binutils and qemu from isa tests ----------===//
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace opforge::isa::testutil {

// Runs a shell command; returns its stdout+stderr, sets *status to the
// exit status (as from pclose).
inline std::string run(const std::string &cmd, int *status) {
  std::string out;
  FILE *p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) {
    *status = -1;
    return "popen failed";
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  *status = pclose(p);
  return out;
}

inline bool have_tool(const std::string &tool) {
  int st = 0;
  run("command -v " + tool, &st);
  return st == 0;
}

inline std::vector<uint8_t> read_bytes(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

inline void write_bytes(const std::filesystem::path &p, const std::vector<uint8_t> &b) {
  std::ofstream out(p, std::ios::binary);
  out.write(reinterpret_cast<const char *>(b.data()), static_cast<std::streamsize>(b.size()));
}

// An executable file (qemu-user refuses to run files without the x bit).
inline void write_program(const std::filesystem::path &p, const std::vector<uint8_t> &b) {
  write_bytes(p, b);
  std::filesystem::permissions(
      p, std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec,
      std::filesystem::perm_options::add);
}

inline void write_text(const std::filesystem::path &p, const std::string &s) {
  std::ofstream(p) << s;
}

// A scratch directory under the build tree, removed on destruction.
struct ScratchDir {
  std::filesystem::path path;
  explicit ScratchDir(const std::string &tag) {
    path = std::filesystem::path(OPFORGE_BINARY_DIR) / "tests" / "isa" /
           (tag + "_" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string operator/(const std::string &name) const { return (path / name).string(); }
};

// Drops objdump's " <symbol>" target names and its " # address" notes (it
// tracks register values across instructions; we print the instruction only).
inline std::string strip_symbol(std::string s) {
  if (size_t lt = s.find(" <"); lt != std::string::npos) s.erase(lt);
  if (size_t hash = s.find(" # "); hash != std::string::npos) s.erase(hash);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  return s;
}

// Compares every instruction line of an `objdump -d` listing whose encoding
// has `hex_digits` hex digits (4: a halfword, 8: a word) with
// `ours(encoding, address)`, both through strip_symbol; each difference counts
// in `mismatches` and is reported while there are fewer than 120. Returns the
// number of lines compared.
template <class Disassemble>
size_t compare_with_objdump(const std::string &dump, int hex_digits, Disassemble ours,
                            int &mismatches) {
  std::regex line_re("^\\s*([0-9a-f]+):\\s+([0-9a-f]{" + std::to_string(hex_digits) +
                     "})\\s+(.*)$");
  size_t compared = 0;
  std::istringstream ds(dump);
  for (std::string line; std::getline(ds, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, line_re)) continue;
    const uint64_t addr = std::stoull(m[1], nullptr, 16);
    const uint32_t w = static_cast<uint32_t>(std::stoul(m[2], nullptr, 16));
    const std::string theirs = strip_symbol(m[3]);
    const std::string mine = strip_symbol(ours(w, addr));
    ++compared;
    if (theirs != mine && ++mismatches < 120)
      ADD_FAILURE() << "objdump '" << theirs << "' ours '" << mine << "'";
  }
  return compared;
}

inline const char *kMarch = "rv64imafdv_zicsr_zifencei";

}  // namespace opforge::isa::testutil
