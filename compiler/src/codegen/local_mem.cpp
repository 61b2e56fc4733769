//===- local_mem.cpp - local memory planning: the stack a kernel needs, spills ===//
//
// A kernel's stack is its PE's local memory: the stack pointer starts at the
// top of the local memory alias (docs/model/memory-map.md) and every block
// buffer is an entry-block alloca of the emitted code, so what must fit is
// the deepest stack the code reaches: _start's frame plus the deepest chain
// of calls below it (outlined cold regions, runtime library routines),
// each function's frame read from the object's .stack_sizes section (LLVM's
// exact static frame: buffers, register spills, saved registers).
//
// fit_local_memory compiles the plan and measures that; when it exceeds the
// target's pe.local_mem.size_bytes, the largest block allocas the DPE does
// not read or write (its operands and accumulator must be in local memory)
// become slices of a per-PE spill scratch area in DRAM, and the kernel is
// compiled and measured again, until it fits; otherwise the compile fails
// naming kernel, constexprs, bytes needed and available.
// docs/compiler/codegen.md, "Local memory planning".
//
//===----------------------------------------------------------------------===//
#include "local_mem.h"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "opforge/compiler/codegen.h"
#include "opforge/support/error.h"

namespace opforge::compiler {
namespace {

template <typename T>
T at(const std::vector<uint8_t> &elf, uint64_t offset, const std::string &file) {
  if (offset > elf.size() || elf.size() - offset < sizeof(T))
    throw Error(file + ": stack sizes: read at offset " + std::to_string(offset) +
                " past the object's " + std::to_string(elf.size()) + " bytes");
  T v;
  std::memcpy(&v, elf.data() + offset, sizeof(T));
  return v;
}

std::string name_at(const std::vector<uint8_t> &elf, const Elf64_Shdr &strtab, uint32_t index) {
  if (index >= strtab.sh_size || strtab.sh_offset + strtab.sh_size > elf.size()) return {};
  const char *p = reinterpret_cast<const char *>(elf.data() + strtab.sh_offset + index);
  return std::string(p, strnlen(p, strtab.sh_size - index));
}

}  // namespace

StackGraph object_stack_graph(const std::vector<uint8_t> &elf, const std::string &file) {
  auto eh = at<Elf64_Ehdr>(elf, 0, file);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64)
    throw Error(file + ": stack sizes: not an ELF64 object");
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  for (size_t i = 0; i < sh.size(); ++i)
    sh[i] = at<Elf64_Shdr>(elf, eh.e_shoff + i * sizeof(Elf64_Shdr), file);
  if (eh.e_shstrndx >= sh.size()) throw Error(file + ": stack sizes: no section-name table");
  auto section_name = [&](size_t i) { return name_at(elf, sh[eh.e_shstrndx], sh[i].sh_name); };
  // Symbols and the functions of each section, by address.
  std::vector<Elf64_Sym> syms;
  std::vector<std::string> sym_names;
  for (size_t i = 1; i < sh.size(); ++i) {
    if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= sh.size()) continue;
    size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
    for (size_t k = 0; k < n; ++k) {
      syms.push_back(at<Elf64_Sym>(elf, sh[i].sh_offset + k * sizeof(Elf64_Sym), file));
      sym_names.push_back(name_at(elf, sh[sh[i].sh_link], syms.back().st_name));
    }
  }
  StackGraph g;
  for (size_t k = 0; k < syms.size(); ++k)
    if (ELF64_ST_TYPE(syms[k].st_info) == STT_FUNC && !sym_names[k].empty()) g[sym_names[k]];
  // The function of section `shndx` covering `offset`.
  auto function_at = [&](uint16_t shndx, uint64_t offset) -> std::string {
    std::string best;
    uint64_t best_at = 0;
    for (size_t k = 0; k < syms.size(); ++k) {
      const Elf64_Sym &s = syms[k];
      if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx != shndx) continue;
      if (s.st_value <= offset && (best.empty() || s.st_value >= best_at) &&
          (s.st_size == 0 || offset < s.st_value + s.st_size)) {
        best = sym_names[k];
        best_at = s.st_value;
      }
    }
    return best;
  };
  // What a relocation refers to: a named symbol, or the function at a
  // section symbol's addend.
  auto target = [&](uint32_t sym, int64_t addend) -> std::string {
    if (sym >= syms.size()) return {};
    const Elf64_Sym &s = syms[sym];
    // A function's own symbol, or an undefined one (another object's routine).
    if (ELF64_ST_TYPE(s.st_info) == STT_FUNC || s.st_shndx == SHN_UNDEF) return sym_names[sym];
    // A section symbol or a local label (.Lfunc_begin0): the function there.
    return function_at(s.st_shndx, s.st_value + static_cast<uint64_t>(addend));
  };
  for (size_t i = 1; i < sh.size(); ++i) {
    if (sh[i].sh_type != SHT_RELA || sh[i].sh_info >= sh.size()) continue;
    const size_t into = sh[i].sh_info;
    const bool sizes = section_name(into) == ".stack_sizes";
    const bool code = sh[into].sh_flags & SHF_EXECINSTR;
    if (!sizes && !code) continue;
    size_t n = sh[i].sh_size / sizeof(Elf64_Rela);
    for (size_t k = 0; k < n; ++k) {
      auto r = at<Elf64_Rela>(elf, sh[i].sh_offset + k * sizeof(Elf64_Rela), file);
      const uint32_t type = ELF64_R_TYPE(r.r_info), sym = ELF64_R_SYM(r.r_info);
      if (sizes) {
        // An entry: the function's address (this relocation), then its
        // frame as ULEB128.
        if (type != R_RISCV_64) continue;
        std::string fn = target(sym, r.r_addend);
        uint64_t p = sh[into].sh_offset + r.r_offset + 8, v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
          uint8_t b = at<uint8_t>(elf, p++, file);
          v |= uint64_t(b & 0x7f) << shift;
          if (!(b & 0x80)) break;
        }
        if (!fn.empty()) g[fn].frame = static_cast<int64_t>(v);
      } else if (type == R_RISCV_CALL || type == R_RISCV_CALL_PLT || type == R_RISCV_JAL) {
        std::string caller = function_at(static_cast<uint16_t>(into), r.r_offset);
        std::string callee = target(sym, r.r_addend);
        if (!caller.empty() && !callee.empty() && callee != caller)
          g[caller].callees.insert(callee);
      }
    }
  }
  return g;
}

int64_t object_stack_bytes(const std::vector<uint8_t> &object, const TargetOptions &target,
                           const std::string &entry) {
  const StackGraph kernel = object_stack_graph(object, "kernel.o");
  const StackGraph *runtime = nullptr;
  std::map<std::string, int64_t> memo;
  std::set<std::string> active;
  std::function<int64_t(const std::string &)> need = [&](const std::string &fn) -> int64_t {
    if (auto it = memo.find(fn); it != memo.end()) return it->second;
    const StackFunction *f = nullptr;
    if (auto it = kernel.find(fn); it != kernel.end()) {
      f = &it->second;
    } else {
      if (!runtime) runtime = &runtime_library_stack_graph(target);
      if (auto r = runtime->find(fn); r != runtime->end()) f = &r->second;
    }
    if (!f) return memo[fn] = 0;
    if (!active.insert(fn).second)
      throw Error("codegen: " + fn + " calls itself: its stack depth is unbounded");
    int64_t deepest = 0;
    for (const std::string &c : f->callees) deepest = std::max(deepest, need(c));
    active.erase(fn);
    return memo[fn] = f->frame + deepest;
  };
  return need(entry);
}

std::string constexpr_text(const Specialization &spec) {
  std::string out;
  for (const auto &[name, p] : spec.params) {
    if (p.kind != ParamSpec::Kind::Constexpr) continue;
    std::string v = p.key();
    if (v.rfind("constexpr=", 0) == 0) v = v.substr(10);
    out += (out.empty() ? "" : ", ") + name + "=" + v;
  }
  return out;
}

std::vector<uint8_t> fit_local_memory(LoweredKernelPlan &plan, const TargetOptions &target,
                                      const std::string &constexprs) {
  const int64_t limit = static_cast<int64_t>(target.local_mem_bytes);
  const std::string kernel =
      "kernel " + plan.function->name + (constexprs.empty() ? "" : " (" + constexprs + ")");
  plan.spilled_allocas.clear();
  plan.spill_report.clear();
  plan.warnings.clear();
  int64_t first_need = 0;
  for (int round = 0;; ++round) {
    LlirModule m = emit_llvm_module(plan);
    std::vector<uint8_t> object = llvm_ir_to_object(m.text, target);
    plan.stack_bytes = object_stack_bytes(object, target);
    plan.spill_bytes = m.spill_bytes;
    if (round == 0) first_need = plan.stack_bytes;
    if (limit <= 0 || plan.stack_bytes <= limit) {
      if (plan.spill_bytes > 0) {
        int count = 0;
        for (const BlockAlloca &b : m.block_allocas)
          if (b.spilled) {
            ++count;
            plan.spill_report.push_back(std::to_string(b.bytes) + " bytes: buffer of " + b.what);
          }
        plan.warnings.push_back(
            kernel + ": block buffers need " + std::to_string(first_need) +
            " bytes of local memory, " + std::to_string(limit) +
            " available (pe.local_mem.size_bytes); " + std::to_string(count) + " buffers (" +
            std::to_string(plan.spill_bytes) +
            " bytes per PE) spilled to DRAM scratch: correct but slower; smaller block sizes "
            "keep them local");
      }
      return object;
    }
    // Spill the largest buffers not yet spilled that the DPE does not touch,
    // enough to cover the excess (a buffer LLVM had already merged or
    // dropped frees nothing: the next round measures again).
    std::vector<const BlockAlloca *> candidates;
    int64_t pinned = 0;
    for (const BlockAlloca &b : m.block_allocas) {
      if (b.pinned) pinned += b.bytes;
      if (!b.pinned && !b.spilled) candidates.push_back(&b);
    }
    std::stable_sort(
        candidates.begin(), candidates.end(),
        [](const BlockAlloca *x, const BlockAlloca *y) { return x->bytes > y->bytes; });
    const int64_t excess = plan.stack_bytes - limit;
    int64_t freed = 0;
    for (const BlockAlloca *b : candidates) {
      if (freed >= excess) break;
      plan.spilled_allocas.insert(b->index);
      freed += b->bytes;
    }
    if (candidates.empty() || round >= 16)
      throw Error(kernel + ": needs " + std::to_string(plan.stack_bytes) +
                  " bytes of local memory (stack frame and block buffers), " +
                  std::to_string(limit) + " available (pe.local_mem.size_bytes); " +
                  std::to_string(pinned) +
                  " bytes of them are DPE operand and accumulator buffers, which cannot spill "
                  "to DRAM: use smaller block sizes");
  }
}

}  // namespace opforge::compiler
