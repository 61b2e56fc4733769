//===- extension.h - ISA extension instructions loaded from files at run time ===//
//
// An extension instruction is one file (docs/isa/extensions.md): its
// riscv-opcodes encoding line, its operands, its per-element semantics as an
// expression over the ISS's numeric helpers, the unit it occupies and its
// timing in the chip model, and the Triton intrinsic it becomes
// (tl.extra.mtia.<intrinsic>). Files are loaded with `--isa-ext FILE`
// (repeatable; any command; inherited by child processes through
// OPFORGE_ISA_EXT) or a scenario's `isa_extensions` field, with no rebuild.
// Once registered, an instruction is known to the assembler, disassembler,
// decoder (find_insn / decode in spec.h), the ISS, the chip timing, the
// compiler (lowered to `.insn`) and the IR interpreter.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace opforge::isa {

// The operand shapes an extension instruction may take. Every shape is an
// element-wise vector instruction over the active elements i < vl (RVV mask
// and tail policies, optional `v0.t` when the encoding has a vm field).
enum class ExtOperands : uint8_t {
  V,   // vd, vs2[, v0.t]        element names in the expression: x = vs2[i]
  VV,  // vd, vs2, vs1[, v0.t]   x = vs2[i], y = vs1[i]
  VF,  // vd, vs2, rs1[, v0.t]   x = vs2[i], y = f[rs1] (fp32 scalar register)
};

// The chip unit the instruction occupies (what it is charged and counted as).
enum class ExtUnit : uint8_t { Sfu, VecFp, VecAlu };

// A parsed semantics expression (opaque; evaluate with ext_evaluate).
struct ExtExpr;

struct ExtInsn {
  std::string mnemonic;             // "vfexpscale.vf"
  std::string extension;            // the file's extension name ("xvfexpscale")
  uint32_t mask = 0, match = 0;     // from the encoding line
  std::vector<std::string> fields;  // operand fields of the encoding line, table order
  ExtOperands operands = ExtOperands::V;
  unsigned sew = 32;      // the element width it accepts (other SEW: illegal)
  std::string semantics;  // the expression text, as written
  std::shared_ptr<const ExtExpr> expr;
  ExtUnit unit = ExtUnit::Sfu;
  unsigned latency_cycles = 0;      // issue to first result
  unsigned elements_per_cycle = 1;  // throughput of the unit for this instruction
  unsigned occupancy_cycles = 1;    // cycles the unit is busy per group of elements_per_cycle
  std::string intrinsic;            // "expscale": the kernel calls tl.extra.mtia.expscale(x[, y])
  std::string source;               // "path:line" of the instruction's first line
  int spec_id = -1;                 // InsnSpec::id once registered
};

// One element's result: x and y as in ExtOperands (y ignored for V),
// `sfu_prec` the mtia.sfu_prec value (0 = exact) used by SFU helpers.
// Every fp32 operation rounds to nearest even, like the vector unit.
float ext_evaluate(const ExtInsn &insn, float x, float y, unsigned sfu_prec);

struct ExtensionFile {
  std::string path;
  std::string name;         // `extension NAME`
  std::string description;  // one line
  std::vector<ExtInsn> insns;
};

// Parse an extension file's text. Errors throw opforge::Error naming
// file:line and the field (a malformed encoding, an unknown helper in an
// expression, a missing key, a value out of range).
ExtensionFile parse_extension(std::string_view text, std::string_view file);
ExtensionFile load_extension(const std::string &path);

// Process-wide registry. Registering adds the instructions to the tables
// (instructions(), find_insn, decode) and to the ISS; an encoding that
// overlaps an existing instruction, a mnemonic or intrinsic already taken,
// is rejected naming both instructions. Registering the same file twice is a
// no-op. Thread-safe; callers register before running programs.
void register_extension(const ExtensionFile &file);
// Load and register each path (the --isa-ext list); also what
// OPFORGE_ISA_EXT (paths separated by ':') is read into at start-up.
void register_extension_files(const std::vector<std::string> &paths);
// Every registered extension instruction, in registration order.
std::vector<const ExtInsn *> extension_insns();
const ExtInsn *find_ext_insn(int spec_id);
const ExtInsn *find_ext_intrinsic(std::string_view intrinsic);

}  // namespace opforge::isa
