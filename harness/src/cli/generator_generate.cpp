//===- generator_generate.cpp - `opforge generate`: run the generation loop over ATen overloads
//===//
#include <boost/program_options.hpp>

#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "opforge/compiler/capability.h"
#include "opforge/generator/loop.h"
#include "opforge/generator/openai_provider.h"
#include "opforge/generator/replay_provider.h"
#include "opforge/harness/catalog.h"
#include "opforge/harness/cli.h"
#include "opforge/harness/corpus.h"
#include "opforge/support/error.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace opforge::cli {
namespace {

constexpr const char *kUsage =
    "usage: opforge generate (--ops aten::X,... | --all | --category C) --provider openai|replay\n"
    "                        [--k N] [--jobs N] [--out DIR] [--library DIR] [--force]\n"
    "                        [--base-url URL --model M ...] [--replay RUNLOG]\n\n"
    "Generates a Triton kernel + wrapper per ATen overload with the generation loop\n"
    "(generate -> lint -> compile -> run -> verify, feedback on failure), verifying\n"
    "against the recorded OpInfo calls of the corpus. Passing kernels go to the library\n"
    "directory (one file per overload); overloads already there are skipped unless --force.\n"
    "The run log is <out>/runlog.jsonl (docs/generator/runlog.md).\n";

std::vector<std::string> split_csv(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item.find("::") == std::string::npos ? "aten::" + item : item);
  return out;
}

// Library file of an overload, as generator/library/aten/ names them: "add.Tensor.py", "exp.py".
std::string library_file_name(const std::string &overload) {
  std::string s =
      overload.substr(overload.find("::") == std::string::npos ? 0 : overload.find("::") + 2);
  if (s.size() > 8 && s.ends_with(".default")) s.resize(s.size() - 8);
  return s + ".py";
}

std::string today_utc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

struct Row {
  std::string overload, category, result, reason;
  int passed = 0, attempts = 0, calls = 0;
  std::vector<bool> pass_by_attempt;
};

int run(const std::vector<std::string> &args) {
  po::options_description opts("options");
  opts.add_options()("help,h", "show help")(
      "ops", po::value<std::string>(), "comma-separated overloads (aten::add.Tensor,exp.default)")(
      "all", "every overload of the corpus")("category", po::value<std::string>(),
                                             "every overload of a category")(
      "provider", po::value<std::string>()->default_value("openai"), "openai | replay")(
      "replay", po::value<std::string>(), "run log to replay (provider replay)")(
      "config", po::value<std::string>(), "openai provider config JSON")(
      "base-url", po::value<std::string>(), "OpenAI-compatible endpoint root")(
      "model", po::value<std::string>(), "model name")("api-key-env", po::value<std::string>(),
                                                       "environment variable holding the API key")(
      "temperature", po::value<double>(), "sampling temperature")("top-p", po::value<double>(),
                                                                  "nucleus sampling")(
      "max-tokens", po::value<int>(), "reply token limit")("timeout", po::value<double>(),
                                                           "request timeout in seconds")(
      "concurrency", po::value<int>(), "HTTP requests in flight")("retries", po::value<int>(),
                                                                  "retries of 429/5xx/timeouts")(
      "k", po::value<int>()->default_value(1), "independent attempts per overload")(
      "seed", po::value<uint64_t>()->default_value(0), "seed of attempt 0 (attempt i: seed + i)")(
      "jobs", po::value<int>()->default_value(1), "overloads in parallel")(
      "out", po::value<std::string>()->default_value("generated"), "output directory (run log)")(
      "library", po::value<std::string>(), "kernel library directory (default <out>/library)")(
      "prompts", po::value<std::string>(), "prompt template directory")(
      "corpus", po::value<std::string>()->default_value(harness::Corpus::default_path()),
      "OpInfo corpus")("max-calls", po::value<int>()->default_value(32),
                       "recorded calls verified per overload")(
      "max-dialogs", po::value<int>()->default_value(3), "dialogs per attempt")(
      "max-calls-per-dialog", po::value<int>()->default_value(15), "model calls per dialog")(
      "max-wall-s", po::value<double>()->default_value(3600), "wall-clock limit per attempt")(
      "force", "regenerate overloads already in the library");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(opts).run(), vm);
    po::notify(vm);
  } catch (const po::error &e) {
    return usage_error("generate", e.what());
  }
  if (vm.count("help")) {
    std::cout << kUsage << "\n" << opts;
    return kExitOk;
  }
  int selectors = static_cast<int>(vm.count("ops") + vm.count("all") + vm.count("category"));
  if (selectors != 1)
    return usage_error("generate", "give exactly one of --ops, --all, --category");
  int k = vm["k"].as<int>(), jobs = vm["jobs"].as<int>();
  if (k < 1 || jobs < 1) return usage_error("generate", "--k and --jobs must be >= 1");

  try {
    auto corpus = harness::Corpus::open(vm["corpus"].as<std::string>());
    std::vector<std::string> overloads;
    if (vm.count("ops")) {
      overloads = split_csv(vm["ops"].as<std::string>());
      for (const auto &o : overloads) corpus.overload(o);  // unknown overload: error naming it
    } else {
      std::optional<harness::Category> cat;
      if (vm.count("category")) {
        cat = harness::parse_category(vm["category"].as<std::string>());
        if (!cat)
          return usage_error("generate",
                             "unknown --category '" + vm["category"].as<std::string>() + "'");
      }
      for (const auto &e : harness::catalog(corpus, cat)) overloads.push_back(e.overload);
    }

    std::unique_ptr<generator::Provider> provider;
    nlohmann::json provider_config = nlohmann::json::object();
    std::string pname = vm["provider"].as<std::string>();
    if (pname == "openai") {
      generator::OpenAIConfig cfg;
      if (vm.count("config"))
        cfg = generator::OpenAIConfig::from_file(vm["config"].as<std::string>());
      if (vm.count("base-url")) cfg.base_url = vm["base-url"].as<std::string>();
      if (vm.count("model")) cfg.model = vm["model"].as<std::string>();
      if (vm.count("api-key-env")) cfg.api_key_env = vm["api-key-env"].as<std::string>();
      if (vm.count("temperature")) cfg.temperature = vm["temperature"].as<double>();
      if (vm.count("top-p")) cfg.top_p = vm["top-p"].as<double>();
      if (vm.count("max-tokens")) cfg.max_tokens = vm["max-tokens"].as<int>();
      if (vm.count("timeout")) cfg.request_timeout_s = vm["timeout"].as<double>();
      if (vm.count("concurrency")) cfg.concurrency = vm["concurrency"].as<int>();
      if (vm.count("retries")) cfg.max_retries = vm["retries"].as<int>();
      provider = generator::make_openai_provider(cfg);
      provider_config = cfg.to_json();  // names the key's variable, never the key
    } else if (pname == "replay") {
      if (!vm.count("replay"))
        return usage_error("generate", "--provider replay needs --replay RUNLOG");
      provider = generator::make_replay_provider(vm["replay"].as<std::string>());
    } else {
      return usage_error("generate", "unknown --provider '" + pname + "' (openai, replay)");
    }

    fs::path out = vm["out"].as<std::string>();
    fs::path library =
        vm.count("library") ? fs::path(vm["library"].as<std::string>()) : out / "library";
    fs::create_directories(library);
    auto templates = generator::PromptTemplates::load(
        vm.count("prompts") ? vm["prompts"].as<std::string>()
                            : generator::PromptTemplates::default_dir());
    generator::RunLog log((out / "runlog.jsonl").string());
    log.append({{"event", "run_start"},
                {"provider", provider->name()},
                {"model", provider->model()},
                {"provider_config", provider_config},
                {"overloads", overloads},
                {"k", k},
                {"corpus", corpus.path()},
                {"library", library.string()}});
    generator::LoopOptions lopts;
    lopts.k = k;
    lopts.seed = vm["seed"].as<uint64_t>();
    lopts.budget.max_dialogs = vm["max-dialogs"].as<int>();
    lopts.budget.max_calls_per_dialog = vm["max-calls-per-dialog"].as<int>();
    lopts.budget.max_wall_s = vm["max-wall-s"].as<double>();
    const bool force = vm.count("force") > 0;
    const size_t max_calls = static_cast<size_t>(std::max(1, vm["max-calls"].as<int>()));
    const std::string caps = compiler::describe(compiler::mtia_capabilities());

    std::vector<Row> rows(overloads.size());
    std::atomic<size_t> next{0}, done{0}, passing{0};
    std::mutex io;
    auto t0 = std::chrono::steady_clock::now();
    auto progress = [&] {
      double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      size_t d = done, n = overloads.size();
      double eta = d ? el / static_cast<double>(d) * static_cast<double>(n - d) : 0;
      std::lock_guard lock(io);
      std::cerr << "\r[" << d << "/" << n << "] passing " << passing << "  elapsed "
                << static_cast<int>(el) << " s  eta " << static_cast<int>(eta) << " s   "
                << std::flush;
    };
    auto worker = [&] {
      for (size_t i = next++; i < overloads.size(); i = next++) {
        const std::string &ov = overloads[i];
        Row &row = rows[i];
        row.overload = ov;
        row.category = std::string(harness::category_name(harness::categorize(ov)));
        std::string wrapper = generator::wrapper_name(ov);
        fs::path file = library / library_file_name(ov);
        if (!force && fs::exists(file)) {
          row.result = "cached";
          ++passing;
        } else {
          try {
            generator::OverloadJob job;
            job.overload = ov;
            const auto &entry = corpus.overload(ov);
            auto &c = job.context;
            c.overload = ov;
            c.wrapper = wrapper;
            c.schema = entry.schema;
            c.docstring = corpus.docstring(ov);
            c.category = row.category;
            for (auto d : entry.dtypes())
              c.dtypes += (c.dtypes.empty() ? "" : ", ") + std::string(dtype_name(d));
            c.target_constraints = caps;
            c.reference_kernels =
                generator::reference_kernels(library.string(), row.category, library_file_name(ov));
            auto calls = corpus.calls(ov, std::nullopt, max_calls);
            std::string schema = entry.schema;
            job.make_evaluator = [&corpus, calls, schema] {
              generator::EvaluatorOptions eo;
              eo.calls = calls;
              eo.schema = schema;
              eo.corpus = &corpus;
              return generator::make_reference_evaluator(std::move(eo));
            };
            auto results = generator::run_overload(job, templates, *provider, log, lopts);
            row.attempts = static_cast<int>(results.size());
            const generator::AttemptResult *first_pass = nullptr;
            for (const auto &r : results) {
              row.calls += r.model_calls;
              row.pass_by_attempt.push_back(r.final_state == generator::State::Done);
              if (r.final_state == generator::State::Done) {
                ++row.passed;
                if (!first_pass) first_pass = &r;
              } else if (row.reason.empty()) {
                row.reason = r.reason;
              }
            }
            if (first_pass) {
              std::ofstream f(file);
              f << "# opforge generated kernel: " << ov << "\n# category: " << row.category
                << "\n# provider: " << provider->name() << ", model: " << provider->model()
                << ", attempt: " << first_pass->attempt << ", date: " << today_utc() << "\n"
                << first_pass->source;
              row.result = "pass";
              ++passing;
            } else {
              row.result = "fail";
            }
          } catch (const std::exception &e) {
            row.result = "error";
            row.reason = e.what();
          }
        }
        ++done;
        progress();
      }
    };
    std::vector<std::thread> threads;
    for (int j = 0; j < std::min<int>(jobs, static_cast<int>(overloads.size())); ++j)
      threads.emplace_back(worker);
    for (auto &t : threads) t.join();
    std::cerr << "\n";

    size_t w = 8;
    for (const auto &r : rows) w = std::max(w, r.overload.size());
    std::cout << std::left << std::setw(static_cast<int>(w) + 2) << "overload" << std::setw(18)
              << "category" << std::setw(8) << "result" << std::setw(10) << "passed" << std::setw(7)
              << "calls"
              << "reason\n";
    for (const auto &r : rows) {
      std::cout << std::left << std::setw(static_cast<int>(w) + 2) << r.overload << std::setw(18)
                << r.category << std::setw(8) << r.result << std::setw(10)
                << (r.attempts ? std::to_string(r.passed) + "/" + std::to_string(r.attempts) : "-")
                << std::setw(7) << r.calls << r.reason.substr(0, 100) << "\n";
    }
    // Coverage and pass@j for j = 1..k over the overloads generated in this run.
    int generated = 0;
    for (const auto &r : rows) generated += r.attempts > 0;
    if (generated > 0) {
      std::cout << "\nattempts j  coverage(first j)  mean pass@j\n";
      for (int j = 1; j <= k; ++j) {
        int covered = 0;
        double sum = 0;
        for (const auto &r : rows) {
          if (r.attempts == 0) continue;
          bool any = false;
          for (int a = 0; a < j && a < static_cast<int>(r.pass_by_attempt.size()); ++a)
            any = any || r.pass_by_attempt[a];
          covered += any;
          sum += generator::pass_at_k(r.attempts, r.passed, j);
        }
        std::cout << std::setw(10) << j << "  " << std::setw(17) << std::fixed
                  << std::setprecision(3) << static_cast<double>(covered) / generated << "  "
                  << sum / generated << "\n";
      }
    }
    std::cout << "\npassing " << passing << " of " << overloads.size() << " overloads; run log "
              << (out / "runlog.jsonl").string() << "; library " << library.string() << "\n";
    return passing == overloads.size() ? kExitOk : kExitFailure;
  } catch (const Error &e) {
    std::cerr << "opforge generate: error: " << e.what() << "\n";
    return kExitFailure;
  }
}

CommandRegistrar reg({"generate",
                      "generate Triton kernels for ATen overloads (LLM or replay provider)", run});

}  // namespace
}  // namespace opforge::cli
