//===- inductor_run_configs.h - launch an Inductor kernel text per candidate config ===//
//
// Shared by inductor_kernels_test.cpp and inductor_helpers_test.cpp: the kernel of a
// source in TorchInductor's form, launched on the IR interpreter once per candidate
// config of inductor_configs(), on inductor_grid(), with tensors and scalars given by
// parameter name.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "opforge/compiler/inductor_heuristics.h"
#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/parser.h"

namespace opforge::compiler::test {

struct Launch {
  InductorConfig config;
  std::map<std::string, HostTensor> out;  // every tensor argument after the launch
};

// Launches the kernel of `source` with `tensors` and `scalars` (by parameter name) on
// the interpreter, once per candidate config of inductor_configs().
inline std::vector<Launch> run_configs(const std::string &source,
                                       const std::map<std::string, HostTensor> &tensors,
                                       const std::map<std::string, int64_t> &scalars) {
  auto module = std::make_shared<ast::Module>(parse_source("kernel.py", source));
  InductorKernelInfo info = read_inductor_kernel(*module);
  const ast::FunctionDef *fn = module->function(info.kernel);
  std::vector<Launch> launches;
  for (const InductorConfig &config : inductor_configs(info, InductorTarget{})) {
    InterpExecutor ex{Knobs{}};
    LaunchRequest req;
    req.kernel = info.kernel;
    req.function = fn;
    req.module = module.get();
    std::map<std::string, TensorHandle> handles;
    for (auto &p : fn->params.params) {
      LaunchArg a;
      a.name = p.name;
      if (auto t = tensors.find(p.name); t != tensors.end()) {
        TensorHandle h;
        h.buffer = ex.allocate(std::max<int64_t>(1, t->second.numel() * t->second.element_size()));
        h.dtype = t->second.dtype();
        h.sizes = t->second.sizes();
        h.strides = HostTensor::contiguous_strides(h.sizes);
        ex.copy_in(h, t->second);
        handles[p.name] = h;
        a.kind = LaunchArg::Kind::Tensor;
        a.tensor = h;
      } else if (auto s = scalars.find(p.name); s != scalars.end()) {
        a.kind = LaunchArg::Kind::Int;
        a.int_value = s->second;
      } else if (auto b = config.get(p.name)) {
        a.kind = LaunchArg::Kind::Int;
        a.int_value = *b;
        a.is_constexpr = true;
      } else {
        ADD_FAILURE() << "no value for parameter " << p.name;
      }
      req.args.push_back(a);
    }
    auto grid = inductor_grid(info, config, scalars);
    req.grid = {grid[0], grid[1], grid[2]};
    ex.launch(req);
    Launch l{config, {}};
    for (auto &[name, h] : handles) l.out[name] = ex.copy_out(h);
    launches.push_back(std::move(l));
  }
  return launches;
}

}  // namespace opforge::compiler::test
