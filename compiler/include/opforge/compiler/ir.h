//===- ir.h - ttir: the SSA block IR (values, operations, blocks, functions) ---===//
//
// ttir mirrors Triton's TTIR: every value is a scalar or a block (tensor) of a
// fixed shape; control flow is structured (scf.for / scf.if / scf.while) with
// single-block regions whose block arguments carry loop-carried values.
// Operations are generic (kind + operands + results + attributes + regions); the
// table in op_info() gives each kind its textual name and traits. The verifier
// (verify()) checks operand counts, types, shapes and dominance. See
// docs/compiler/ir.md for every operation and its textual form.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "opforge/compiler/types.h"

namespace opforge::ttir {

// X(enum name, textual name, pure)
#define OPFORGE_TTIR_OPS(X)                    \
  X(Constant, "arith.constant", true)          \
  X(MakeRange, "tt.make_range", true)          \
  X(Splat, "tt.splat", true)                   \
  X(Broadcast, "tt.broadcast", true)           \
  X(ExpandDims, "tt.expand_dims", true)        \
  X(Reshape, "tt.reshape", true)               \
  X(Trans, "tt.trans", true)                   \
  X(Join, "tt.join", true)                     \
  X(Split, "tt.split", true)                   \
  X(Load, "tt.load", false)                    \
  X(Store, "tt.store", false)                  \
  X(AddPtr, "tt.addptr", true)                 \
  X(ProgramId, "tt.get_program_id", true)      \
  X(NumPrograms, "tt.get_num_programs", true)  \
  X(AddI, "arith.addi", true)                  \
  X(AddF, "arith.addf", true)                  \
  X(SubI, "arith.subi", true)                  \
  X(SubF, "arith.subf", true)                  \
  X(MulI, "arith.muli", true)                  \
  X(MulF, "arith.mulf", true)                  \
  X(DivF, "arith.divf", true)                  \
  X(DivSI, "arith.divsi", true)                \
  X(DivUI, "arith.divui", true)                \
  X(RemSI, "arith.remsi", true)                \
  X(RemUI, "arith.remui", true)                \
  X(RemF, "arith.remf", true)                  \
  X(NegF, "arith.negf", true)                  \
  X(AndI, "arith.andi", true)                  \
  X(OrI, "arith.ori", true)                    \
  X(XOrI, "arith.xori", true)                  \
  X(ShLI, "arith.shli", true)                  \
  X(ShRSI, "arith.shrsi", true)                \
  X(ShRUI, "arith.shrui", true)                \
  X(CmpI, "arith.cmpi", true)                  \
  X(CmpF, "arith.cmpf", true)                  \
  X(Select, "arith.select", true)              \
  X(MaxSI, "arith.maxsi", true)                \
  X(MinSI, "arith.minsi", true)                \
  X(MaxUI, "arith.maxui", true)                \
  X(MinUI, "arith.minui", true)                \
  X(MaximumF, "arith.maximumf", true)          \
  X(MinimumF, "arith.minimumf", true)          \
  X(MaxNumF, "arith.maxnumf", true)            \
  X(MinNumF, "arith.minnumf", true)            \
  X(Exp, "math.exp", true)                     \
  X(Exp2, "math.exp2", true)                   \
  X(Log, "math.log", true)                     \
  X(Log2, "math.log2", true)                   \
  X(Sqrt, "math.sqrt", true)                   \
  X(Rsqrt, "math.rsqrt", true)                 \
  X(Sin, "math.sin", true)                     \
  X(Cos, "math.cos", true)                     \
  X(Erf, "math.erf", true)                     \
  X(Tanh, "math.tanh", true)                   \
  X(Floor, "math.floor", true)                 \
  X(Ceil, "math.ceil", true)                   \
  X(AbsF, "math.absf", true)                   \
  X(AbsI, "math.absi", true)                   \
  X(Fma, "math.fma", true)                     \
  X(ExtIntrinsic, "mtia.intrinsic", true)      \
  X(AsyncCopy, "mtia.async_copy", false)       \
  X(AsyncWait, "mtia.wait", false)             \
  X(MulHiUI, "tt.mulhiui", true)               \
  X(ExtSI, "arith.extsi", true)                \
  X(ExtUI, "arith.extui", true)                \
  X(TruncI, "arith.trunci", true)              \
  X(SIToFP, "arith.sitofp", true)              \
  X(UIToFP, "arith.uitofp", true)              \
  X(FPToSI, "arith.fptosi", true)              \
  X(FPToUI, "arith.fptoui", true)              \
  X(ExtF, "arith.extf", true)                  \
  X(TruncF, "arith.truncf", true)              \
  X(Bitcast, "tt.bitcast", true)               \
  X(IntToPtr, "tt.int_to_ptr", true)           \
  X(PtrToInt, "tt.ptr_to_int", true)           \
  X(Reduce, "tt.reduce", true)                 \
  X(ReduceReturn, "tt.reduce.return", true)    \
  X(Scan, "tt.scan", true)                     \
  X(ScanReturn, "tt.scan.return", true)        \
  X(Dot, "tt.dot", true)                       \
  X(AtomicRMW, "tt.atomic_rmw", false)         \
  X(AtomicCAS, "tt.atomic_cas", false)         \
  X(MakeTensorPtr, "tt.make_tensor_ptr", true) \
  X(Advance, "tt.advance", true)               \
  X(For, "scf.for", false)                     \
  X(If, "scf.if", false)                       \
  X(While, "scf.while", false)                 \
  X(Condition, "scf.condition", false)         \
  X(Yield, "scf.yield", false)                 \
  X(Call, "tt.call", false)                    \
  X(Return, "tt.return", false)                \
  X(Print, "tt.print", false)                  \
  X(Assert, "tt.assert", false)                \
  X(Barrier, "gpu.barrier", false)

enum class OpKind : uint16_t {
#define OPFORGE_X(e, n, p) e,
  OPFORGE_TTIR_OPS(OPFORGE_X)
#undef OPFORGE_X
};

std::string_view op_name(OpKind k);
std::optional<OpKind> op_kind_from_name(std::string_view name);
// No side effects and no regions with effects: may be CSE'd, hoisted, removed.
bool op_is_pure(OpKind k);
bool op_is_terminator(OpKind k);
bool op_is_commutative(OpKind k);

struct Location {
  std::string file;
  int line = 0;
  int col = 0;
};

using Attr = std::variant<int64_t, double, bool, std::string, std::vector<int64_t>>;
std::string attr_str(const Attr &a);

class Operation;
class Block;

struct Value {
  Type type;
  Operation *def = nullptr;  // defining operation; null for block arguments
  Block *owner = nullptr;    // block whose argument this is (block args only)
  int index = 0;             // result or argument index
  std::string name;          // printing hint (function arguments)
  int id = -1;               // dense number, assigned by Function::number_values
};

class Block {
 public:
  std::vector<std::unique_ptr<Value>> args;
  std::vector<std::unique_ptr<Operation>> ops;
  Operation *parent = nullptr;  // region owner; null for a function body

  Value *add_arg(Type t, std::string name = {});
  Value *arg(size_t i) const { return args[i].get(); }
  Operation *terminator() const;
};

class Operation {
 public:
  OpKind kind;
  std::vector<Value *> operands;
  std::vector<std::unique_ptr<Value>> results;
  std::map<std::string, Attr> attrs;
  std::vector<std::unique_ptr<Block>> regions;
  Block *parent = nullptr;
  Location loc;

  explicit Operation(OpKind k) : kind(k) {}
  Value *result(size_t i = 0) const { return results[i].get(); }
  Value *add_result(Type t);
  Block *add_region();

  bool has_attr(const std::string &n) const { return attrs.count(n) != 0; }
  int64_t int_attr(const std::string &n) const;
  double float_attr(const std::string &n) const;  // also accepts ints
  bool bool_attr(const std::string &n, bool dflt = false) const;
  const std::string &str_attr(const std::string &n) const;
  const std::vector<int64_t> &ints_attr(const std::string &n) const;
  // "arith.addi" at file:line:col - for error messages.
  std::string describe() const;
};

class Function {
 public:
  std::string name;
  std::vector<Type> result_types;
  std::unique_ptr<Block> body = std::make_unique<Block>();
  Location loc;

  // Assign dense ids to every value (args, results, region args); returns count.
  int number_values();
};

class Module {
 public:
  std::vector<std::unique_ptr<Function>> functions;
  Function *find(std::string_view name) const;
  Function *add_function(std::string name);
};

// Walk every operation (pre-order: an op before the ops in its regions).
template <typename F>
void walk_block(Block &b, F &&f);
template <typename F>
void walk_op(Operation &op, F &&f) {
  f(op);
  for (auto &r : op.regions) walk_block(*r, f);
}
template <typename F>
void walk_block(Block &b, F &&f) {
  for (size_t i = 0; i < b.ops.size(); ++i) walk_op(*b.ops[i], f);
}

// Replace every use of each key by its mapped value, inside block b (recursively).
void replace_uses(Block &b, const std::map<Value *, Value *> &map);
// Deep-copy an operation (its regions too); operands found in `map` are
// remapped and new results/region args are added to `map`.
std::unique_ptr<Operation> clone_op(const Operation &op, std::map<Value *, Value *> &map);
// Number of uses of every value inside a block (recursively).
std::map<const Value *, int> count_uses(Block &b);

// Verify structure, types, shapes and dominance; throws opforge::Error naming
// the function, the operation and its location.
void verify(const Module &m);
void verify(const Function &f);

}  // namespace opforge::ttir
