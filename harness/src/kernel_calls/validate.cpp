//===- validate.cpp - recorded ATen calls through library wrappers, verified ===//
#include "opforge/harness/validate.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "opforge/compiler/interp_executor.h"
#include "opforge/harness/aten_call.h"
#include "opforge/harness/aten_runtime.h"
#include "opforge/compiler/lint.h"
#include "opforge/compiler/parser.h"
#include "opforge/compiler/wrapper.h"
#include "opforge/harness/oracle.h"
#include "opforge/harness/verifier.h"
#include "opforge/isa/extension.h"
#include "opforge/support/error.h"
#include "opforge/support/h5store.h"

namespace fs = std::filesystem;
using opforge::compiler::Executor;
using opforge::compiler::WrapperValue;

namespace opforge::harness {

std::string wrapper_name_for(const std::string &overload) {
  std::string name = overload.rfind("aten::", 0) == 0 ? overload.substr(6) : overload;
  std::replace(name.begin(), name.end(), '.', '_');
  return name;
}

std::string library_file_name_for(const std::string &overload) {
  return (overload.rfind("aten::", 0) == 0 ? overload.substr(6) : overload) + ".py";
}

std::string default_library_dir() {
#ifdef OPFORGE_SOURCE_DIR
  return std::string(OPFORGE_SOURCE_DIR) + "/generator/library/aten";
#else
  return "generator/library/aten";
#endif
}

std::vector<std::string> extension_library_dirs() {
  const fs::path root = fs::path(default_library_dir()).parent_path() / "ext";
  std::vector<std::string> dirs;
  for (const isa::ExtInsn *insn : isa::extension_insns()) {
    std::error_code ec;
    fs::path d = root / insn->intrinsic;
    if (fs::is_directory(d, ec)) dirs.push_back(d.string());
  }
  return dirs;
}

KernelLibrary KernelLibrary::load(const std::string &dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Error("kernel library " + dir + " is not a directory");
  std::vector<std::string> paths;
  for (const auto &entry : fs::directory_iterator(dir, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".py")
      paths.push_back(entry.path().string());
  if (ec) throw Error("cannot read kernel library " + dir + ": " + ec.message());
  std::sort(paths.begin(), paths.end());

  KernelLibrary lib;
  lib.dir_ = dir;
  compiler::LintOptions lint_options;
  for (const auto &p : paths) {
    std::string stem = fs::path(p).stem().string();
    lint_options.implemented_ops.insert(stem.find('.') == std::string::npos ? stem + ".default"
                                                                            : stem);
    lint_options.implemented_ops.insert(stem);
  }
  for (const auto &p : paths) {
    File f;
    f.path = p;
    f.overload = "aten::" + fs::path(p).stem().string();
    try {
      auto findings = compiler::lint_file(p, lint_options);
      for (const auto &finding : findings)
        if (finding.severity == compiler::Severity::Error) {
          f.error = compiler::format_finding(finding);
          break;
        }
      if (f.error.empty()) {
        f.module = std::make_shared<compiler::ast::Module>(compiler::parse_file(p));
        for (const auto *fn : f.module->wrapper_functions()) f.wrappers.push_back(fn->name);
      }
    } catch (const Error &e) {
      f.error = e.what();
      f.module.reset();
    }
    lib.files_.push_back(std::move(f));
  }
  return lib;
}

std::vector<std::string> schema_argument_names(const std::string &schema) {
  std::vector<std::string> names;
  size_t open = schema.find('(');
  if (open == std::string::npos) return names;
  int depth = 0;
  std::string cur;
  auto flush = [&] {
    std::string a = cur;
    cur.clear();
    if (auto eq = a.find('='); eq != std::string::npos) a.resize(eq);
    while (!a.empty() && a.back() == ' ') a.pop_back();
    if (a.empty() || a == "*" || a == " *") return;
    auto sp = a.find_last_of(' ');
    names.push_back(sp == std::string::npos ? a : a.substr(sp + 1));
  };
  for (size_t i = open + 1; i < schema.size(); ++i) {
    char c = schema[i];
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') {
      if (depth == 0) break;
      --depth;
    }
    if (c == ',' && depth == 0) {
      flush();
      continue;
    }
    cur += c;
  }
  flush();
  return names;
}

std::vector<std::string> wrapper_names_for(const std::string &overload) {
  std::vector<std::string> names = {wrapper_name_for(overload)};
  if (overload.find('.') == std::string::npos) names.push_back(names[0] + "_default");
  return names;
}

std::string KernelLibrary::File::wrapper_for(const std::string &overload) const {
  for (const auto &name : wrapper_names_for(overload))
    if (std::find(wrappers.begin(), wrappers.end(), name) != wrappers.end()) return name;
  return "";
}

const KernelLibrary::File *KernelLibrary::find(const std::string &overload) const {
  for (const auto &f : files_)
    if (f.module && !f.wrapper_for(overload).empty()) return &f;
  for (const auto &f : files_)
    if (!f.module && f.overload == overload) return &f;
  return nullptr;
}

ExecutorKind parse_executor_kind(const std::string &text) {
  if (text == "interp") return ExecutorKind::Interp;
  if (text == "chip") return ExecutorKind::Chip;
  throw Error("unknown executor '" + text + "' (expected interp or chip)");
}

namespace {

std::string one_line(std::string s) {
  auto nl = s.find('\n');
  if (nl != std::string::npos) s = s.substr(0, nl);
  return s;
}

// One recorded call through `kernel` and judged (aten_call.h): "" when it passes.
std::string run_and_judge(const CallKernel &kernel, Executor &executor, const Call &call,
                          const Corpus &corpus) {
  try {
    std::vector<std::string> names;
    if (!call.mutated.empty() && corpus.has_overload(call.overload))
      names = schema_argument_names(corpus.overload(call.overload).schema);
    CallOutcome outcome = run_aten_call(kernel, executor, call, names);
    const Verdict v = judge_aten_call(call, outcome, &corpus);
    return v.ok() ? std::string() : v.first_reason();
  } catch (const std::exception &e) {
    return one_line(e.what());
  }
}

}  // namespace

WrapperCallResult run_wrapper_call(const compiler::ast::Module &module, const std::string &wrapper,
                                   Executor &executor, const std::vector<Value> &args,
                                   const std::vector<std::pair<std::string, Value>> &kwargs,
                                   const compiler::WrapperOptions &options) {
  CallMarshal marshal(executor);
  std::vector<WrapperValue> wargs;
  std::vector<std::pair<std::string, WrapperValue>> wkwargs;
  for (size_t i = 0; i < args.size(); ++i)
    wargs.push_back(marshal.to_wrapper(args[i], "#" + std::to_string(i)));
  for (const auto &[name, value] : kwargs)
    wkwargs.emplace_back(name, marshal.to_wrapper(value, name));
  compiler::WrapperInterpreter interp(module, executor, options);
  WrapperCallResult r;
  compiler::WrapperRunResult run = interp.run(wrapper, wargs, wkwargs);
  r.out = marshal.to_host(run.value);
  r.autotune = std::move(run.autotune);
  r.autotune_trial_cycles = run.autotune_trial_cycles;
  r.autotune_trial_launches = run.autotune_trial_launches;
  for (const auto &a : wargs) r.args_after.push_back(marshal.to_host(a));
  for (const auto &[name, v] : wkwargs) r.kwargs_after.emplace_back(name, marshal.to_host(v));
  return r;
}

std::string run_call(const compiler::ast::Module &module, const std::string &wrapper,
                     Executor &executor, const Call &call, const Corpus &corpus) {
  CallKernel kernel;
  kernel.module = &module;
  kernel.wrapper = wrapper;
  return run_and_judge(kernel, executor, call, corpus);
}

std::string run_view_call(Executor &executor, const Call &call, const Corpus &corpus) {
  return run_and_judge(CallKernel{}, executor, call, corpus);
}

std::string OverloadResult::first_failure() const {
  if (!error.empty()) return error;
  if (!failures.empty()) return failures.front().reason;
  return "";
}

bool ValidateReport::ok() const {
  return std::all_of(results.begin(), results.end(),
                     [](const OverloadResult &r) { return r.ok(); });
}

int64_t ValidateReport::calls_passed() const {
  int64_t n = 0;
  for (const auto &r : results) n += r.passed;
  return n;
}

int64_t ValidateReport::calls_total() const {
  int64_t n = 0;
  for (const auto &r : results) n += r.total;
  return n;
}

std::string ValidateReport::table() const {
  size_t width = 8;
  for (const auto &r : results) width = std::max(width, r.overload.size());
  std::ostringstream os;
  auto pad = [](std::string s, size_t w) {
    if (s.size() < w) s.append(w - s.size(), ' ');
    return s;
  };
  os << pad("overload", width) << "  " << pad("passed", 13) << "  first failure\n";
  for (const auto &r : results) {
    std::string reason = r.first_failure();
    if (!r.error.empty())
      reason = "library: " + reason;
    else if (!r.failures.empty())
      reason = std::string(dtype_name(r.failures.front().dtype)) + " call " +
               std::to_string(r.failures.front().index) + ": " + reason;
    os << pad(r.overload, width) << "  "
       << pad(std::to_string(r.passed) + "/" + std::to_string(r.total), 13) << "  "
       << (reason.empty() ? "-" : reason) << "\n";
  }
  os << pad("total", width) << "  " << calls_passed() << "/" << calls_total() << "\n";
  return os.str();
}

void ValidateReport::write_hdf5(const std::string &path) const {
  auto file = h5::File::create(path);
  file.create_group("/validate");
  auto overloads =
      file.create_table("/validate/overloads", {{"overload", h5::ColumnType::String},
                                                {"file", h5::ColumnType::String},
                                                {"passed", h5::ColumnType::Int64},
                                                {"total", h5::ColumnType::Int64},
                                                {"first_failure", h5::ColumnType::String}});
  auto failures = file.create_table("/validate/failures", {{"overload", h5::ColumnType::String},
                                                           {"dtype", h5::ColumnType::String},
                                                           {"index", h5::ColumnType::Int64},
                                                           {"call", h5::ColumnType::String},
                                                           {"reason", h5::ColumnType::String}});
  for (const auto &r : results) {
    overloads.append(h5::Row{r.overload, r.file, r.passed, r.total, r.first_failure()});
    for (const auto &f : r.failures)
      failures.append(
          h5::Row{r.overload, std::string(dtype_name(f.dtype)), f.index, f.summary, f.reason});
  }
  file.close();
}

namespace {

OverloadResult validate_overload(const Corpus &corpus, const KernelLibrary &library,
                                 const std::string &overload, const ValidateOptions &options) {
  OverloadResult r;
  r.overload = overload;
  std::vector<std::optional<opforge::DType>> groups;
  if (options.dtypes.empty()) groups.push_back(std::nullopt);
  for (auto d : options.dtypes) groups.push_back(d);
  if (!corpus.has_overload(overload)) {
    r.error = "unknown overload '" + overload + "' in corpus " + corpus.path();
    return r;
  }
  const auto &entry = corpus.overload(overload);
  for (const auto &[d, n] : entry.calls_per_dtype)
    if (options.dtypes.empty() || std::count(options.dtypes.begin(), options.dtypes.end(), d))
      r.total += options.max_calls_per_overload == SIZE_MAX
                     ? n
                     : std::min<int64_t>(n, static_cast<int64_t>(options.max_calls_per_overload));
  const auto *file = library.find(overload);
  const bool use_runtime = !file && is_view_op(overload);
  if (!file && !use_runtime) {
    r.error = "no wrapper '" + wrapper_name_for(overload) + "' in kernel library " + library.dir() +
              " (expected in " + library_file_name_for(overload) + ")";
    return r;
  }
  r.file = use_runtime ? "(view runtime)" : file->path;
  if (!use_runtime && !file->module) {
    r.error = overload + ": " + file->error;
    return r;
  }
  std::unique_ptr<Executor> executor;
  try {
    executor = make_executor(options.executor, options.chip);
  } catch (const std::exception &e) {
    r.error = e.what();
    return r;
  }
  const std::string wrapper = use_runtime ? std::string() : file->wrapper_for(overload);
  const int64_t selected = r.total;
  r.total = 0;
  static std::mutex corpus_mutex;  // HDF5 reads are not thread-safe
  for (const auto &group : groups) {
    std::vector<Call> calls;
    try {
      std::lock_guard<std::mutex> lock(corpus_mutex);
      calls = corpus.calls(overload, group, options.max_calls_per_overload);
    } catch (const std::exception &e) {
      // A corrupt or truncated corpus fails this overload; the others go on.
      r.error = overload + ": cannot read its recorded calls: " + one_line(e.what());
      r.total = selected;
      r.passed = 0;
      return r;
    }
    for (const Call &call : calls) {
      ++r.total;
      auto &pd = r.per_dtype[call.dtype];
      ++pd.second;
      std::string reason = use_runtime ? run_view_call(*executor, call, corpus)
                                       : run_call(*file->module, wrapper, *executor, call, corpus);
      if (reason.empty()) {
        ++r.passed;
        ++pd.first;
      } else {
        r.failures.push_back({call.dtype, call.index, call.summary(), reason});
      }
    }
  }
  return r;
}

}  // namespace

ValidateReport validate(const Corpus &corpus, const KernelLibrary &library,
                        const ValidateOptions &options) {
  std::vector<std::string> overloads = options.overloads;
  if (overloads.empty())
    for (const auto &o : corpus.overloads()) overloads.push_back(o.name);
  ValidateReport report;
  report.results.resize(overloads.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < overloads.size(); i = next++)
      report.results[i] = validate_overload(corpus, library, overloads[i], options);
  };
  int jobs = std::max(1, std::min<int>(options.jobs, static_cast<int>(overloads.size())));
  if (options.executor == ExecutorKind::Chip) jobs = 1;  // one single-threaded device per process
  if (jobs == 1) {
    worker();
  } else {
    std::vector<std::thread> threads;
    for (int j = 0; j < jobs; ++j) threads.emplace_back(worker);
    for (auto &t : threads) t.join();
  }
  return report;
}

}  // namespace opforge::harness
