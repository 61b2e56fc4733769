//===- extract_test.cpp - code extraction from model replies, pass@k, run log ===//
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "opforge/generator/extract.h"
#include "opforge/generator/loop.h"
#include "opforge/generator/runlog.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::generator;

TEST(ExtractCode, TakesTheFencedPythonBlock) {
  std::string reply = "Sure.\n```python\nimport triton\n\ndef f():\n    pass\n```\nDone.";
  EXPECT_EQ(extract_code(reply), "import triton\n\ndef f():\n    pass\n");
}

TEST(ExtractCode, JoinsSeveralPythonBlocksAndSkipsOtherLanguages) {
  std::string reply =
      "```py\n# file: kernel.py\nA = 1\n```\nrun it with\n```bash\npython x.py\n```\n"
      "~~~~python\n# file: wrapper.py\nB = 2\n~~~~\n";
  EXPECT_EQ(extract_code(reply), "# file: kernel.py\nA = 1\n\n\n# file: wrapper.py\nB = 2\n");
}

TEST(ExtractCode, LongerFenceKeepsInnerFencesAndCrlfIsHandled) {
  std::string reply = "````python\r\nx = '''\r\n```\r\n'''\r\n````\r\n";
  EXPECT_EQ(extract_code(reply), "x = '''\n```\n'''\n");
}

TEST(ExtractCode, UnterminatedFinalFenceTakesTheRest) {
  EXPECT_EQ(extract_code("text\n```python\nx = 1\ny = 2"), "x = 1\ny = 2\n");
}

TEST(ExtractCode, BareTritonSourceIsTakenWholeButProseIsNot) {
  EXPECT_EQ(extract_code("import triton\n@triton.jit\ndef k(x):\n    pass\n"),
            "import triton\n@triton.jit\ndef k(x):\n    pass\n");
  EXPECT_EQ(extract_code("I cannot write this kernel."), "");
  EXPECT_EQ(extract_code("```json\n{\"a\": 1}\n```"), "");
}

TEST(PassAtK, MatchesTheUnbiasedEstimator) {
  EXPECT_DOUBLE_EQ(pass_at_k(10, 0, 1), 0.0);
  EXPECT_DOUBLE_EQ(pass_at_k(10, 10, 5), 1.0);
  EXPECT_NEAR(pass_at_k(10, 3, 1), 0.3, 1e-12);
  // 1 - C(7,2)/C(10,2) = 1 - 21/45
  EXPECT_NEAR(pass_at_k(10, 3, 2), 1.0 - 21.0 / 45.0, 1e-12);
  EXPECT_DOUBLE_EQ(pass_at_k(4, 2, 3), 1.0);  // n - c < k
}

TEST(RunLog, EveryRecordIsOnDiskBeforeAppendReturns) {
  auto path = (std::filesystem::temp_directory_path() /
               ("opforge-runlog-" + std::to_string(::getpid()) + ".jsonl"))
                  .string();
  std::filesystem::remove(path);
  RunLog log(path);
  log.append({{"event", "a"}, {"text", "line\nbreak"}});
  EXPECT_EQ(read_runlog(path).size(), 1u);  // readable while the log is still open
  log.append({{"event", "b"}});
  auto recs = read_runlog(path);
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0]["text"], "line\nbreak");
  EXPECT_EQ(recs[1]["seq"], 1);
  EXPECT_TRUE(recs[1].contains("time"));
  EXPECT_FALSE(stable_record(recs[1]).contains("time"));
}

TEST(RunLog, BadRecordIsAnErrorNamingFileAndLine) {
  auto path = (std::filesystem::temp_directory_path() /
               ("opforge-runlog-bad-" + std::to_string(::getpid()) + ".jsonl"))
                  .string();
  std::ofstream(path) << "{\"event\":\"a\"}\n{not json\n";
  try {
    read_runlog(path);
    FAIL() << "expected an error";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().file, path);
    EXPECT_EQ(e.context().line, 2);
  }
}
