//===- harness_run.cpp - `opforge run`: one wrapper call on the chip, optionally checked ===//
#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/parser.h"
#include "opforge/harness/aten_call.h"
#include "opforge/harness/cli.h"
#include "opforge/harness/oracle.h"
#include "opforge/harness/validate.h"
#include "opforge/harness/verifier.h"
#include "opforge/support/error.h"
#include "options.h"
#ifdef OPFORGE_HAVE_CHIP
#include "opforge/compiler/chip_executor.h"
#include "opforge/model/device.h"
#endif

namespace opforge::cli {
namespace {

constexpr const char *kUsage =
    "usage: opforge run FILE.py --call 'WRAPPER(ARGS)' [--arch tiny|mtia-2i|FILE] [--set K=V]...\n"
    "                   [--timing functional|lt] [--seed N] [--check aten::OVERLOAD]\n"
    "                   [--executor chip|interp] [--counters N]\n"
    "                   [--autotune-report] [--autotune-cache DIR|none]\n\n"
    "Runs a wrapper of FILE.py on the chip model (its kernels compiled to RISC-V and launched on\n"
    "the PEs) with arguments written as a Python call expression, e.g.\n"
    "  --call 'add_Tensor(randn(1024, 1024), randn(1024), alpha=2)'\n"
    "Arguments: Python literals, torch.<dtype>, and the tensor factories randn, rand, randint,\n"
    "arange, zeros, ones, full, tensor (dtype=torch.X), drawn from a generator seeded by --seed\n"
    "(default 0); .t(), .transpose(), .permute() and slicing make non-contiguous inputs.\n"
    "Prints the outputs (summarised), the kernel launches, cycles and the top counters.\n"
    "--check runs the same call through ATen (the libtorch oracle) in its dtype and, for "
    "floating-point\n"
    "inputs, on float64-upcast inputs rounded back to the output dtype; it prints the errors "
    "against\n"
    "both and passes an element within torch.testing.assert_close tolerance of either\n"
    "(docs/verification.md); exit status 1 on a mismatch.\n"
    "@triton.autotune kernels are tuned on the first launch of each key: every config is\n"
    "launched and timed in simulated cycles (trial launches are not in the cycle total), the\n"
    "best is kept in --autotune-cache (default $XDG_CACHE_HOME/opforge/autotune, else\n"
    "~/.cache/opforge/autotune; none: memory only); --autotune-report prints each kernel and\n"
    "key's configs with cycles or skip reason, the winner and whether it came from the cache\n"
    "(docs/compiler/wrapper.md, Autotuning).\n\n"
    "       opforge run FILE.py --corpus-call aten::OVERLOAD[:DTYPE[:INDEX]] [--corpus FILE]\n"
    "                   [--arch ...] [--set K=V]... [--timing ...] [--executor chip|interp]\n\n"
    "Runs recorded OpInfo calls of the corpus (every call of the overload, of one dtype group,\n"
    "or the one call at that index of the group, as `opforge ops show` and `opforge validate`\n"
    "name them) through FILE.py's wrapper for the overload, and judges each against its\n"
    "recorded ATen result exactly as validate, generate and sweeps do (docs/verification.md):\n"
    "one line per call, exit status 1 when any fails.\n";

std::string summarize(const harness::Value &v) {
  if (v.kind != harness::Value::Kind::Tensor) return v.summary();
  const HostTensor &t = v.tensor;
  std::ostringstream os;
  os << v.summary();
  if (t.numel() > 0) {
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    int64_t nans = 0;
    for (int64_t i = 0; i < t.numel(); ++i) {
      double x = t.get_double(i);
      if (std::isnan(x)) {
        ++nans;
        continue;
      }
      lo = std::min(lo, x);
      hi = std::max(hi, x);
      sum += x;
    }
    os << std::setprecision(6) << " min " << lo << " max " << hi << " mean "
       << sum / static_cast<double>(std::max<int64_t>(t.numel() - nans, 1));
    if (nans) os << " nan " << nans;
  }
  os << "\n    " << t.to_string(8);
  return os.str();
}

// Counter deltas summed over launches and over PEs ("pe[3][5].dma.bytes" -> "pe[*].dma.bytes").
std::vector<std::pair<std::string, uint64_t>> top_counters(
    const std::vector<std::vector<std::pair<std::string, uint64_t>>> &deltas, size_t n) {
  static const std::regex pe(R"(^pe\[\d+\]\[\d+\]\.)");
  std::map<std::string, uint64_t> sums;
  for (const auto &d : deltas)
    for (const auto &[name, value] : d) sums[std::regex_replace(name, pe, "pe[*].")] += value;
  std::vector<std::pair<std::string, uint64_t>> out(sums.begin(), sums.end());
  std::stable_sort(out.begin(), out.end(),
                   [](const auto &a, const auto &b) { return a.second > b.second; });
  out.erase(std::remove_if(out.begin(), out.end(), [](const auto &p) { return p.second == 0; }),
            out.end());
  if (out.size() > n) out.resize(n);
  return out;
}

// The arguments the oracle reports as written, read back from our run by schema name.
std::vector<std::pair<std::string, harness::Value>> our_mutated(
    const harness::OracleResult &ref, const std::string &schema,
    const harness::WrapperCallResult &run) {
  auto names = harness::schema_argument_names(schema);
  std::vector<std::pair<std::string, harness::Value>> out;
  for (const auto &[name, value] : ref.mutated) {
    (void)value;
    for (size_t i = 0; i < names.size() && i < run.args_after.size(); ++i)
      if (names[i] == name) out.emplace_back(name, run.args_after[i]);
    for (const auto &[k, v] : run.kwargs_after)
      if (k == name) out.emplace_back(name, v);
  }
  return out;
}

// The dtype a call computes in: its first floating-point tensor argument's, else its first
// tensor's ("" when it has no tensor).
std::string call_dtype(const harness::CallExpression &call) {
  std::string first;
  std::function<bool(const harness::Value &)> visit = [&](const harness::Value &v) {
    if (v.kind == harness::Value::Kind::List) {
      for (const auto &x : v.list)
        if (visit(x)) return true;
      return false;
    }
    if (!v.is_tensor()) return false;
    if (first.empty()) first = dtype_name(v.tensor.dtype());
    if (!dtype_is_float(v.tensor.dtype())) return false;
    first = dtype_name(v.tensor.dtype());
    return true;
  };
  for (const auto &a : call.args)
    if (visit(a)) return first;
  for (const auto &[k, v] : call.kwargs)
    if (visit(v)) return first;
  return first;
}

// Outputs and written arguments side by side ("out", "mutated NAME"), ATen's and ours; an
// argument ATen writes and our run does not is a mismatch of its own.
struct Results {
  std::vector<harness::Value> ours, aten;
  std::vector<std::string> paths;
  harness::Verdict missing;
};
Results results_of(const harness::WrapperCallResult &run, const harness::OracleResult &ref,
                   const std::vector<std::pair<std::string, harness::Value>> &ours_mutated) {
  Results r{{run.out}, {ref.out}, {"out"}, {}};
  for (const auto &[name, value] : ref.mutated) {
    const harness::Value *got = nullptr;
    for (const auto &[n, v] : ours_mutated)
      if (n == name) got = &v;
    if (!got) {
      harness::Mismatch m;
      m.kind = harness::Mismatch::Kind::Structure;
      m.path = "mutated " + name;
      m.message = "the call should have written argument '" + name + "'";
      r.missing.mismatches.push_back(std::move(m));
      continue;
    }
    r.ours.push_back(*got);
    r.aten.push_back(value);
    r.paths.push_back("mutated " + name);
  }
  return r;
}

// ATen's float64 result laid out like Results::aten.
std::vector<harness::Value> float64_values(const harness::OracleResult &r64,
                                           const Results &results) {
  std::vector<harness::Value> out{r64.out};
  for (size_t i = 1; i < results.paths.size(); ++i) {
    const std::string name = results.paths[i].substr(std::string("mutated ").size());
    for (const auto &[n, v] : r64.mutated)
      if (n == name) out.push_back(v);
  }
  return out;
}

void print_errors(const std::vector<harness::Value> &actual,
                  const std::vector<harness::Value> &expected,
                  const std::vector<std::string> &paths, const std::string &against) {
  for (size_t i = 0; i < actual.size() && i < expected.size(); ++i)
    for (const auto &e : harness::tensor_errors(actual[i], expected[i], {}, paths[i]))
      std::cout << "  " << e.path << " " << against << ": max abs error " << std::setprecision(6)
                << e.max_abs_error << ", max rel error " << e.max_rel_error << ", rms error "
                << e.rms_error << ", " << e.mismatched << " of " << e.total
                << " elements outside atol " << e.tolerance.atol << " rtol " << e.tolerance.rtol
                << "\n";
}

// `--check`: the call through ATen in its dtype and, for floating-point inputs, on float64-upcast
// inputs rounded back to the output dtypes; each element must be within tolerance of one of
// the two (docs/verification.md). Returns the exit status.
int check_against_aten(const std::string &overload, const harness::CallExpression &call,
                       const harness::WrapperCallResult &run) {
  const auto &oracle = harness::OraclePlugin::get();
  harness::OracleResult ref = oracle.call(overload, call.args, call.kwargs);
  const Results res = results_of(run, ref, our_mutated(ref, oracle.schema(overload), run));
  const std::string dtype = call_dtype(call);
  const std::string in_dtype = "ATen in " + (dtype.empty() ? std::string("its dtype") : dtype);

  std::optional<harness::Value> float64;  // a List like res.aten
  std::string no_float64;
  harness::Float64Inputs up = harness::upcast_to_float64(call.args, call.kwargs);
  if (!up.any_upcast) {
    no_float64 = "no float64 reference (no floating-point inputs)";
  } else {
    try {
      harness::OracleResult r64 = oracle.call(overload, up.args, up.kwargs);
      float64 = harness::round_like(harness::Value::of_list(float64_values(r64, res)),
                                    harness::Value::of_list(res.aten));
      if (!float64)
        no_float64 = "no float64 reference (on float64 inputs ATen returns another structure)";
    } catch (const Error &e) {
      no_float64 = "no float64 reference (ATen on float64 inputs: " + e.message() + ")";
    }
  }
  print_errors(res.ours, res.aten, res.paths, "vs " + in_dtype);
  if (float64) {
    print_errors(res.ours, float64->list, res.paths, "vs the float64 reference");
    print_errors(res.aten, float64->list, res.paths, "(" + in_dtype + ") vs the float64 reference");
  }

  // The verdict is the one every command gives (aten_call.h): ATen's live result is the
  // expected one, the float64 reference (already computed above) the second look.
  harness::Call expected;
  expected.overload = overload;
  expected.args = call.args;
  expected.kwargs = call.kwargs;
  expected.out = ref.out;
  expected.mutated = ref.mutated;
  harness::CallOutcome actual{run.out, our_mutated(ref, oracle.schema(overload), run)};
  harness::JudgeCallOptions judging;
  if (float64) {
    std::vector<harness::Value> items{float64->list.front()};
    for (const auto &[name, value] : ref.mutated) {
      (void)value;
      for (size_t i = 1; i < res.paths.size(); ++i)
        if (res.paths[i] == "mutated " + name) items.push_back(float64->list[i]);
    }
    if (items.size() == 1 + ref.mutated.size())
      judging.float64_reference = harness::Value::of_list(std::move(items));
  } else {
    judging.aten_reference = false;  // no float64 reference to take a second look with
  }
  const harness::Verdict verdict = harness::judge_aten_call(expected, actual, nullptr, judging);
  const std::string rule =
      float64 ? "each element within tolerance of " + in_dtype +
                    " or of the float64 reference, or the whole tensor's rms error against the "
                    "float64 reference at most " +
                    std::to_string(static_cast<int>(harness::kFloat64RmsMultiplier)) + " x ATen's"
              : "matches " + in_dtype + ", assert_close tolerances; " + no_float64;
  if (verdict.ok()) {
    std::cout << "check " << overload << ": ok (" << rule << ")\n";
    return kExitOk;
  }
  std::cout << "check " << overload << ": MISMATCH (" << rule << ")\n" << verdict.report();
  return kExitFailure;
}

// `--corpus-call OVERLOAD[:DTYPE[:INDEX]]`: recorded calls through the file's wrapper, judged
// by judge_aten_call like every other command. Returns the exit status.
int run_corpus_calls(const std::string &file, const std::string &selector,
                     const std::string &corpus_path, harness::ExecutorKind kind,
                     const harness::ChipOptions &chip) {
  std::string overload = selector, dtype_text, index_text;
  if (auto colon = selector.find(':', selector.find("::") + 2); colon != std::string::npos) {
    overload = selector.substr(0, colon);
    dtype_text = selector.substr(colon + 1);
    if (auto c2 = dtype_text.find(':'); c2 != std::string::npos) {
      index_text = dtype_text.substr(c2 + 1);
      dtype_text.resize(c2);
    }
  }
  if (overload.find("::") == std::string::npos) overload = "aten::" + overload;
  std::optional<DType> dtype;
  if (!dtype_text.empty()) {
    dtype = parse_dtype(dtype_text);
    if (!dtype) return usage_error("run", "--corpus-call: unknown dtype '" + dtype_text + "'");
  }
  std::optional<int64_t> index;
  if (!index_text.empty()) {
    char *end = nullptr;
    long long v = std::strtoll(index_text.c_str(), &end, 10);
    if (!dtype || *end != '\0' || v < 0)
      return usage_error("run", "--corpus-call: INDEX must be a call index after a dtype, got '" +
                                    index_text + "'");
    index = v;
  }
  auto corpus = harness::Corpus::open(corpus_path);
  if (!corpus.has_overload(overload))
    throw Error("overload " + overload + " has no recorded calls in corpus " + corpus_path);
  std::vector<harness::Call> calls;
  for (auto &c : corpus.calls(overload, dtype))
    if (!index || c.index == *index) calls.push_back(std::move(c));
  if (calls.empty()) throw Error("no recorded call " + selector + " in corpus " + corpus_path);
  compiler::ast::Module module = compiler::parse_file(file);
  std::string wrapper;
  for (const auto &name : harness::wrapper_names_for(overload))
    for (const auto *fn : module.wrapper_functions())
      if (wrapper.empty() && fn->name == name) wrapper = name;
  if (wrapper.empty())
    throw Error("no wrapper '" + harness::wrapper_name_for(overload) + "' in " + file);
  const auto names = harness::schema_argument_names(corpus.overload(overload).schema);
  std::unique_ptr<compiler::Executor> ex = harness::make_executor(kind, chip);
  harness::CallKernel kernel;
  kernel.module = &module;
  kernel.wrapper = wrapper;
  size_t failed = 0;
  for (const auto &call : calls) {
    std::string verdict = "ok";
    try {
      harness::CallOutcome outcome = harness::run_aten_call(kernel, *ex, call, names);
      const harness::Verdict v = harness::judge_aten_call(call, outcome, &corpus);
      if (!v.ok()) verdict = "FAIL " + v.first_reason();
    } catch (const std::exception &e) {
      std::string what = e.what();
      verdict = "FAIL " + what.substr(0, what.find('\n'));
    }
    failed += verdict != "ok";
    std::cout << overload << " " << dtype_name(call.dtype) << " #" << call.index << ": " << verdict
              << "\n";
  }
  std::cout << (calls.size() - failed) << "/" << calls.size() << " calls passed\n";
  return failed ? kExitFailure : kExitOk;
}

// `--autotune-report`: per kernel and key, each config's cycles or skip reason and the winner.
void print_autotune_report(const harness::WrapperCallResult &r) {
  if (r.autotune.empty()) {
    std::cout << "autotune: no @triton.autotune kernel was launched\n";
    return;
  }
  for (const auto &a : r.autotune) {
    std::cout << "autotune " << a.kernel << " key " << a.key << ": " << a.source;
    if (!a.cache_file.empty()) std::cout << " (" << a.cache_file << ")";
    std::cout << "\n";
    for (const auto &p : a.pruned) std::cout << "  pruned      " << p << "\n";
    for (size_t i = 0; i < a.trials.size(); ++i) {
      const auto &t = a.trials[i];
      std::cout << (static_cast<int>(i) == a.winner ? "  * " : "    ");
      if (!t.skipped.empty())
        std::cout << "skipped  " << t.config << ": " << t.skipped << "\n";
      else if (t.cycles)
        std::cout << std::setw(9) << *t.cycles << " cycles  " << t.config << "\n";
      else
        std::cout << "compiled  " << t.config << "\n";
    }
    std::cout << "  winner: " << a.winner_config << "\n";
  }
}

int run_run(const std::vector<std::string> &args) {
  std::string file, call_text, check, executor = "chip", corpus_call,
                                      corpus_path = harness::Corpus::default_path();
  harness::ChipOptions chip;
  chip.timing = "";  // the preset's unless --timing
  uint64_t seed = 0;
  size_t counters = 10;
  bool autotune_report = false;
  std::string autotune_cache = compiler::autotune_default_cache_dir();
  OptionParser p("run", kUsage);
  p.text("call", &call_text)
      .text("arch", &chip.arch)
      .list("set", &chip.sets)
      .text("timing", &chip.timing)
      .number("seed", &seed)
      .text("check", &check)
      .text("corpus-call", &corpus_call)
      .text("corpus", &corpus_path)
      .text("executor", &executor)
      .number("counters", &counters)
      .flag("autotune-report", &autotune_report)
      .text("autotune-cache", &autotune_cache)
      .positional("FILE.py", &file);
  if (auto rc = p.parse(args)) return *rc;
  if (p.given("timing") && chip.timing != "functional" && chip.timing != "lt")
    return p.error("--timing needs functional or lt, got '" + chip.timing + "'");
  if (!check.empty() && check.find("::") == std::string::npos) check = "aten::" + check;
  if (file.empty()) return usage_error("run", "missing FILE.py");
  if (!corpus_call.empty() && (!call_text.empty() || !check.empty()))
    return usage_error("run",
                       "--corpus-call takes neither --call nor --check (the recorded "
                       "call is the call, its recorded result the check)");
  if (call_text.empty() && corpus_call.empty())
    return usage_error("run", "missing --call 'WRAPPER(ARGS)'");
  harness::ExecutorKind kind;
  try {
    kind = harness::parse_executor_kind(executor);
  } catch (const Error &e) {
    return usage_error("run", e.message());
  }
  if (!corpus_call.empty()) {
    try {
      return run_corpus_calls(file, corpus_call, corpus_path, kind, chip);
    } catch (const compiler::CompileError &e) {
      std::cerr << e.rendered();
      return kExitFailure;
    }
  }

  harness::CallExpression call;
  try {
    call = harness::parse_call_expression(call_text, seed);
  } catch (const Error &e) {
    std::cerr << "opforge run: error: " << e.what() << "\n";
    return kExitUsage;
  }
  try {
    compiler::ast::Module module = compiler::parse_file(file);
    bool found = false;
    for (const auto *fn : module.wrapper_functions()) found |= fn->name == call.function;
    if (!found) {
      std::string have;
      for (const auto *fn : module.wrapper_functions())
        have += (have.empty() ? "" : ", ") + fn->name;
      throw Error("no wrapper '" + call.function + "' in " + file +
                  (have.empty() ? std::string(" (it has none)") : " (wrappers: " + have + ")"));
    }
    std::unique_ptr<compiler::Executor> ex =
        harness::make_executor(kind, chip, /*keep_launches=*/true);
    for (size_t i = 0; i < call.args.size(); ++i)
      std::cout << "arg #" << i << ": " << call.args[i].summary() << "\n";
    for (const auto &[k, v] : call.kwargs) std::cout << "arg " << k << ": " << v.summary() << "\n";
    compiler::WrapperOptions wo;
    wo.autotune_cache_dir = autotune_cache == "none" ? "" : autotune_cache;
    harness::WrapperCallResult r =
        harness::run_wrapper_call(module, call.function, *ex, call.args, call.kwargs, wo);
    std::cout << "out: " << summarize(r.out) << "\n";
    if (autotune_report) print_autotune_report(r);
#ifdef OPFORGE_HAVE_CHIP
    if (auto *chip_ex = dynamic_cast<compiler::ChipExecutor *>(ex.get())) {
      const auto &params = harness::chip_device(chip).params();
      uint64_t cycles = 0, instructions = 0;
      std::vector<std::vector<std::pair<std::string, uint64_t>>> deltas;
      for (const auto &l : chip_ex->launches()) {
        cycles += l.cycles;
        instructions += l.instructions;
        deltas.push_back(l.counter_deltas);
      }
      // Autotune trials are launches of their own; the call's cycles are the rest.
      cycles -= std::min(cycles, r.autotune_trial_cycles);
      std::cout << "chip " << params.name << " (" << params.grid.rows << "x" << params.grid.cols
                << " PEs, " << model::timing_mode_name(params.sim.timing) << ")\n"
                << "launches " << chip_ex->launches().size() - r.autotune_trial_launches
                << (r.autotune_trial_launches
                        ? " (and " + std::to_string(r.autotune_trial_launches) +
                              " autotune trials, " + std::to_string(r.autotune_trial_cycles) +
                              " cycles, not counted below)"
                        : std::string())
                << "\n"
                << "cycles " << cycles << "\n"
                << "instructions " << instructions << "\n"
                << "binaries compiled " << chip_ex->binaries_compiled() << "\n";
      auto top = top_counters(deltas, counters);
      if (!top.empty()) std::cout << "top counters:\n";
      for (const auto &[name, value] : top) std::cout << "  " << name << " " << value << "\n";
    }
#endif
    if (check.empty()) return kExitOk;
    return check_against_aten(check, call, r);
  } catch (const compiler::CompileError &e) {
    std::cerr << e.rendered();
    return kExitFailure;
  }
}

CommandRegistrar reg{
    {"run", "run a wrapper call on the chip model (outputs, cycles, counters; --check vs ATen)",
     run_run}};

}  // namespace
}  // namespace opforge::cli
