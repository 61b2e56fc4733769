//===- binary.cpp - the `bin` stage: assemble + link into a KernelBinary ---===//
//
// The assembly LLVM produced is assembled and linked by the ISA library's own
// assembler and linker (text at TargetOptions::text_base, entry `_start`);
// a non-allocated .opforge.meta section carries the kernel's metadata JSON.
//
//===----------------------------------------------------------------------===//
#include <cstring>

#include <nlohmann/json.hpp>

#include "opforge/compiler/codegen.h"
#include "opforge/isa/asm.h"
#include "opforge/isa/elf_writer.h"
#include "opforge/support/error.h"

namespace opforge::compiler {

std::vector<uint8_t> KernelBinary::pack_args(const std::vector<ArgValue> &values) const {
  if (values.size() != args.size())
    throw Error("kernel " + kernel + ": " + std::to_string(values.size()) + " arguments given, " +
                std::to_string(args.size()) + " expected");
  std::vector<uint8_t> block(arg_block_bytes, 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgSlot &s = args[i];
    const ArgValue &v = values[i];
    uint8_t *p = block.data() + s.offset_bytes;
    bool is_ptr = s.type.rfind("!tt.ptr", 0) == 0;
    bool is_float = s.type == "f32" || s.type == "f64" || s.type == "f16" || s.type == "bf16";
    if (is_ptr) {
      if (v.kind != ArgValue::Kind::Address)
        throw Error("kernel " + kernel + ": argument " + s.name + " needs a tensor");
      std::memcpy(p, &v.address, 8);
    } else if (is_float) {
      double d = v.kind == ArgValue::Kind::Float ? v.float_value : static_cast<double>(v.int_value);
      if (v.kind == ArgValue::Kind::Address)
        throw Error("kernel " + kernel + ": argument " + s.name + " needs a number");
      if (s.type == "f64")
        std::memcpy(p, &d, 8);
      else {
        float f = static_cast<float>(d);
        std::memcpy(p, &f, 4);
      }
    } else {
      if (v.kind != ArgValue::Kind::Int)
        throw Error("kernel " + kernel + ": argument " + s.name + " needs an integer");
      std::memcpy(p, &v.int_value, 8);
    }
  }
  return block;
}

KernelBinary link_kernel_binary(const std::string &asm_text, const LoweredKernelPlan &plan,
                                const std::string &spec_key, const TargetOptions &target) {
  KernelBinary b;
  b.kernel = plan.function->name;
  b.args = plan.args;
  b.arg_block_bytes = static_cast<uint32_t>(plan.args.size() * 8);
  b.spec_key = spec_key;
  b.local_mem_bytes = plan.local_mem_bytes;
  b.text_base = target.text_base;
  nlohmann::json meta;
  meta["kernel"] = b.kernel;
  meta["spec_key"] = spec_key;
  meta["target"] = target.key();
  meta["local_mem_bytes"] = b.local_mem_bytes;
  meta["arg_block_bytes"] = b.arg_block_bytes;
  for (auto &a : b.args)
    meta["args"].push_back({{"name", a.name}, {"type", a.type}, {"offset", a.offset_bytes}});
  b.metadata_json = meta.dump();
  std::string escaped;
  for (char c : b.metadata_json) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  b.asm_text =
      asm_text + "\n\t.section .opforge.meta,\"\",@progbits\n\t.ascii \"" + escaped + "\"\n";
  // LLVM prints whole-register loads with the short aliases vl<N>r.v (GNU as
  // takes them); spell them as the element-width form vl<N>re8.v.
  for (const char *n : {"1", "2", "4", "8"}) {
    std::string from = std::string("\tvl") + n + "r.v\t", to = std::string("\tvl") + n + "re8.v\t";
    for (size_t pos = 0; (pos = b.asm_text.find(from, pos)) != std::string::npos; pos += to.size())
      b.asm_text.replace(pos, from.size(), to);
  }
  isa::AsmUnit unit = isa::assemble(b.asm_text, b.kernel + ".s");
  isa::LinkOptions lo;
  lo.text_base = target.text_base;
  lo.entry_symbol = "_start";
  isa::LinkedImage linked = isa::link(unit, lo);
  b.entry = linked.entry;
  b.elf = isa::link_executable(unit, lo);
  return b;
}

}  // namespace opforge::compiler
