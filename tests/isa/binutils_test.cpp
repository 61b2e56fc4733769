//===- binutils_test.cpp - differential test against GNU as and objdump 2.40 ===//
//
// For every table instruction binutils knows: several operand instances
// (seeded random plus edge values) are encoded with our encoder and written
// as text by our disassembler; riscv64-unknown-elf-as assembles that text
// and must produce the same words; our assembler must too; and our
// disassembly of as's object must equal objdump -d -M no-aliases.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "binutils_util.h"
#include "opforge/isa/asm.h"
#include "opforge/isa/disasm.h"
#include "opforge/isa/encode.h"
#include "opforge/isa/spec.h"

namespace opforge::isa {
namespace {

namespace fs = std::filesystem;

// Extensions binutils 2.40 does not implement, with the reason.
const std::map<std::string, std::string> kNotInBinutils = {
    {"xmtia", "opforge's custom extension"},
    {"rv_zvfbfmin", "Zvfbfmin is not in binutils 2.40 (added in 2.42)"},
};
const char *const kMarch = "rv64imafdv_zicsr_zifencei_zfh";

std::string run(const std::string &cmd, int *status) {
  std::string out;
  FILE *p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return "popen failed";
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  *status = pclose(p);
  return out;
}

bool tool_available(const char *tool) {
  int st = 0;
  run(std::string("command -v ") + tool, &st);
  return st == 0;
}

struct Case {
  const InsnSpec *insn;
  uint32_t word;
  std::string text;
};

// Operand values for one instance; `edge` picks extreme values.
uint32_t make_instance(const InsnSpec &insn, std::mt19937 &rng, int variant) {
  std::vector<FieldValue> vals;
  std::vector<std::string> names;  // keep string_views alive
  const bool edge = variant < 2;
  auto pick = [&](int64_t lo, int64_t hi) {
    if (edge) return variant == 0 ? lo : hi;
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (const AsmOperand &op : asm_operands(insn)) {
    if (op.field.empty()) continue;
    const std::string &f = op.field;
    int64_t v = 0;
    switch (op.kind) {
      case OperandKind::RoundMode: {
        const uint32_t def = default_rounding_mode(insn);
        static const int64_t kModes[] = {0, 1, 2, 3, 4, 7};
        v = def == 0 ? 0 : kModes[std::uniform_int_distribution<int>(0, 5)(rng)];
        break;
      }
      case OperandKind::Fence:
        v = pick(1, 15);
        break;
      case OperandKind::VType: {
        static const int64_t kLmul[] = {0, 1, 2, 3, 5, 6, 7};
        v = (pick(0, 1) << 7) | (pick(0, 1) << 6) | (pick(0, 3) << 3) | kLmul[pick(0, 6)];
        break;
      }
      case OperandKind::Csr: {
        std::vector<uint32_t> std_csrs;
        for (const auto &c : csrs())
          if (c.extension != "xmtia") std_csrs.push_back(c.number);
        v = std_csrs[static_cast<size_t>(pick(0, static_cast<int64_t>(std_csrs.size()) - 1))];
        break;
      }
      case OperandKind::VMask:
        v = std::uniform_int_distribution<int>(0, 1)(rng);
        break;
      case OperandKind::MemOffset:
      case OperandKind::Imm:
      case OperandKind::PcRel:
      case OperandKind::Upper: {
        const FieldRange r = field_range(f);
        v = pick(r.lo / r.align, r.hi / r.align) * r.align;
        break;
      }
      default:
        v = pick(0, 31);
        break;
    }
    names.push_back(f);
    vals.push_back({f, v});
    if (op.kind == OperandKind::MemOffset || op.kind == OperandKind::MemBase) {
      if (op.kind == OperandKind::MemOffset) vals.push_back({"rs1", pick(0, 31)});
    }
  }
  if (std::find(insn.fields.begin(), insn.fields.end(), "aq") != insn.fields.end()) {
    vals.push_back({"aq", std::uniform_int_distribution<int>(0, 1)(rng)});
    vals.push_back({"rl", std::uniform_int_distribution<int>(0, 1)(rng)});
  }
  return encode(insn, vals);
}

// Our disassembly, with a branch/jump target rewritten as ".+off".
std::string as_text(const InsnSpec &insn, uint32_t word) {
  std::string t = disassemble(word, 0);
  for (const AsmOperand &op : asm_operands(insn))
    if (op.kind == OperandKind::PcRel) {
      const int64_t off = field_operand(op.field, word);
      const size_t comma = t.find_last_of(",\t");
      t = t.substr(0, comma + 1) +
          (off < 0 ? ".-" + std::to_string(-off) : ".+" + std::to_string(off));
    }
  return t;
}

class Binutils : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!tool_available("riscv64-unknown-elf-as") || !tool_available("riscv64-unknown-elf-objdump"))
      GTEST_SKIP() << "riscv64-unknown-elf binutils not installed";
    dir_ =
        fs::path(OPFORGE_BINARY_DIR) / "tests" / "isa" / ("binutils_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

TEST_F(Binutils, EveryKnownInstructionAssemblesAndDisassemblesIdentically) {
  std::mt19937 rng(20261129);
  std::vector<Case> cases;
  std::set<std::string> skipped_ext;
  for (const auto &insn : instructions()) {
    if (insn.length_bytes() == 2) continue;  // compressed: binutils_rvc_test.cpp
    if (kNotInBinutils.count(insn.extension)) {
      skipped_ext.insert(insn.extension);
      continue;
    }
    for (int variant = 0; variant < 8; ++variant) {
      const uint32_t w = make_instance(insn, rng, variant);
      cases.push_back({&insn, w, as_text(insn, w)});
    }
  }
  // GNU as checks vector register constraints (overlaps, v0 under a mask,
  // alignment to LMUL-like groups) that are not part of the encoding; drop
  // the instances it rejects and re-run, then require enough survivors.
  const fs::path src = dir_ / "all.s", obj = dir_ / "all.o";
  std::vector<Case> kept = cases;
  std::string log;
  for (int attempt = 0; attempt < 4; ++attempt) {
    std::ofstream s(src);
    s << ".option norelax\n";
    for (const auto &c : kept) s << c.text << "\n";
    s.close();
    int st = 0;
    log = run("riscv64-unknown-elf-as -march=" + std::string(kMarch) + " -o " + obj.string() + " " +
                  src.string(),
              &st);
    if (st == 0) break;
    std::set<size_t> bad;
    std::regex re(":(\\d+): Error:");
    for (std::sregex_iterator it(log.begin(), log.end(), re), end; it != end; ++it)
      bad.insert(static_cast<size_t>(std::stoul((*it)[1])) - 2);
    ASSERT_FALSE(bad.empty()) << log;
    std::vector<Case> next;
    for (size_t k = 0; k < kept.size(); ++k)
      if (!bad.count(k)) next.push_back(kept[k]);
    kept = std::move(next);
  }
  std::map<std::string, int> per_insn;
  for (const auto &c : kept) per_insn[c.insn->name]++;
  for (const auto &insn : instructions()) {
    if (!kNotInBinutils.count(insn.extension) && insn.length_bytes() == 4) {
      EXPECT_GE(per_insn[insn.name], 3) << insn.name << ": binutils accepted too few instances";
    }
  }
  RecordProperty("instances", static_cast<int>(kept.size()));
  std::cout << "binutils differential: " << kept.size() << " instances of " << per_insn.size()
            << " instructions (" << cases.size() - kept.size()
            << " generated instances rejected by as); extensions not in binutils:";
  for (const auto &[ext, why] : kNotInBinutils) std::cout << " " << ext << " (" << why << ")";
  std::cout << "\n";

  // 1. as's bytes == our encoder's words.
  int st = 0;
  const fs::path bin = dir_ / "all.bin";
  run("riscv64-unknown-elf-objcopy -O binary -j .text " + obj.string() + " " + bin.string(), &st);
  ASSERT_EQ(st, 0);
  std::ifstream bf(bin, std::ios::binary);
  std::vector<uint8_t> as_bytes((std::istreambuf_iterator<char>(bf)),
                                std::istreambuf_iterator<char>());
  ASSERT_EQ(as_bytes.size(), kept.size() * 4) << log;
  int mismatches = 0;
  for (size_t k = 0; k < kept.size(); ++k) {
    uint32_t w;
    std::memcpy(&w, as_bytes.data() + 4 * k, 4);
    if (w != kept[k].word && ++mismatches < 40)
      ADD_FAILURE() << kept[k].text << ": as 0x" << std::hex << w << " ours 0x" << kept[k].word;
  }
  // 2. our assembler's bytes == as's bytes.
  std::ostringstream all;
  all << ".option norelax\n";
  for (const auto &c : kept) all << c.text << "\n";
  std::vector<uint8_t> ours;
  try {
    ours = assemble_text_bytes(all.str(), "all.s");
  } catch (const std::exception &e) {
    FAIL() << "our assembler: " << e.what();
  }
  ASSERT_EQ(ours.size(), as_bytes.size());
  for (size_t k = 0; k < kept.size(); ++k)
    if (std::memcmp(ours.data() + 4 * k, as_bytes.data() + 4 * k, 4) != 0 && ++mismatches < 80)
      ADD_FAILURE() << "our assembler differs from as for: " << kept[k].text;
  // 3. our disassembly of as's words == objdump's text.
  const std::string dump = run("riscv64-unknown-elf-objdump -d -M no-aliases " + obj.string(), &st);
  ASSERT_EQ(st, 0);
  const size_t compared = testutil::compare_with_objdump(
      dump, 8,
      [](uint32_t w, uint64_t addr) {
        return disassemble(w, addr, [](uint64_t) { return std::optional<std::string>(); });
      },
      mismatches);
  EXPECT_EQ(compared, kept.size());
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(skipped_ext.size(), kNotInBinutils.size());
}

}  // namespace
}  // namespace opforge::isa
