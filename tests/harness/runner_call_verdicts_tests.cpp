// runner_call_verdicts_tests.cpp - one verdict per recorded call, whichever command runs it.
//
// The borderline kernels of tests/harness/verdict_kernels (README.md there) each sit on a seam
// where the commands used to judge differently: strides kept or made dense, an OpInfo's
// tolerance override widening or replacing the defaults, mutated inputs checked or not. Each
// command runs them on the chip against the same corpus; per recorded call, `opforge
// validate`, `opforge sweep` and `opforge run --corpus-call` must agree, and `opforge
// generate` (through its openai provider on loopback) must accept a kernel exactly when
// every call passes.
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <chrono>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "corpus_fixture.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/results.h"
#include "opforge/support/h5store.h"
#include "opforge/support/python.h"
#include "runner_fixture.h"

using namespace opforge;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path kKernels = fs::path(OPFORGE_SOURCE_DIR) / "tests/harness/verdict_kernels";
const std::vector<std::string> kOverloads = {"aten::mm", "aten::bmm", "aten::bitwise_and_.Tensor",
                                             "aten::exp"};

// "aten::mm float32 #61" for every recorded call of `overload`, in the corpus's order.
std::vector<std::string> call_keys(const harness::Corpus &corpus, const std::string &overload) {
  std::vector<std::string> keys;
  for (const auto &c : corpus.calls(overload, std::nullopt))
    keys.push_back(overload + " " + std::string(dtype_name(c.dtype)) + " #" +
                   std::to_string(c.index));
  return keys;
}

class CallVerdicts : public runner_test::RunnerDir {
 protected:
  // The loopback endpoint answering with the borderline kernels; killed in TearDown.
  int start_endpoint() {
    const fs::path port_file = dir_ / "port";
    server_ = ::fork();
    if (server_ == 0) {
      const std::string py = project_python();
      const std::string script = (kKernels / "serve_kernels.py").string();
      ::execl(py.c_str(), py.c_str(), script.c_str(), kKernels.c_str(), port_file.c_str(),
              static_cast<char *>(nullptr));
      ::_exit(127);
    }
    for (int i = 0; i < 300 && !fs::exists(port_file); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return fs::exists(port_file) ? std::stoi(slurp(port_file)) : 0;
  }
  void TearDown() override {
    if (server_ > 0) {
      ::kill(server_, SIGTERM);
      ::waitpid(server_, nullptr, 0);
    }
    RunnerDir::TearDown();
  }
  pid_t server_ = -1;
};

TEST_F(CallVerdicts, EveryCommandGivesTheSameVerdictForEveryRecordedCall) {
  const std::string corpus_path = test::small_corpus();
  harness::Corpus corpus = harness::Corpus::open(corpus_path);
  std::map<std::string, std::vector<std::string>> keys;  // per overload, in corpus order
  std::string ops;
  for (const auto &o : kOverloads) {
    keys[o] = call_keys(corpus, o);
    ASSERT_FALSE(keys[o].empty()) << o << " has no calls in " << corpus_path;
    ops += (ops.empty() ? "" : ",") + o;
  }

  // validate: the failing calls, from its results file.
  const fs::path v = dir_ / "validate.h5";
  opforge("validate --executor chip --arch tiny --library " + kKernels.string() + " --corpus " +
          corpus_path + " --ops " + ops + " --out " + v.string());
  ASSERT_TRUE(fs::exists(v)) << err_ << out_;
  std::set<std::string> validate_failed;
  {
    h5::File f = h5::File::open(v.string());
    auto ov = f.read_string_column("/validate/failures", "overload");
    auto dt = f.read_string_column("/validate/failures", "dtype");
    auto ix = f.read_int_column("/validate/failures", "index");
    for (size_t i = 0; i < ov.size(); ++i)
      validate_failed.insert(ov[i] + " " + dt[i] + " #" + std::to_string(ix[i]));
  }

  // sweep: one corpus workload per overload, a record per call in the corpus's order.
  json workloads = json::array();
  for (const auto &o : kOverloads)
    workloads.push_back({{"name", o.substr(6)},
                         {"kind", "corpus"},
                         {"path", corpus_path},
                         {"library", kKernels.string()},
                         {"ops", {o}}});
  const fs::path sc = write_json("s.json", {{"name", "verdicts"},
                                            {"arch", "tiny"},
                                            {"timing", "functional"},
                                            {"timeout_s", 300},
                                            {"workloads", workloads}});
  const fs::path r = dir_ / "sweep.h5";
  opforge("sweep " + sc.string() + " --out " + r.string());
  std::set<std::string> sweep_failed;
  for (size_t w = 0; w < kOverloads.size(); ++w) {
    harness::PointResult p = harness::read_result_point(r, w);
    const auto &k = keys[kOverloads[w]];
    ASSERT_EQ(p.ops.size(), k.size()) << kOverloads[w] << ": " << p.reason << err_;
    for (size_t i = 0; i < k.size(); ++i)
      if (p.ops[i].status != "ok") sweep_failed.insert(k[i]);
  }

  // run --corpus-call: one line per call.
  std::set<std::string> run_failed;
  const std::regex line(R"(^(aten::\S+ \w+ #\d+): (ok|FAIL.*)$)");
  for (const auto &o : kOverloads) {
    const fs::path file = kKernels / (o.substr(6) + ".py");
    opforge("run " + file.string() + " --executor chip --arch tiny --corpus " + corpus_path +
            " --corpus-call " + o);
    std::istringstream in(out_);
    size_t lines = 0;
    for (std::string l; std::getline(in, l);) {
      std::smatch m;
      if (!std::regex_match(l, m, line)) continue;
      ++lines;
      if (m[2] != "ok") run_failed.insert(m[1]);
    }
    EXPECT_EQ(lines, keys[o].size()) << out_ << err_;
  }

  // The kernels are borderline, not broken: some calls pass and some fail.
  size_t total = 0;
  for (const auto &[o, k] : keys) total += k.size();
  EXPECT_GT(validate_failed.size(), 0u);
  EXPECT_LT(validate_failed.size(), total);
  EXPECT_EQ(sweep_failed, validate_failed);
  EXPECT_EQ(run_failed, validate_failed);

  // generate (openai provider, loopback): a kernel is accepted exactly when every call passes.
  const int port = start_endpoint();
  ASSERT_GT(port, 0) << "loopback endpoint did not start";
  const fs::path out = dir_ / "gen";
  opforge("generate --provider openai --base-url http://127.0.0.1:" + std::to_string(port) +
              "/v1 --model loopback --api-key-env OPFORGE_VERDICTS_KEY --executor chip "
              "--max-calls 0 --max-dialogs 1 --max-calls-per-dialog 1 --corpus " +
              corpus_path + " --ops " + ops + " --out " + out.string(),
          "OPFORGE_VERDICTS_KEY=unused");
  for (const auto &o : kOverloads) {
    bool all_pass = true;
    for (const auto &k : keys[o]) all_pass &= !validate_failed.count(k);
    EXPECT_EQ(fs::exists(out / "library" / (o.substr(6) + ".py")), all_pass) << o << "\n"
                                                                             << out_ << err_;
  }
  // Each seam shows: mm and exp pass every call, bmm and bitwise_and_ fail some.
  auto failed_in = [&](const std::string &o) {
    size_t n = 0;
    for (const auto &k : keys[o]) n += validate_failed.count(k);
    return n;
  };
  EXPECT_EQ(failed_in("aten::mm"), 0u);
  EXPECT_EQ(failed_in("aten::exp"), 0u);
  EXPECT_GT(failed_in("aten::bmm"), 0u);
  EXPECT_GT(failed_in("aten::bitwise_and_.Tensor"), 0u);
}

}  // namespace

namespace {

using CorpusCallInput = runner_test::RunnerDir;

// `run --corpus-call` selectors: a bad dtype or index is a usage error naming it, a call the
// corpus does not hold is an error naming the selector and the corpus.
TEST_F(CorpusCallInput, BadSelectorsAreErrorsNamingWhatIsWrong) {
  const std::string corpus = test::small_corpus();
  const std::string run = "run " + (kKernels / "mm.py").string() + " --arch tiny --corpus " +
                          corpus + " --corpus-call ";
  EXPECT_EQ(opforge(run + "aten::mm:float99"), 2);
  EXPECT_NE(err_.find("unknown dtype 'float99'"), std::string::npos) << err_;
  EXPECT_EQ(opforge(run + "aten::mm:float32:x"), 2);
  EXPECT_NE(err_.find("INDEX must be a call index after a dtype, got 'x'"), std::string::npos)
      << err_;
  EXPECT_EQ(opforge(run + "aten::mm:float32:99999"), 1);
  EXPECT_NE(err_.find("no recorded call aten::mm:float32:99999 in corpus"), std::string::npos)
      << err_;
  EXPECT_EQ(opforge(run + "aten::no_such_op"), 1);
  EXPECT_NE(err_.find("overload aten::no_such_op has no recorded calls"), std::string::npos)
      << err_;
  EXPECT_EQ(opforge(run + "aten::mm --call 'mm(randn(2, 2), randn(2, 2))'"), 2);
  EXPECT_NE(err_.find("--corpus-call takes neither --call nor --check"), std::string::npos) << err_;
}

}  // namespace
