//===- llir_scan.cpp - tt.scan (tl.cumsum, tl.cumprod, tl.associative_scan) ===//
//
// A scan is planned as one buffer per result. For every position of the
// dimensions other than the scan axis, a loop walks the axis (backwards for
// reverse scans) and applies the combine region to the running value and the
// next element, in the same order as the IR interpreter, so results are
// bit-identical to it for any combine function. When the axis is not the
// innermost dimension the element loop over the inner dimensions sits inside
// the axis loop and vectorizes.
//
//===----------------------------------------------------------------------===//
#include "llir_emitter.h"

namespace opforge::compiler::llir {

std::vector<std::string> Emitter::scan_combine(const ttir::Block &region,
                                               const std::vector<std::string> &args) {
  for (size_t k = 0; k < args.size(); ++k) scalars_[region.arg(k)] = args[k];
  for (auto &o : region.ops) {
    if (o->kind == OpKind::ScanReturn) {
      std::vector<std::string> out;
      for (auto *v : o->operands) out.push_back(scalar(v));
      return out;
    }
    emit_op(*o);
  }
  throw Error("codegen: scan combine region without tt.scan.return");
}

void Emitter::scan(const Operation &op) {
  size_t n = op.operands.size();
  int64_t axis = op.int_attr("axis");
  bool reverse = op.bool_attr("reverse");
  const auto &shape = op.operands[0]->type.shape;
  int64_t len = shape[axis];
  const ttir::Block &region = *op.regions[0];
  std::vector<std::string> bufs(n);
  for (size_t j = 0; j < n; ++j) bufs[j] = buffer_for(op.result(j));
  // Outer dimensions (before the axis) and inner ones (after it).
  std::vector<int64_t> outer(shape.begin(), shape.begin() + axis);
  std::vector<int64_t> inner(shape.begin() + axis + 1, shape.end());
  auto at = [&](const Idx &o, const std::string &k, const Idx &i) {
    Idx s = o;
    s.push_back(k);
    s.insert(s.end(), i.begin(), i.end());
    return s;
  };
  auto first = std::to_string(reverse ? len - 1 : 0);
  auto one = [&](const Idx &oidx) {
    // Position `first` is the input itself.
    loop_nest(inner, [&](const Idx &iidx) {
      for (size_t j = 0; j < n; ++j)
        buf_store(op.result(j), bufs[j], at(oidx, first, iidx),
                  elem(op.operands[j], at(oidx, first, iidx)));
    });
    loop(1, len, [&](const std::string &k) {
      std::string pos = reverse ? emit("sub i64 " + std::to_string(len - 1) + ", " + k) : k;
      std::string prev = emit(std::string(reverse ? "add" : "sub") + " i64 " + pos + ", 1");
      loop_nest(inner, [&](const Idx &iidx) {
        std::vector<std::string> args;
        for (size_t j = 0; j < n; ++j)
          args.push_back(buf_load(op.result(j), bufs[j], at(oidx, prev, iidx)));
        for (size_t j = 0; j < n; ++j) args.push_back(elem(op.operands[j], at(oidx, pos, iidx)));
        auto r = scan_combine(region, args);
        for (size_t j = 0; j < n; ++j) buf_store(op.result(j), bufs[j], at(oidx, pos, iidx), r[j]);
      });
    });
  };
  loop_nest(outer, one);
}

}  // namespace opforge::compiler::llir
