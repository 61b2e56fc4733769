//===- extension_expr.h - the semantics expressions of extension files ----===//
//
// The expression language of an extension instruction's `semantics` line
// (docs/isa/extensions.md): the element names x and y, numeric literals,
// + - * / and unary minus, parentheses, and the helpers
//   exp log tanh erf sin cos rsqrt recip   (the SFU, at mtia.sfu_prec)
//   sqrt(a) fma(a, b, c) min(a, b) max(a, b) abs(a) round_p(a, BITS)
// evaluated in fp32, each operation rounded to nearest even, NaN results
// canonical (0x7fc00000).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "opforge/isa/accel_if.h"
#include "opforge/isa/extension.h"

namespace opforge::isa {

struct ExtExpr {
  enum class Op : uint8_t {
    Const,
    X,
    Y,
    Neg,
    Add,
    Sub,
    Mul,
    Div,
    Sfu,
    Sqrt,
    Fma,
    Min,
    Max,
    Abs,
    RoundP
  };
  struct Node {
    Op op = Op::Const;
    SfuFunc fn = SfuFunc::Exp;   // Sfu
    float value = 0;             // Const
    unsigned bits = 0;           // RoundP: mantissa bits
    int a = -1, b = -1, c = -1;  // operand nodes
  };
  std::vector<Node> nodes;  // operands before the nodes that use them
  int root = -1;
  bool uses_y = false;
  bool uses_sfu = false;
};

// Parse an expression. A syntax error or an unknown name throws
// opforge::Error whose context column is the 1-based offset in `text`.
std::shared_ptr<const ExtExpr> parse_ext_expr(std::string_view text);

// The helper names the language knows, for messages and documentation.
const std::vector<std::string_view> &ext_expr_helpers();

}  // namespace opforge::isa
