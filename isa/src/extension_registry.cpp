//===- extension_registry.cpp - the process-wide ISA extension registry ----===//
//
// register_extension adds a file's instructions to the tables (spec.h:
// detail::add_instructions checks mnemonics and encodings against every
// instruction) and to the ISS (iss/sem_ext.cpp), all under one lock, so a
// decode table or hart built meanwhile sees an instruction completely or
// not at all. Registered instructions live until the process ends.
//
//===----------------------------------------------------------------------===//
#include <deque>
#include <filesystem>
#include <mutex>

#include "extension_expr.h"
#include "iss/registry.h"
#include "opforge/isa/spec.h"
#include "opforge/support/error.h"

namespace opforge::isa {
namespace {

struct Registry {
  std::recursive_mutex mutex;
  std::deque<ExtInsn> insns;  // stable addresses
  std::vector<ExtensionFile> files;
};
Registry &registry() {
  static Registry r;
  return r;
}

bool same_insn(const ExtInsn &a, const ExtInsn &b) {
  return a.mnemonic == b.mnemonic && a.mask == b.mask && a.match == b.match &&
         a.fields == b.fields && a.operands == b.operands && a.sew == b.sew &&
         a.semantics == b.semantics && a.unit == b.unit && a.latency_cycles == b.latency_cycles &&
         a.elements_per_cycle == b.elements_per_cycle && a.occupancy_cycles == b.occupancy_cycles &&
         a.intrinsic == b.intrinsic;
}

bool same_file(const ExtensionFile &a, const ExtensionFile &b) {
  if (a.name != b.name || a.insns.size() != b.insns.size()) return false;
  for (size_t k = 0; k < a.insns.size(); ++k)
    if (!same_insn(a.insns[k], b.insns[k])) return false;
  return true;
}

}  // namespace

void register_extension(const ExtensionFile &file) {
  Registry &r = registry();
  std::lock_guard lock(r.mutex);
  for (const ExtensionFile &f : r.files)
    if (f.name == file.name) {
      if (same_file(f, file)) return;  // the same extension again: nothing to do
      throw Error("extension '" + file.name + "' is already registered from " + f.path +
                      " with other instructions",
                  ErrorContext{file.path, "extension", {}, {}, {}});
    }
  for (const ExtInsn &n : file.insns)
    for (const ExtInsn &o : r.insns)
      if (n.intrinsic == o.intrinsic)
        throw Error("intrinsic '" + n.intrinsic + "' of '" + n.mnemonic + "' (" + n.source +
                        ") is already that of '" + o.mnemonic + "' (" + o.source + ")",
                    ErrorContext{file.path, "intrinsic", {}, {}, {}});
  std::vector<InsnSpec> specs;
  for (const ExtInsn &n : file.insns) {
    InsnSpec s;
    s.name = n.mnemonic;
    s.extension = file.name;
    s.mask = n.mask;
    s.match = n.match;
    s.fields = n.fields;
    s.source = n.source;
    specs.push_back(std::move(s));
  }
  std::vector<int> ids;
  try {
    ids = detail::add_instructions(std::move(specs));
  } catch (const Error &e) {
    const bool name = e.message().starts_with("duplicate mnemonic");
    throw Error(e.message(), ErrorContext{file.path, name ? "insn" : "encoding", {}, {}, {}});
  }
  for (size_t k = 0; k < file.insns.size(); ++k) {
    ExtInsn &added = r.insns.emplace_back(file.insns[k]);
    added.spec_id = ids[k];
    sem::add_extension_semantics(added);
  }
  r.files.push_back(file);
}

void register_extension_files(const std::vector<std::string> &paths) {
  for (const std::string &p : paths) register_extension(load_extension(p));
}

std::vector<const ExtInsn *> extension_insns() {
  Registry &r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<const ExtInsn *> out;
  for (const ExtInsn &i : r.insns) out.push_back(&i);
  return out;
}

const ExtInsn *find_ext_insn(int spec_id) {
  Registry &r = registry();
  std::lock_guard lock(r.mutex);
  for (const ExtInsn &i : r.insns)
    if (i.spec_id == spec_id) return &i;
  return nullptr;
}

const ExtInsn *find_ext_intrinsic(std::string_view intrinsic) {
  Registry &r = registry();
  std::lock_guard lock(r.mutex);
  for (const ExtInsn &i : r.insns)
    if (i.intrinsic == intrinsic) return &i;
  return nullptr;
}

}  // namespace opforge::isa
