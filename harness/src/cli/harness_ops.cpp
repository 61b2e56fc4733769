//===- harness_ops.cpp - `opforge ops list|show`: browse the ATen op corpus ===//
#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "opforge/harness/aten_call.h"
#include "opforge/harness/catalog.h"
#include "opforge/harness/cli.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/verifier.h"
#include "opforge/support/error.h"
#include "options.h"
#ifdef OPFORGE_HAVE_ORACLE
#include "opforge/harness/oracle.h"
#endif

namespace opforge::cli {
namespace {

constexpr const char *kUsage =
    "usage: opforge ops list [--corpus FILE] [--category C] [--dtype D]\n"
    "       opforge ops show OVERLOAD [--corpus FILE] [--dtype D] [--calls N]\n"
    "       opforge ops check [OVERLOAD] [--corpus FILE] [--dtype D] [--max-calls N]\n\n"
    "Browse the OpInfo ATen call corpus (made by 'make corpus'; default corpus/opinfo.h5\n"
    "in the source tree, or $OPFORGE_CORPUS).\n"
    "  list   one row per overload: category, dtypes with recorded calls, number of calls\n"
    "  show   an overload's schema, docstring, tolerance overrides and a few recorded calls\n"
    "  check  replay recorded calls through the libtorch oracle and verify them against the\n"
    "         recorded outputs (all overloads, or one; at most N calls per overload and dtype)\n"
    "Categories: pointwise, reduction, indexing, shape/view, linear algebra, normalization/DL, "
    "other.\n";

std::string dtype_list(const std::vector<DType> &dts) {
  std::string s;
  for (size_t i = 0; i < dts.size(); ++i) s += (i ? "," : "") + std::string(dtype_name(dts[i]));
  return s;
}

int run_list(const po::variables_map &vm) {
  std::optional<harness::Category> category;
  if (vm.count("category")) {
    category = harness::parse_category(vm["category"].as<std::string>());
    if (!category)
      return usage_error("ops",
                         "unknown --category '" + vm["category"].as<std::string>() +
                             "' (pointwise, reduction, indexing, shape/view, linear algebra, "
                             "normalization/DL, other)");
  }
  std::optional<DType> dtype;
  if (vm.count("dtype")) {
    dtype = parse_dtype(vm["dtype"].as<std::string>());
    if (!dtype)
      return usage_error("ops", "unknown --dtype '" + vm["dtype"].as<std::string>() + "'");
  }
  auto corpus = harness::Corpus::open(vm["corpus"].as<std::string>());
  auto rows = harness::catalog(corpus, category, dtype);
  size_t w = 8;
  for (const auto &r : rows) w = std::max(w, r.overload.size());
  std::cout << std::left << std::setw(static_cast<int>(w) + 2) << "overload" << std::setw(18)
            << "category" << std::setw(48) << "dtypes" << std::right << std::setw(7) << "calls"
            << "\n";
  int64_t total = 0;
  for (const auto &r : rows) {
    std::cout << std::left << std::setw(static_cast<int>(w) + 2) << r.overload << std::setw(18)
              << harness::category_name(r.category) << std::setw(48) << dtype_list(r.dtypes)
              << std::right << std::setw(7) << r.calls << "\n";
    total += r.calls;
  }
  std::cout << rows.size() << " overloads, " << total << " calls\n";
  return kExitOk;
}

int run_show(const po::variables_map &vm) {
  if (!vm.count("overload"))
    return usage_error("ops", "'show' needs an overload, e.g. aten::add.Tensor");
  std::string name = vm["overload"].as<std::string>();
  if (!name.starts_with("aten::")) name = "aten::" + name;
  std::optional<DType> dtype;
  if (vm.count("dtype")) {
    dtype = parse_dtype(vm["dtype"].as<std::string>());
    if (!dtype)
      return usage_error("ops", "unknown --dtype '" + vm["dtype"].as<std::string>() + "'");
  }
  auto corpus = harness::Corpus::open(vm["corpus"].as<std::string>());
  const auto &o = corpus.overload(name);
  std::cout << o.name << "\n  schema:   " << o.schema
            << "\n  category: " << harness::category_name(harness::categorize(o.name))
            << "\n  calls:   ";
  for (DType dt : corpus.dtypes())
    if (auto it = o.calls_per_dtype.find(dt); it != o.calls_per_dtype.end())
      std::cout << " " << dtype_name(dt) << "=" << it->second;
  auto ops = corpus.opinfos_calling(name);
  std::cout << "\n  OpInfos:  ";
  for (size_t i = 0; i < ops.size() && i < 12; ++i) std::cout << (i ? ", " : "") << ops[i];
  if (ops.size() > 12) std::cout << ", ... (" << ops.size() << " in all)";
  std::cout << "\n";
  for (const auto &op : ops)
    for (DType dt : corpus.dtypes())
      if (auto t = corpus.tolerance(op, dt))
        std::cout << "  tolerance override: " << op << " " << dtype_name(dt) << " atol=" << t->atol
                  << " rtol=" << t->rtol << "\n";
  std::string doc = corpus.docstring(name);
  std::cout << "\ndocstring:\n" << (doc.empty() ? "  (none recorded)\n" : doc) << "\n";
  const auto n = vm["calls"].as<int>();
  auto calls = corpus.calls(name, dtype, static_cast<size_t>(std::max(n, 0)));
  std::cout << "\nsample calls" << (dtype ? " (" + std::string(dtype_name(*dtype)) + ")" : "")
            << ":\n";
  for (const auto &c : calls)
    std::cout << "  [" << dtype_name(c.dtype) << " #" << c.index << ", " << c.opinfo << " sample "
              << c.sample << "] " << c.summary() << "\n";
  if (calls.empty()) std::cout << "  (none)\n";
  return kExitOk;
}

// True when any argument, output or mutated value of the call is a complex tensor (recorded
// as an Opaque value: HostTensor has no complex dtypes).
bool holds_opaque(const harness::Value &v) {
  if (v.kind == harness::Value::Kind::Opaque) return true;
  for (const auto &item : v.list)
    if (holds_opaque(item)) return true;
  return false;
}

bool holds_complex_tensor(const harness::Call &c) {
  for (const auto &a : c.args)
    if (holds_opaque(a)) return true;
  for (const auto &[name, v] : c.kwargs)
    if (holds_opaque(v)) return true;
  for (const auto &[name, v] : c.mutated)
    if (holds_opaque(v)) return true;
  return holds_opaque(c.out);
}

int run_check(const po::variables_map &vm) {
#ifdef OPFORGE_HAVE_ORACLE
  std::optional<DType> dtype;
  if (vm.count("dtype")) {
    dtype = parse_dtype(vm["dtype"].as<std::string>());
    if (!dtype)
      return usage_error("ops", "unknown --dtype '" + vm["dtype"].as<std::string>() + "'");
  }
  const int max_calls = vm["max-calls"].as<int>();
  if (max_calls < 0)
    return usage_error("ops", "--max-calls must not be negative (0: every recorded call)");
  auto corpus = harness::Corpus::open(vm["corpus"].as<std::string>());
  std::vector<std::string> names;
  if (vm.count("overload")) {
    std::string name = vm["overload"].as<std::string>();
    if (!name.starts_with("aten::")) name = "aten::" + name;
    names.push_back(corpus.overload(name).name);
  } else {
    for (const auto &o : corpus.overloads()) names.push_back(o.name);
  }
  const auto &oracle = harness::OraclePlugin::get();  // libtorch loads here, not at start-up
  int64_t passed = 0, mismatched = 0, errors = 0, complex_calls = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const auto &name : names) {
    int64_t ok = 0, bad = 0, err = 0;
    std::string first;
    for (DType dt : corpus.dtypes()) {
      if (dtype && dt != *dtype) continue;
      for (const auto &c :
           corpus.calls(name, dt, max_calls > 0 ? static_cast<size_t>(max_calls) : SIZE_MAX)) {
        if (holds_complex_tensor(c)) {  // opforge holds no complex dtype: counted apart
          ++complex_calls;
          continue;
        }
        try {
          auto r = oracle.call(c);
          harness::CallOutcome live{r.out, r.mutated};
          auto v = harness::judge_aten_call(c, live, &corpus);
          if (v.ok()) {
            ++ok;
          } else {
            ++bad;
            if (first.empty())
              first = std::string(dtype_name(dt)) + " #" + std::to_string(c.index) + ": " +
                      v.first_reason();
          }
        } catch (const Error &e) {
          ++err;
          if (first.empty())
            first = std::string(dtype_name(dt)) + " #" + std::to_string(c.index) + ": " + e.what();
        }
      }
    }
    if (bad || err)
      std::cout << name << ": " << ok << "/" << (ok + bad + err) << " reproduced; " << first
                << "\n";
    passed += ok;
    mismatched += bad;
    errors += err;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int64_t total = passed + mismatched + errors + complex_calls;
  std::cout << "checked " << total << " calls of " << names.size() << " overloads: " << passed
            << " reproduced, " << mismatched << " mismatched, " << errors << " not replayable, "
            << complex_calls << " skipped (complex tensors: opforge holds no complex dtype), in "
            << std::fixed << std::setprecision(1) << seconds << " s (" << std::setprecision(0)
            << (seconds > 0 ? static_cast<double>(total) / seconds : 0.0) << " calls/s)\n";
  return mismatched || errors ? kExitFailure : kExitOk;
#else
  (void)vm;
  std::cerr << "opforge ops check: this opforge was built without torch (the oracle plugin needs "
               "the project venv's torch): run 'bash scripts/install-deps.sh' in the opforge "
               "source tree, then reconfigure and rebuild\n";
  return kExitFailure;
#endif
}

int run_ops(const std::vector<std::string> &args) {
  OptionParser parser("ops", kUsage);
  parser.add()("corpus", po::value<std::string>()->default_value(harness::Corpus::default_path()),
               "corpus HDF5 file")("category", po::value<std::string>(),
                                   "list: only this category")("dtype", po::value<std::string>(),
                                                               "only calls of this dtype")(
      "calls", po::value<int>()->default_value(5), "show: number of sample calls")(
      "max-calls", po::value<int>()->default_value(0),
      "check: calls per overload and dtype (0: all)")(
      "action", po::value<std::string>(), "list or show")("overload", po::value<std::string>(),
                                                          "overload");
  parser.positional("action", nullptr).positional("overload", nullptr);
  if (auto rc = parser.parse(args)) return *rc;
  const po::variables_map &vm = parser.vm();
  if (!vm.count("action")) return usage_error("ops", "expected 'list', 'show' or 'check'");
  const std::string action = vm["action"].as<std::string>();
  if (action == "list") {
    if (vm.count("overload")) return usage_error("ops", "'list' takes no overload");
    return run_list(vm);
  }
  if (action == "show") return run_show(vm);
  if (action == "check") return run_check(vm);
  return usage_error("ops", "unknown action '" + action + "' (expected 'list', 'show' or 'check')");
}

CommandRegistrar reg{
    {"ops", "list, show or oracle-check the ATen overloads of the OpInfo corpus", run_ops}};

}  // namespace
}  // namespace opforge::cli
