//===- registry.cpp - binds semantics bodies to table entries by mnemonic --===//
#include "registry.h"

#include <algorithm>
#include <mutex>

#include "opforge/isa/iss.h"
#include "opforge/isa/spec.h"
#include "semantics.h"

namespace opforge::isa::sem {

// Pull every semantics unit into the link.
void link_rv_i();
void link_rv_m();
void link_rv_a();
void link_rv_fd();
void link_rv_c();
void link_rv_zfh();
void link_zicsr();
void link_rv_v_cfg_mem();
void link_rv_v_int();
void link_rv_v_fixpt();
void link_rv_v_fp();
void link_rv_v_fp_est();
void link_rv_v_perm();
void link_xmtia();

std::vector<SemEntry> &registry() {
  static std::vector<SemEntry> entries;
  return entries;
}

const SemEntry *find_semantics(std::string_view mnemonic) {
  for (const auto &e : registry())
    if (e.name == mnemonic) return &e;
  return nullptr;
}

namespace {
uint64_t illegal_insn(Hart &, Insn i, uint64_t) { Hart::raise(cause::kIllegalInsn, i.bits); }
}  // namespace

InsnFn illegal_handler() { return &illegal_insn; }

const DecodeTable &decode_table() {
  static DecodeTable table = [] {
    link_rv_i();
    link_rv_m();
    link_rv_a();
    link_rv_fd();
    link_rv_c();
    link_rv_zfh();
    link_zicsr();
    link_rv_v_cfg_mem();
    link_rv_v_int();
    link_rv_v_fixpt();
    link_rv_v_fp();
    link_rv_v_fp_est();
    link_rv_v_perm();
    link_xmtia();
    DecodeTable t;
    // The built-in tables only (indexing them is safe while extensions are
    // added): decode_extension serves the extension instructions.
    const std::vector<InsnSpec> &all = instructions();
    for (size_t k = 0; k < detail::builtin_instruction_count(); ++k) {
      const InsnSpec &s = all[k];
      const SemEntry *e = find_semantics(s.name);
      DecodeEntry d;
      d.mask = s.mask;
      d.match = s.match;
      d.id = s.id;
      d.fn = e ? e->fn : &illegal_insn;
      d.cls = e ? e->cls : InsnClass::System;
      d.has_semantics = e != nullptr;
      d.excluded = s.excluded;
      if (s.length_bytes() == 2)
        t.compressed[((s.match & 3) << 3) | ((s.match >> 13) & 7)].push_back(d);
      else
        t.by_opcode[s.match & 0x7f].push_back(d);
    }
    // More specific encodings first so a special case wins over a general one.
    auto specific_first = [](std::vector<DecodeEntry> &bucket) {
      std::stable_sort(bucket.begin(), bucket.end(),
                       [](const DecodeEntry &a, const DecodeEntry &b) {
                         return __builtin_popcount(a.mask) > __builtin_popcount(b.mask);
                       });
    };
    for (auto &bucket : t.by_opcode) specific_first(bucket);
    for (auto &bucket : t.compressed) specific_first(bucket);
    return t;
  }();
  return table;
}

const DecodeEntry *decode_for_iss(uint32_t word) {
  if ((word & 3) != 3) {  // 16-bit: fields may exclude values (c.jr's rs1 != x0)
    for (const DecodeEntry &d : decode_table().compressed[((word & 3) << 3) | ((word >> 13) & 7)])
      if ((word & d.mask) == d.match &&
          std::none_of(d.excluded.begin(), d.excluded.end(),
                       [&](const InsnSpec::Exclusion &e) { return (word & e.mask) == e.value; }))
        return &d;
    return nullptr;
  }
  const auto &bucket = decode_table().by_opcode[word & 0x7f];
  for (const DecodeEntry &d : bucket)
    if ((word & d.mask) == d.match) return &d;
  return decode_extension(word);
}

}  // namespace opforge::isa::sem

namespace opforge::isa {
std::vector<std::string> semantics_mnemonics() {
  (void)sem::decode_table();  // links every unit
  std::vector<std::string> out;
  for (const auto &e : sem::registry()) out.push_back(e.name);
  // Registered extension instructions all execute in sem_ext.cpp.
  for (const ExtInsn *e : extension_insns()) out.push_back(e->mnemonic);
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace opforge::isa
