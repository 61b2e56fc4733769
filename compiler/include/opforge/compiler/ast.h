//===- ast.h - syntax tree of the Python subset Triton kernels use ---------===//
//
// The parser (parser.h) turns a Triton source file into an ast::Module. The
// tree mirrors Python's own `ast` module (same node names, same fields) so
// that anyone who knows Python's ast or Triton's code generator can walk it.
//
// Shape of the tree
// -----------------
// * Two node families: `Expr` and `Stmt`. Each node is a struct deriving
//   from one of them and carrying a `kind` tag (ExprKind / StmtKind), so a
//   walker either switches on `kind` and uses `as<T>()` / `cast<T>()`, or
//   calls the generic `for_each_child` helpers below.
// * Children are owned through `ExprPtr` / `StmtPtr` (std::unique_ptr);
//   optional children are null pointers. The tree is immutable once parsed;
//   pointers to its nodes stay valid as long as the Module lives.
// * Every node has a `loc` (1-based line and column of its first character,
//   and the line/column one past its last character). Positions match
//   CPython's ast (col_offset + 1); a decorated FunctionDef starts at `def`.
//
// Expression nodes (Python name in brackets where it differs):
//   Name{id}                     x
//   Constant{value}              1, 2.5, 'str', True, None, ...  (ConstValue)
//   FString{parts}               f"n={n}"  [JoinedStr]; literal parts and
//                                expressions with conversion/format spec
//   Attribute{value, attr}       tl.arange
//   Subscript{value, index}      x[:, None]; index is a Tuple for a[i, j]
//   Slice{lower, upper, step}    1:3 (only as a Subscript index or in its Tuple)
//   Call{func, args, keywords}   f(a, *b, k=c, **d); *b is a Starred arg,
//                                **d a Keyword with an empty name
//   BinOp{op, left, right}       a + b
//   UnaryOp{op, operand}         -a, not a, ~a
//   BoolOp{op, values}           a and b and c
//   Compare{left, ops, comparators}  a < b <= c
//   IfExp{test, body, orelse}    a if c else b
//   Lambda{params, body}         lambda meta: (...)
//   Tuple{elts}, List{elts}, Set{elts}, Dict{keys, values} (a null key = **d)
//   Comprehension{comp, elt, value, generators}  [ListComp/GeneratorExp/
//                                SetComp/DictComp]; `value` only for dicts
//   Starred{value}               *args in a call, list, tuple or target
//
// Statement nodes:
//   FunctionDef{name, params, decorators, returns, body, docstring}
//   ExprStmt{value}              [Expr]
//   Assign{targets, value}       a = b = value; targets may be Tuple/List
//   AnnAssign{target, annotation, value?}
//   AugAssign{target, op, value} a += 1
//   If{test, body, orelse}       elif chains are an If inside orelse
//   For{target, iter, body, orelse}
//   While{test, body, orelse}
//   Break, Continue, Pass
//   Return{value?}, Assert{test, msg?}, Raise{exc?, cause?}
//   Import{names}, ImportFrom{module, names, level}
//
// Not part of the subset (the parser reports an error naming the construct):
// class, try, with, global, nonlocal, del, yield, await/async, walrus,
// decorators on anything but functions, complex literals, bytes literals.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace opforge::compiler {

class SourceFile;  // diagnostics.h

// A source range: first character (line, col) and one past the last
// character (end_line, end_col). Lines and columns are 1-based; columns
// count bytes. A default SourceLoc (line 0) means "unknown".
struct SourceLoc {
  int line = 0;
  int col = 0;
  int end_line = 0;
  int end_col = 0;
  bool known() const { return line > 0; }
};

namespace ast {

struct Expr;
struct Stmt;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

// ---------------------------------------------------------------------------
// Operators
// ---------------------------------------------------------------------------
enum class BinOpKind {
  Add,
  Sub,
  Mult,
  MatMult,
  Div,
  FloorDiv,
  Mod,
  Pow,
  LShift,
  RShift,
  BitOr,
  BitXor,
  BitAnd
};
enum class UnaryOpKind { UAdd, USub, Not, Invert };
enum class BoolOpKind { And, Or };
enum class CmpOpKind { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

// Python spelling: "+", "//", "not", "is not", ...
std::string_view op_symbol(BinOpKind op);
std::string_view op_symbol(UnaryOpKind op);
std::string_view op_symbol(BoolOpKind op);
std::string_view op_symbol(CmpOpKind op);
// Python ast class names: "Add", "FloorDiv", "USub", "NotIn", ...
std::string_view op_name(BinOpKind op);
std::string_view op_name(UnaryOpKind op);
std::string_view op_name(BoolOpKind op);
std::string_view op_name(CmpOpKind op);

// ---------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------
struct NoneValue {
  bool operator==(const NoneValue &) const = default;
};
struct EllipsisValue {
  bool operator==(const EllipsisValue &) const = default;
};
// The value of a literal. Integers that do not fit int64 but fit uint64
// (e.g. 0xFFFFFFFFFFFFFFFF) are stored wrapped with `big_unsigned` set on the
// Constant node; larger literals are a parse error.
using ConstValue = std::variant<NoneValue, bool, int64_t, double, std::string, EllipsisValue>;

// ---------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------
enum class ExprKind {
  Name,
  Constant,
  FString,
  Attribute,
  Subscript,
  Slice,
  Call,
  BinOp,
  UnaryOp,
  BoolOp,
  Compare,
  IfExp,
  Lambda,
  Tuple,
  List,
  Set,
  Dict,
  Comprehension,
  Starred,
};
std::string_view expr_kind_name(ExprKind k);

struct Expr {
  explicit Expr(ExprKind k, SourceLoc l = {}) : kind(k), loc(l) {}
  virtual ~Expr() = default;
  Expr(const Expr &) = delete;
  Expr &operator=(const Expr &) = delete;

  const ExprKind kind;
  SourceLoc loc;

  template <class T>
  const T *as() const {
    return kind == T::kKind ? static_cast<const T *>(this) : nullptr;
  }
  template <class T>
  T *as() {
    return kind == T::kKind ? static_cast<T *>(this) : nullptr;
  }
  template <class T>
  const T &cast() const {
    return *static_cast<const T *>(this);
  }
  template <class T>
  bool is() const {
    return kind == T::kKind;
  }
};

// Function parameters (for `def` and `lambda`).
enum class ParamKind {
  Positional,  // a, b=1 (before any `*`)
  VarArgs,     // *args
  KwOnly,      // after `*` or `*args`
  VarKw,       // **kwargs
};
struct Param {
  std::string name;
  ParamKind kind = ParamKind::Positional;
  ExprPtr annotation;     // `x: tl.constexpr` -> Attribute(tl, constexpr); may be null
  ExprPtr default_value;  // may be null
  SourceLoc loc;
};
struct Parameters {
  std::vector<Param> params;  // in source order
  // Index of a parameter by name, or -1.
  int find(std::string_view name) const;
};

struct Name : Expr {
  static constexpr ExprKind kKind = ExprKind::Name;
  Name() : Expr(kKind) {}
  std::string id;
};

struct Constant : Expr {
  static constexpr ExprKind kKind = ExprKind::Constant;
  Constant() : Expr(kKind) {}
  ConstValue value;
  bool big_unsigned = false;  // integer literal in [2^63, 2^64), stored wrapped

  bool is_none() const { return std::holds_alternative<NoneValue>(value); }
  bool is_bool() const { return std::holds_alternative<bool>(value); }
  bool is_int() const { return std::holds_alternative<int64_t>(value); }
  bool is_float() const { return std::holds_alternative<double>(value); }
  bool is_str() const { return std::holds_alternative<std::string>(value); }
};

struct FStringPart {
  std::string literal;      // literal text (already unescaped) when expr is null
  ExprPtr expr;             // {expr}
  char conversion = 0;      // 'r', 's', 'a' for {x!r}; 0 when absent
  std::string format_spec;  // the text after ':' (nested fields kept as text)
};
struct FString : Expr {
  static constexpr ExprKind kKind = ExprKind::FString;
  FString() : Expr(kKind) {}
  std::vector<FStringPart> parts;
};

struct Attribute : Expr {
  static constexpr ExprKind kKind = ExprKind::Attribute;
  Attribute() : Expr(kKind) {}
  ExprPtr value;
  std::string attr;
  SourceLoc attr_loc;  // location of the attribute name
};

struct Subscript : Expr {
  static constexpr ExprKind kKind = ExprKind::Subscript;
  Subscript() : Expr(kKind) {}
  ExprPtr value;
  ExprPtr index;  // a single expr, a Slice, or a Tuple of them (x[:, None])
};

struct Slice : Expr {
  static constexpr ExprKind kKind = ExprKind::Slice;
  Slice() : Expr(kKind) {}
  ExprPtr lower, upper, step;  // each may be null
};

struct Keyword {
  std::string name;  // empty for **kwargs
  ExprPtr value;
  SourceLoc loc;
};
struct Call : Expr {
  static constexpr ExprKind kKind = ExprKind::Call;
  Call() : Expr(kKind) {}
  ExprPtr func;
  std::vector<ExprPtr> args;  // may contain Starred for *args
  std::vector<Keyword> keywords;
  // The keyword named `name`, or nullptr.
  const Keyword *keyword(std::string_view name) const;
};

struct BinOp : Expr {
  static constexpr ExprKind kKind = ExprKind::BinOp;
  BinOp() : Expr(kKind) {}
  BinOpKind op = BinOpKind::Add;
  ExprPtr left, right;
};

struct UnaryOp : Expr {
  static constexpr ExprKind kKind = ExprKind::UnaryOp;
  UnaryOp() : Expr(kKind) {}
  UnaryOpKind op = UnaryOpKind::USub;
  ExprPtr operand;
};

struct BoolOp : Expr {
  static constexpr ExprKind kKind = ExprKind::BoolOp;
  BoolOp() : Expr(kKind) {}
  BoolOpKind op = BoolOpKind::And;
  std::vector<ExprPtr> values;  // two or more
};

struct Compare : Expr {
  static constexpr ExprKind kKind = ExprKind::Compare;
  Compare() : Expr(kKind) {}
  ExprPtr left;
  std::vector<CmpOpKind> ops;
  std::vector<ExprPtr> comparators;  // same length as ops
};

struct IfExp : Expr {
  static constexpr ExprKind kKind = ExprKind::IfExp;
  IfExp() : Expr(kKind) {}
  ExprPtr test, body, orelse;
};

struct Lambda : Expr {
  static constexpr ExprKind kKind = ExprKind::Lambda;
  Lambda() : Expr(kKind) {}
  Parameters params;
  ExprPtr body;
};

struct Tuple : Expr {
  static constexpr ExprKind kKind = ExprKind::Tuple;
  Tuple() : Expr(kKind) {}
  std::vector<ExprPtr> elts;
};
struct List : Expr {
  static constexpr ExprKind kKind = ExprKind::List;
  List() : Expr(kKind) {}
  std::vector<ExprPtr> elts;
};
struct Set : Expr {
  static constexpr ExprKind kKind = ExprKind::Set;
  Set() : Expr(kKind) {}
  std::vector<ExprPtr> elts;
};
struct Dict : Expr {
  static constexpr ExprKind kKind = ExprKind::Dict;
  Dict() : Expr(kKind) {}
  std::vector<ExprPtr> keys;  // a null key means `**values[i]`
  std::vector<ExprPtr> values;
};

enum class CompKind { List, Generator, Set, Dict };
struct CompFor {
  ExprPtr target;  // Name or Tuple of names
  ExprPtr iter;
  std::vector<ExprPtr> ifs;
};
struct Comprehension : Expr {
  static constexpr ExprKind kKind = ExprKind::Comprehension;
  Comprehension() : Expr(kKind) {}
  CompKind comp = CompKind::List;
  ExprPtr elt;    // the element (the key for a dict comprehension)
  ExprPtr value;  // the value of a dict comprehension; null otherwise
  std::vector<CompFor> generators;
};

struct Starred : Expr {
  static constexpr ExprKind kKind = ExprKind::Starred;
  Starred() : Expr(kKind) {}
  ExprPtr value;
};

// ---------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------
enum class StmtKind {
  FunctionDef,
  ExprStmt,
  Assign,
  AnnAssign,
  AugAssign,
  If,
  For,
  While,
  Break,
  Continue,
  Pass,
  Return,
  Assert,
  Raise,
  Import,
  ImportFrom,
};
std::string_view stmt_kind_name(StmtKind k);

struct Stmt {
  explicit Stmt(StmtKind k, SourceLoc l = {}) : kind(k), loc(l) {}
  virtual ~Stmt() = default;
  Stmt(const Stmt &) = delete;
  Stmt &operator=(const Stmt &) = delete;

  const StmtKind kind;
  SourceLoc loc;

  template <class T>
  const T *as() const {
    return kind == T::kKind ? static_cast<const T *>(this) : nullptr;
  }
  template <class T>
  T *as() {
    return kind == T::kKind ? static_cast<T *>(this) : nullptr;
  }
  template <class T>
  const T &cast() const {
    return *static_cast<const T *>(this);
  }
  template <class T>
  bool is() const {
    return kind == T::kKind;
  }
};

struct FunctionDef : Stmt {
  static constexpr StmtKind kKind = StmtKind::FunctionDef;
  FunctionDef() : Stmt(kKind) {}
  std::string name;
  SourceLoc name_loc;
  Parameters params;
  std::vector<ExprPtr> decorators;  // in source order, without the '@'
  ExprPtr returns;                  // `-> T` annotation, may be null
  StmtList body;                    // the docstring statement is removed from body
  std::string docstring;            // empty when absent

  // True when a decorator is `triton.jit`, `triton.jit(...)`, `jit` or `jit(...)`.
  bool is_jit() const;
  // The decorator whose callee (or itself) spells `dotted` ("triton.autotune",
  // "triton.heuristics", "triton.jit"), or nullptr.
  const Expr *decorator(std::string_view dotted) const;
};

struct ExprStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::ExprStmt;
  ExprStmt() : Stmt(kKind) {}
  ExprPtr value;
};

struct Assign : Stmt {
  static constexpr StmtKind kKind = StmtKind::Assign;
  Assign() : Stmt(kKind) {}
  std::vector<ExprPtr> targets;  // `a = b = v` has two targets
  ExprPtr value;
};

struct AnnAssign : Stmt {
  static constexpr StmtKind kKind = StmtKind::AnnAssign;
  AnnAssign() : Stmt(kKind) {}
  ExprPtr target, annotation, value;  // value may be null
};

struct AugAssign : Stmt {
  static constexpr StmtKind kKind = StmtKind::AugAssign;
  AugAssign() : Stmt(kKind) {}
  ExprPtr target;
  BinOpKind op = BinOpKind::Add;
  ExprPtr value;
};

struct If : Stmt {
  static constexpr StmtKind kKind = StmtKind::If;
  If() : Stmt(kKind) {}
  ExprPtr test;
  StmtList body, orelse;
};

struct For : Stmt {
  static constexpr StmtKind kKind = StmtKind::For;
  For() : Stmt(kKind) {}
  ExprPtr target, iter;
  StmtList body, orelse;
};

struct While : Stmt {
  static constexpr StmtKind kKind = StmtKind::While;
  While() : Stmt(kKind) {}
  ExprPtr test;
  StmtList body, orelse;
};

struct Break : Stmt {
  static constexpr StmtKind kKind = StmtKind::Break;
  Break() : Stmt(kKind) {}
};
struct Continue : Stmt {
  static constexpr StmtKind kKind = StmtKind::Continue;
  Continue() : Stmt(kKind) {}
};
struct Pass : Stmt {
  static constexpr StmtKind kKind = StmtKind::Pass;
  Pass() : Stmt(kKind) {}
};

struct Return : Stmt {
  static constexpr StmtKind kKind = StmtKind::Return;
  Return() : Stmt(kKind) {}
  ExprPtr value;  // may be null
};

struct Assert : Stmt {
  static constexpr StmtKind kKind = StmtKind::Assert;
  Assert() : Stmt(kKind) {}
  ExprPtr test, msg;  // msg may be null
};

struct Raise : Stmt {
  static constexpr StmtKind kKind = StmtKind::Raise;
  Raise() : Stmt(kKind) {}
  ExprPtr exc, cause;  // both may be null
};

struct ImportAlias {
  std::string name;    // dotted: "triton.language"
  std::string asname;  // empty when no `as`
  SourceLoc loc;
};
struct Import : Stmt {
  static constexpr StmtKind kKind = StmtKind::Import;
  Import() : Stmt(kKind) {}
  std::vector<ImportAlias> names;
};
struct ImportFrom : Stmt {
  static constexpr StmtKind kKind = StmtKind::ImportFrom;
  ImportFrom() : Stmt(kKind) {}
  std::string module;              // dotted; empty for `from . import x`
  int level = 0;                   // number of leading dots
  std::vector<ImportAlias> names;  // name "*" for `import *`
};

// ---------------------------------------------------------------------------
// Module
// ---------------------------------------------------------------------------
struct Module {
  std::string file;  // path as given to the parser (for diagnostics)
  // The source text with its line index; build CompileError::at(*source, loc, msg)
  // from it to report an error at a node.
  std::shared_ptr<const SourceFile> source;
  StmtList body;
  std::string docstring;  // module docstring, removed from body

  // Top-level function named `name` (the last `def` of that name, as Python binds it), or nullptr.
  const FunctionDef *function(std::string_view name) const;
  // Top-level functions in source order.
  std::vector<const FunctionDef *> functions() const;
  std::vector<const FunctionDef *> jit_functions() const;
  // Top-level functions that are not @triton.jit (host wrappers).
  std::vector<const FunctionDef *> wrapper_functions() const;
};

// ---------------------------------------------------------------------------
// Walking
// ---------------------------------------------------------------------------
// Calls fn on each direct child expression of e (in source order, skipping
// null children). Lambda parameter defaults/annotations are children.
void for_each_child(const Expr &e, const std::function<void(const Expr &)> &fn);
// Calls on_expr on each direct child expression and on_stmt on each direct
// child statement of s (decorators, annotations and defaults included).
void for_each_child(const Stmt &s, const std::function<void(const Expr &)> &on_expr,
                    const std::function<void(const Stmt &)> &on_stmt);
// Pre-order walk over every expression under e (including e).
void walk(const Expr &e, const std::function<void(const Expr &)> &fn);
// Pre-order walk over every statement and expression under s (including s).
void walk(const Stmt &s, const std::function<void(const Expr &)> &on_expr,
          const std::function<void(const Stmt &)> &on_stmt);

// "triton.language.arange" for Attribute(Attribute(Name(triton), language), arange),
// "x" for Name(x); empty for anything else.
std::string dotted_name(const Expr &e);

// Python-like source text of an expression ("tl.arange(0, BLOCK)[:, None]").
std::string unparse(const Expr &e);

// Indented tree dump used by `opforge compile --dump ast`: one node per line,
// "Kind field=value @line:col", children indented by two spaces.
std::string dump_ast(const Module &m);
std::string dump_ast(const Stmt &s, int indent = 0);
std::string dump_ast(const Expr &e, int indent = 0);

}  // namespace ast
}  // namespace opforge::compiler
