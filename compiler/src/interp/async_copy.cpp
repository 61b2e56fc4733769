//===- async_copy.cpp - interpreter: mtia.async_copy / mtia.wait, tt.print text ===//
//
// The interpreter makes an async copy when it is issued (the chip's DMA reads
// the source some time before the wait; a kernel must not write the source
// in between, docs/compiler/mtia-extensions.md). Like the chip, each call
// site has a ring of kAsyncRing local buffers: copy k of a call site lands in
// buffer k % kAsyncRing, so its token is valid until the site issued
// kAsyncRing more copies. Waiting on a token whose buffer was reused is an
// error here (on the chip it would return the newer copy's block).
//
//===----------------------------------------------------------------------===//
#include <sstream>

#include "opforge/support/error.h"
#include "runtime.h"

namespace opforge::ttir::interp {

int64_t AsyncCopies::issue(const Operation &op, RV data) {
  copies_.push_back(Copy{&op, site_count_[&op]++});
  const auto token = static_cast<int64_t>(copies_.size());  // tokens are 1, 2, ...
  data_[token] = std::move(data);
  auto &live = live_[&op];
  live.push_back(token);
  if (static_cast<int64_t>(live.size()) > kAsyncRing) {  // the oldest buffer is reused
    data_.erase(live.front());
    live.erase(live.begin());
  }
  return token;
}

const RV &AsyncCopies::wait(int64_t token) const {
  if (token < 1 || token > static_cast<int64_t>(copies_.size()))
    throw Error("mtia.wait: " + std::to_string(token) + " is not a token of this kernel");
  if (auto d = data_.find(token); d != data_.end()) return d->second;
  const Copy &c = copies_[static_cast<size_t>(token - 1)];
  const int64_t later = site_count_.at(c.site) - 1 - c.index;
  std::ostringstream os;
  os << "the token's local buffer was reused: the async_copy at line " << c.site->loc.line
     << " issued " << later << " more copies after it (each call site has " << kAsyncRing
     << " local buffers: wait for a copy before the site issues " << kAsyncRing << " more)";
  throw Error(os.str());
}

std::vector<std::string> print_lines(const Operation &op, const std::array<int64_t, 3> &pid,
                                     const std::vector<const RV *> &in) {
  std::vector<std::string> lines;
  std::string prefix = op.has_attr("prefix") ? op.str_attr("prefix") : "";
  bool hex = op.bool_attr("hex");
  std::ostringstream head;
  head << "pid (" << pid[0] << ", " << pid[1] << ", " << pid[2] << ")";
  if (op.operands.empty()) return {head.str() + " " + prefix};
  for (size_t a = 0; a < op.operands.size(); ++a) {
    const RV &v = *in[a];
    const Type &t = op.operands[a]->type;
    for (size_t k = 0; k < v.size(); ++k) {
      std::ostringstream os;
      os << head.str();
      if (t.is_block()) os << " idx (" << k << ")";
      os << " " << prefix;
      if (op.operands.size() > 1) os << " (operand " << a << ")";
      os << " ";
      if (v.is_float)
        os << v.f[k];
      else if (hex)
        os << "0x" << std::hex << as_unsigned(t.elem, v.i[k]);
      else
        os << v.i[k];
      lines.push_back(os.str());
    }
  }
  return lines;
}

}  // namespace opforge::ttir::interp
