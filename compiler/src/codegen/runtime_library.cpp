//===- runtime_library.cpp - routines compiled once per process and linked into kernels ===//
//
// Code that many kernels share and that is rarely hot (strided DMA row
// loops, the element copy of a masked tile whose index wraps around i32)
// costs LLVM as much per kernel module as the kernel itself. Here it is LLVM
// IR text compiled once per process and target key (llvm_ir_to_object, the
// same TargetOptions as the kernel), read back into an isa::AsmUnit and
// merged into each kernel unit that refers to a `__opforge_rt_*` symbol
// before the ISA linker lays the executable out.
//
//===----------------------------------------------------------------------===//
#include "runtime_library.h"

#include "local_mem.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "opforge/compiler/codegen.h"
#include "opforge/support/error.h"
#include "opforge/support/hash.h"

namespace opforge::compiler {

namespace {

constexpr const char *kPrefix = "__opforge_rt_";

struct Cache {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<isa::AsmUnit>> units;  // by target key
  std::map<std::string, std::unique_ptr<StackGraph>> stacks;   // the same objects' stack graphs
};

Cache &cache() {
  static Cache c;
  return c;
}

// The one compile of the library for a target (not inlined: its name lets a
// profiler tell it apart from the kernels' compiles).
[[gnu::noinline]] isa::AsmUnit compile_runtime_library(const TargetOptions &target,
                                                       StackGraph &stack) {
  const std::vector<uint8_t> object = llvm_ir_to_object(runtime_library_ir(), target);
  stack = object_stack_graph(object, "opforge_runtime.o");
  isa::AsmUnit unit = read_relocatable_elf(object, "opforge_runtime.o");
  // Names private to the library (section symbols, local labels) get a
  // prefix of their own, so they cannot meet the kernel's; its sections too.
  std::map<std::string, std::string> rename;
  for (auto &sym : unit.symbols)
    if (!sym.global) rename[sym.name] = ".Lrt" + sym.name;
  for (auto &sym : unit.symbols) {
    if (auto it = rename.find(sym.name); it != rename.end()) sym.name = it->second;
    if (sym.section < 0 && !sym.absolute)
      throw Error("runtime library: refers to " + sym.name + ", which it does not define");
  }
  for (auto &sec : unit.sections) {
    sec.name += ".opforge_rt";
    for (auto &f : sec.fixups)
      if (auto it = rename.find(f.symbol); it != rename.end()) f.symbol = it->second;
  }
  return unit;
}

}  // namespace

const std::string &runtime_library_ir() {
  static const std::string ir = build_runtime_library_ir();
  return ir;
}

std::string runtime_library_key(const std::string &ir_text) { return "rt-" + fnv1a64_hex(ir_text); }

std::string runtime_library_key() {
  static const std::string key = runtime_library_key(runtime_library_ir());
  return key;
}

const isa::AsmUnit &runtime_library_unit(const TargetOptions &target) {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  // The library's code depends on the LLVM target and pipeline only (not on
  // text_base or the DPE limits): one compile serves those targets.
  const std::string key = target.triple + ";" + target.features + ";O" +
                          std::to_string(target.opt_level) + "/" + target.opt_pipeline;
  auto &slot = c.units[key];
  if (!slot) {
    auto stack = std::make_unique<StackGraph>();
    slot = std::make_unique<isa::AsmUnit>(compile_runtime_library(target, *stack));
    c.stacks[key] = std::move(stack);
  }
  return *slot;
}

const StackGraph &runtime_library_stack_graph(const TargetOptions &target) {
  runtime_library_unit(target);
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return *c.stacks.at(target.triple + ";" + target.features + ";O" +
                      std::to_string(target.opt_level) + "/" + target.opt_pipeline);
}

double runtime_library_warm_up(const TargetOptions &target) {
  auto t0 = std::chrono::steady_clock::now();
  runtime_library_unit(target);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void link_runtime_library(isa::AsmUnit &kernel, const TargetOptions &target) {
  std::set<std::string> wanted;
  for (const auto &sym : kernel.symbols)
    if (sym.section < 0 && !sym.absolute && sym.name.rfind(kPrefix, 0) == 0)
      wanted.insert(sym.name);
  if (wanted.empty()) return;
  const isa::AsmUnit &rt = runtime_library_unit(target);
  std::set<std::string> defined;
  for (const auto &sym : rt.symbols)
    if (sym.global) defined.insert(sym.name);
  for (const auto &name : wanted)
    if (!defined.count(name))
      throw Error(kernel.filename + ": calls " + name +
                  ", which the opforge runtime library does not define");
  // The kernel's references now resolve against the library's definitions.
  std::erase_if(kernel.symbols, [&](const isa::AsmSymbol &s) {
    return s.section < 0 && !s.absolute && wanted.count(s.name);
  });
  const int first = static_cast<int>(kernel.sections.size());
  for (const auto &sec : rt.sections) kernel.sections.push_back(sec);
  for (auto sym : rt.symbols) {
    if (sym.section >= 0) sym.section += first;
    kernel.symbols.push_back(std::move(sym));
  }
}

}  // namespace opforge::compiler
