// runner_hostile_input_tests.cpp - hostile input files end in exit status 1 or 2 with a one-line
// error naming file and field, never a signal: nested JSON in arch configs, scenarios and a results
// file's axis_values, config values at the edge of their range, damaged results files.
#include <fcntl.h>
#include <hdf5.h>
#include <unistd.h>

#include "opforge/support/arch_config.h"
#include "opforge/support/config.h"
#include "opforge/support/h5store.h"
#include "opforge/support/units.h"
#include "runner_fixture.h"

using namespace opforge;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

class HostileInput : public runner_test::RunnerDir {
 protected:
  // Exit status 1 or 2 and exactly one line on stderr, naming `what`.
  void expect_one_line_error(int rc, const std::string &what, const std::string &context) {
    EXPECT_TRUE(rc == 1 || rc == 2) << context << ": exit status " << rc << "\n" << err_;
    std::string err = err_;
    while (!err.empty() && err.back() == '\n') err.pop_back();
    // A usage error (exit status 2) may add the CLI's "usage: see ..." hint.
    if (size_t hint = err.rfind("\nusage: see "); hint != std::string::npos) err.resize(hint);
    EXPECT_EQ(err.find('\n'), std::string::npos) << context << ": more than one line:\n" << err_;
    EXPECT_NE(err.find(what), std::string::npos) << context << ": no '" << what << "' in " << err_;
    EXPECT_LT(err.size(), 2000u) << context;
  }

  fs::path write_text(const std::string &name, const std::string &text) {
    fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p;
  }

  // A two-point results file made by a real sweep of spin.S on tiny.
  fs::path make_results() {
    json spin = {{"name", "spin"},
                 {"kind", "asm"},
                 {"path", std::string(OPFORGE_SOURCE_DIR) + "/tests/harness/runner_kernels/spin.S"},
                 {"grid", "per_pe"},
                 {"args", {50}}};
    auto sc = write_json("s.json", {{"name", "hostile"},
                                    {"arch", "tiny"},
                                    {"sweep", json::parse(R"([{"field": "sram.banks",
                                                               "values": [2, 4]}])")},
                                    {"workloads", {spin}}});
    fs::path out = dir_ / "r.h5";
    EXPECT_EQ(opforge("sweep " + sc.string() + " --out " + out.string()), 0) << err_;
    return out;
  }
};

std::string nested_arrays(size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

TEST_F(HostileInput, DeeplyNestedArchConfigIsAnError) {
  auto p = write_text("deep.json",
                      "{\"extends\": \"tiny\",\n \"sources\": " + nested_arrays(300000) + "}");
  expect_one_line_error(opforge("config show --arch " + p.string()), p.string() + ":2:", "arch");
  EXPECT_NE(err_.find("nested deeper than"), std::string::npos) << err_;
  auto big = write_text("big.json", "{\"extends\": \"tiny\", \"sram\": {\"size_bytes\": 1e99999}}");
  expect_one_line_error(opforge("config show --arch " + big.string()), "/sram/size_bytes",
                        "overflow");
  EXPECT_NE(err_.find(big.string()), std::string::npos) << err_;
  EXPECT_EQ(err_.find("internal error"), std::string::npos) << err_;
}

TEST_F(HostileInput, DeeplyNestedScenarioIsAnError) {
  auto p = write_text("deep.json", "{\"name\": \"x\", \"arch\": \"tiny\", \"workloads\": " +
                                       nested_arrays(300000) + "}");
  expect_one_line_error(opforge("sweep " + p.string() + " --out " + (dir_ / "o.h5").string()),
                        p.string() + ":1:", "scenario");
  EXPECT_NE(err_.find("nested deeper than"), std::string::npos) << err_;
}

TEST_F(HostileInput, DeeplyNestedAxisValuesInAResultsFileAreAnError) {
  fs::path r = make_results();
  {
    auto f = h5::File::open(r, h5::File::Mode::ReadWrite);
    f.set_attr("/points/0", "axis_values", nested_arrays(300000));
  }
  expect_one_line_error(opforge("report " + r.string()), r.string(), "report");
  EXPECT_NE(err_.find("axis_values"), std::string::npos) << err_;
}

// Every numeric architecture field at the least and the greatest value its
// schema allows either runs a kernel or is refused with an error naming the
// field: no divide by zero, no allocation failure, no hang.
TEST_F(HostileInput, EveryConfigFieldAtTheEdgeOfItsRangeRunsOrIsRefused) {
  const std::string call =
      "run '" + std::string(OPFORGE_SOURCE_DIR) +
      "/generator/library/aten/exp.py' --call 'exp(randn(200))' --arch tiny --timing lt";
  for (const auto &leaf : arch_schema().leaves()) {
    const FieldSpec &spec = *leaf.spec;
    for (const auto &bound : {spec.min, spec.max}) {
      if (!bound) continue;
      std::string v = spec.is_whole() ? std::to_string(static_cast<uint64_t>(*bound))
                                      : units::format_number(*bound);
      std::string ctx = leaf.dotted_path + "=" + v;
      int rc = opforge(call + " --set " + ctx, "ulimit -v 8000000; timeout 60");
      // A refused value is a one-line error; a kernel that outruns the watchdog
      // (latencies of 10^9 cycles) is reported with its source line.
      EXPECT_TRUE(rc == 0 || rc == 1 || rc == 2) << ctx << ": exit status " << rc << "\n" << err_;
      EXPECT_EQ(err_.find("internal error"), std::string::npos) << ctx << ": " << err_;
    }
  }
}

TEST_F(HostileInput, ZeroSramIsRefusedAtLoadNamingTheField) {
  expect_one_line_error(opforge("config show --arch tiny --set sram.size_bytes=0"),
                        "sram.size_bytes': value 0 bytes out of range", "--set");
  auto p = write_text("zero.json", R"({"extends": "tiny", "sram": {"size_bytes": 0}})");
  expect_one_line_error(opforge("config show --arch " + p.string()),
                        p.string() + ": /sram/size_bytes: value 0 bytes out of range", "file");
}

// One changed byte at each of many offsets of a real results file: `report`
// and `trace` end with an error naming the file (or succeed, where the byte
// did not matter), never with a signal.
// One changed byte in a global heap reference can read back as a null variable-length
// string; H5::Attribute::read then called strlen(NULL) (CI: SIGSEGV in 'report').
TEST_F(HostileInput, NullStringAttributeInAResultsFileIsAnErrorNamingIt) {
  fs::path good = make_results();
  {
    hid_t f = H5Fopen(good.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    ASSERT_GE(H5Adelete_by_name(f, "/meta", "scenario_name", H5P_DEFAULT), 0);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    hid_t s = H5Screate(H5S_SCALAR);
    hid_t a =
        H5Acreate_by_name(f, "/meta", "scenario_name", t, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(a, 0);
    const char *null_string = nullptr;
    ASSERT_GE(H5Awrite(a, t, &null_string), 0);
    H5Aclose(a);
    H5Sclose(s);
    H5Tclose(t);
    H5Fclose(f);
  }
  expect_one_line_error(opforge("report " + good.string()), good.string(), "null string");
  EXPECT_NE(err_.find("scenario_name"), std::string::npos) << err_;
}

// A 1 MB value in an input file is not echoed whole: the error stays one short line
// that still names the file and the field (it was a 1-2 MB line).
TEST_F(HostileInput, AMegabyteValueIsElidedInTheErrorLine) {
  const std::string huge(1000000, 'x');
  auto key = write_json("key.json", {{"extends", "tiny"}, {huge, 1}});
  expect_one_line_error(opforge("config show --arch " + key.string()), key.string(), "key");
  EXPECT_NE(err_.find("bytes ...]"), std::string::npos) << err_.substr(0, 500);
  auto val = write_json("val.json", {{"extends", "tiny"}, {"sram", {{"size_bytes", huge}}}});
  expect_one_line_error(opforge("config show --arch " + val.string()), "/sram/size_bytes", "value");
  auto ext = write_json("ext.json", {{"extends", huge}});
  expect_one_line_error(opforge("config show --arch " + ext.string()), ext.string(), "extends");
  auto sc = write_json(
      "sc.json",
      {{"name", "s"}, {"arch", "tiny"}, {"workloads", {{{"name", "w"}, {"kind", huge}}}}});
  expect_one_line_error(opforge("sweep " + sc.string() + " --out " + (dir_ / "o.h5").string()),
                        sc.string(), "scenario");
}

// Running out of host memory names what was being allocated, not 'internal error:
// std::bad_alloc'.
TEST_F(HostileInput, OutOfMemoryNamesTheAllocation) {
  const std::string kernel =
      std::string(OPFORGE_SOURCE_DIR) + "/generator/library/aten/_softmax.py";
  int rc = opforge("run " + kernel + " --call '_softmax(randn(40000, 40000), 1, False)'",
                   "ulimit -v 3000000; timeout 60");
  expect_one_line_error(rc, "out of memory", "oom");
  EXPECT_NE(err_.find("[40000, 40000]"), std::string::npos) << err_;
  EXPECT_EQ(err_.find("internal error"), std::string::npos) << err_;
}

TEST_F(HostileInput, DamagedResultsFileIsAnErrorNotACrash) {
  fs::path good = make_results();
  const auto size = fs::file_size(good);
  std::string bytes = slurp(good);
  int damaged_reads = 0;
  for (uint64_t i = 0; i < 48; ++i) {
    uint64_t off = (i * 2654435761ull) % size;  // deterministic, spread over the file
    std::string copy = bytes;
    copy[off] = static_cast<char>(copy[off] ^ (0x5a + i));
    fs::path bad = dir_ / "bad.h5";
    std::ofstream(bad, std::ios::binary | std::ios::trunc) << copy;
    const std::string ctx = "byte " + std::to_string(off) + " of " + std::to_string(size);
    int rc = opforge("report " + bad.string(), "ulimit -v 8000000; timeout 60");
    if (rc != 0) {
      ++damaged_reads;
      expect_one_line_error(rc, bad.string(), ctx + ": report");
    }
  }
  EXPECT_GT(damaged_reads, 0);
}

}  // namespace
