//===- generator_generate.cpp - `opforge generate`: run the generation loop over ATen overloads
//===//
#include <map>
#include <cstdint>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>

#include "opforge/generator/inductor.h"
#include "opforge/generator/loop.h"
#include "opforge/generator/openai_provider.h"
#include "opforge/generator/replay_provider.h"
#include "opforge/generator/report.h"
#include "opforge/generator/taxonomy.h"
#include "opforge/harness/catalog.h"
#include "opforge/harness/cli.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/judge.h"
#include "opforge/support/error.h"
#include "options.h"

namespace fs = std::filesystem;

namespace opforge::cli {
namespace {

constexpr const char *kUsage =
    "usage: opforge generate (--ops aten::X,... | --all | --category C)\n"
    "                        [--provider inductor|openai|replay] [--k N] [--jobs N] [--out DIR]\n"
    "                        [--library DIR] [--force] [--executor interp|chip] [--verbose]\n"
    "                        [--max-calls N] [--check-timeout-s S]\n"
    "                        [--base-url URL --model M ...] [--replay RUNLOG]\n"
    "       opforge generate --report RUN\n\n"
    "Generates a Triton kernel + wrapper per ATen overload with the generation loop\n"
    "(generate -> lint -> compile -> run -> verify, feedback on failure), verifying\n"
    "against the recorded OpInfo calls of the corpus. Providers: inductor (offline\n"
    "default: the lowering table and templates of generator/inductor), openai (any\n"
    "OpenAI-compatible endpoint), replay (a recorded run log). Passing kernels go to the\n"
    "library directory (one file per overload); overloads already there are skipped\n"
    "unless --force, so an interrupted run resumes. The run log is <out>/runlog.jsonl\n"
    "(docs/generator/runlog.md); --report RUN (a run directory or its runlog.jsonl)\n"
    "prints coverage by category beside TritorX's figures, pass@k, calls checked per\n"
    "overload and failure reasons, and exits 1 when any overload is not passing.\n"
    "An overload passes only when every recorded call of every dtype passed; when\n"
    "--max-calls or --check-timeout-s cut calls, a kernel that passed all it ran is\n"
    "'partial' (not written to the library, exit 1). --verbose prints each state\n"
    "transition and each feedback message as the loop makes them; the run ends with the\n"
    "failure taxonomy (every failed stage by class, beside TritorX's figures).\n";

std::vector<std::string> split_csv(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item.find("::") == std::string::npos ? "aten::" + item : item);
  return out;
}

// --verbose: each state transition on one line, and the feedback sent back to the model.
void print_progress_record(const nlohmann::json &r, std::mutex &io) {
  const std::string event = r.value("event", "");
  if (event != "transition" && event != "feedback" && event != "overload_start") return;
  std::lock_guard lock(io);
  const std::string who = r.value("overload", "");
  if (event == "overload_start") {
    std::cout << "-- " << who << " (provider " << r.value("provider", "") << ")\n" << std::flush;
    return;
  }
  const std::string where = who + " attempt " + std::to_string(r.value("attempt", 0)) + " dialog " +
                            std::to_string(r.value("dialog", 0)) + " call " +
                            std::to_string(r.value("call", 0));
  if (event == "transition") {
    std::cout << "   " << where << ": " << r.value("from", "") << " -> " << r.value("to", "");
    if (r.contains("reason")) std::cout << " (" << r.value("reason", "") << ")";
    std::cout << "\n" << std::flush;
    return;
  }
  std::cout << "   " << where << ": feedback to the model (" << r.value("kind", "")
            << ", failure class " << r.value("failure_class", "") << "):\n";
  std::istringstream text(r.value("text", ""));
  for (std::string line; std::getline(text, line);) std::cout << "   | " << line << "\n";
  std::cout << std::flush;
}

int report(const std::string &run) {
  fs::path p = run;
  if (fs::is_directory(p)) p /= "runlog.jsonl";
  try {
    const auto records = generator::read_runlog(p.string());
    auto outcomes = generator::outcomes_from_records(records);
    if (outcomes.empty()) {
      std::cerr << "opforge generate: " << p.string()
                << ": no overload_result records (not a generate run log?)\n";
      return kExitFailure;
    }
    std::cout << "run log " << p.string() << ": " << outcomes.size() << " overloads\n\n"
              << generator::format_report(outcomes) << "\n"
              << generator::format_taxonomy(generator::failure_taxonomy(records));
    // Exit 1 when any overload of the run is not passing (fail, partial, error): the
    // same rule as the run itself.
    size_t bad = 0;
    for (const auto &o : outcomes) bad += !o.passing() && o.result != "excluded";
    if (bad) std::cout << "\n" << bad << " overloads not passing (fail, partial or error)\n";
    return bad ? kExitFailure : kExitOk;
  } catch (const Error &e) {
    std::cerr << "opforge generate: error: " << Error::format(e.message(), [&] {
      auto c = e.context();
      if (c.file.empty()) c.file = p.string();
      return c;
    }()) << "\n";
    return kExitFailure;
  }
}

int run(const std::vector<std::string> &args) {
  OptionParser parser("generate", kUsage);
  parser.add()("ops", po::value<std::string>(),
               "comma-separated overloads (aten::add.Tensor,exp.default)")(
      "all", "every overload of the corpus")("category", po::value<std::string>(),
                                             "every overload of a category")(
      "report", po::value<std::string>(), "print the report of a run (directory or run log)")(
      "provider", po::value<std::string>()->default_value("inductor"),
      "inductor | openai | replay")("inductor-dir", po::value<std::string>(),
                                    "lowering table and templates (default generator/inductor)")(
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
      "OpInfo corpus")("executor", po::value<std::string>()->default_value("interp"),
                       "interp (IR interpreter) or chip")(
      "max-calls", po::value<int>()->default_value(0),
      "recorded calls verified per overload, spread over its dtypes (0: every recorded call; "
      "fewer makes a passing kernel partial, not pass)")(
      "check-timeout-s", po::value<double>()->default_value(120),
      "wall clock for the calls of one check, plus 0.25 s per call; calls past it are cut "
      "(partial)")("max-dialogs", po::value<int>(), "dialogs per attempt (default 3; inductor 1)")(
      "max-calls-per-dialog", po::value<int>(), "model calls per dialog (default 15; inductor 1)")(
      "max-wall-s", po::value<double>()->default_value(3600), "wall-clock limit per attempt")(
      "force", "regenerate overloads already in the library")(
      "verbose", "print every state transition and the feedback sent to the model as it happens");
  if (auto rc = parser.parse(args)) return *rc;
  const po::variables_map &vm = parser.vm();
  if (vm.count("report")) return report(vm["report"].as<std::string>());
  int selectors = static_cast<int>(vm.count("ops") + vm.count("all") + vm.count("category"));
  if (selectors != 1)
    return usage_error("generate", "give exactly one of --ops, --all, --category (or --report)");
  int k = vm["k"].as<int>(), jobs = vm["jobs"].as<int>();
  if (k < 1 || jobs < 1) return usage_error("generate", "--k and --jobs must be >= 1");
  if (vm["max-calls"].as<int>() < 0)
    return usage_error("generate", "--max-calls must not be negative (0: every recorded call)");
  if (!(vm["check-timeout-s"].as<double>() > 0))
    return usage_error("generate", "--check-timeout-s must be positive");

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

    auto table = std::make_shared<const generator::LoweringTable>(generator::LoweringTable::load(
        vm.count("inductor-dir") ? vm["inductor-dir"].as<std::string>()
                                 : generator::LoweringTable::default_dir()));
    std::unique_ptr<generator::Provider> provider;
    nlohmann::json provider_config = nlohmann::json::object();
    std::string pname = vm["provider"].as<std::string>();
    if (pname == "inductor") {
      std::map<std::string, std::string> schemas;
      for (const auto &o : overloads) schemas[o] = corpus.overload(o).schema;
      provider = generator::make_inductor_provider(table, std::move(schemas));
      provider_config = {{"dir", table->dir()}};
    } else if (pname == "openai") {
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
      return usage_error("generate",
                         "unknown --provider '" + pname + "' (inductor, openai, replay)");
    }

    fs::path out = vm["out"].as<std::string>();
    harness::GenerateOptions g;
    g.overloads = overloads;
    g.library_dir =
        vm.count("library") ? vm["library"].as<std::string>() : (out / "library").string();
    g.force = vm.count("force") > 0;
    g.jobs = jobs;
    const int max_calls = vm["max-calls"].as<int>();
    g.max_calls = max_calls == 0 ? SIZE_MAX : static_cast<size_t>(max_calls);
    g.run_timeout_s = vm["check-timeout-s"].as<double>();
    g.executor = harness::parse_executor_kind(vm["executor"].as<std::string>());
    g.table = table;
    // The inductor provider answers the same file every time: one call is the whole budget.
    const bool deterministic = pname == "inductor";
    g.loop.k = k;
    g.loop.seed = vm["seed"].as<uint64_t>();
    g.loop.budget.max_dialogs =
        vm.count("max-dialogs") ? vm["max-dialogs"].as<int>() : (deterministic ? 1 : 3);
    g.loop.budget.max_calls_per_dialog = vm.count("max-calls-per-dialog")
                                             ? vm["max-calls-per-dialog"].as<int>()
                                             : (deterministic ? 1 : 15);
    g.loop.budget.max_wall_s = vm["max-wall-s"].as<double>();

    fs::create_directories(g.library_dir);
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
                {"executor", vm["executor"].as<std::string>()},
                {"corpus", corpus.path()},
                {"library", g.library_dir}});

    std::mutex io;
    const bool verbose = vm.count("verbose") > 0;
    if (verbose) log.set_listener([&io](const nlohmann::json &r) { print_progress_record(r, io); });
    auto t0 = std::chrono::steady_clock::now();
    g.progress = [&](size_t d, size_t n, size_t passing) {
      double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      double eta = d ? el / static_cast<double>(d) * static_cast<double>(n - d) : 0;
      std::lock_guard lock(io);
      std::cerr << "\r[" << d << "/" << n << "] passing " << passing << "  elapsed "
                << static_cast<int>(el) << " s  eta " << static_cast<int>(eta) << " s   "
                << (verbose ? "\n" : "") << std::flush;
    };
    auto rows = harness::run_generation(corpus, *provider, templates, log, g);
    std::cerr << "\n";

    size_t w = 8, passing = 0, excluded = 0;
    for (const auto &r : rows) {
      w = std::max(w, r.overload.size());
      passing += r.passing();
      excluded += r.result == "excluded";
    }
    std::cout << std::left << std::setw(static_cast<int>(w) + 2) << "overload" << std::setw(18)
              << "category" << std::setw(10) << "result" << std::setw(10) << "passed"
              << std::setw(7) << "model" << std::setw(14) << "checked"
              << "reason\n";
    for (const auto &r : rows) {
      std::string checked =
          r.calls_checked >= 0 && r.calls_recorded >= 0
              ? std::to_string(r.calls_checked) + "/" + std::to_string(r.calls_recorded)
              : "-";
      std::cout << std::left << std::setw(static_cast<int>(w) + 2) << r.overload << std::setw(18)
                << r.category << std::setw(10) << r.result << std::setw(10)
                << (r.attempts ? std::to_string(r.passed) + "/" + std::to_string(r.attempts) : "-")
                << std::setw(7) << r.model_calls << std::setw(14) << checked
                << generator::cut_text(r.reason, 160) << "\n";
    }
    std::cout << "\n"
              << generator::format_report(rows) << "\n"
              << generator::format_taxonomy(
                     generator::failure_taxonomy(generator::read_runlog(log.path())));
    std::cout << "\npassing " << passing << " of " << rows.size() - excluded
              << " supportable overloads (" << excluded << " excluded); run log "
              << (out / "runlog.jsonl").string() << "; library " << g.library_dir << "\n";
    return passing + excluded == rows.size() ? kExitOk : kExitFailure;
  } catch (const Error &e) {
    std::cerr << "opforge generate: error: " << e.what() << "\n";
    return kExitFailure;
  }
}

CommandRegistrar reg(
    {"generate", "generate Triton kernels for ATen overloads (inductor templates, LLM, replay)",
     run});

}  // namespace
}  // namespace opforge::cli
