//===- h5store_test.cpp - HDF5 results files: round trip, h5py, kill -9 ----===//
#include "opforge/support/h5store.h"

#include "opforge/support/python.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::h5;
using nlohmann::json;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

class H5Store : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("opforge_h5_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

// Run a shell command, returning its exit status and (merged) output.
std::pair<int, std::string> run(const std::string &cmd) {
  std::string out;
  FILE *p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return {-1, "popen failed"};
  char buf[512];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// The project venv's python (h5py from requirements.txt).
std::string python3() { return opforge::project_python(); }

const std::vector<Column> kColumns = {
    {"point", ColumnType::Int64}, {"cycles", ColumnType::Float64}, {"status", ColumnType::String}};

TEST_F(H5Store, RoundTripsAttributesTablesAndDatasets) {
  fs::path path = dir_ / "results.h5";
  json config = {{"pe_grid", {{"rows", 2}, {"cols", 2}}}, {"sram", {{"mode", "cache"}}}};
  {
    File f = File::create(path);
    f.create_group("/meta");
    f.set_attr("/meta", "version", int64_t{3});
    f.set_attr("/meta", "scale", 1.5);
    f.set_attr("/meta", "scenario", "tiny sweep \xC3\xBC");
    f.set_json_attr("/meta", "config_json", config);
    f.set_attr("/meta", "version", int64_t{4});  // replacing is fine
    Table t = f.create_table("/summary", kColumns, {.chunk_rows = 2, .deflate_level = 6});
    t.append(Row{int64_t{0}, 10.5, std::string("ok")});
    t.append({Row{int64_t{1}, int64_t{20}, std::string("timeout")},
              Row{int64_t{2}, 30.25, std::string("")}});
    EXPECT_EQ(t.rows(), 3u);
    std::vector<double> trace{1, 2, 3, 4, 5, 6};
    f.write_dataset("/points/0/trace", {3, 2}, std::span<const double>(trace));
    std::vector<int64_t> ids{7, 8, 9};
    f.write_dataset("/points/0/ids", {3}, std::span<const int64_t>(ids));
    Series s = f.create_series("/points/0/counters", 2, ColumnType::Int64);
    for (int64_t i = 0; i < 5; ++i) s.append(std::vector<int64_t>{i, i * i});
    f.set_attr("/points/0/counters", "names", "a,b");
  }
  File f = File::open(path);
  EXPECT_EQ(f.list("/"), (std::vector<std::string>{"meta", "points", "summary"}));
  EXPECT_EQ(f.list("/points/0"), (std::vector<std::string>{"counters", "ids", "trace"}));
  EXPECT_EQ(f.kind("/points"), ObjectKind::Group);
  EXPECT_EQ(f.kind("/summary"), ObjectKind::Dataset);
  EXPECT_EQ(f.kind("/points/7/x"), ObjectKind::None);
  EXPECT_EQ(f.attr_names("/meta"),
            (std::vector<std::string>{"config_json", "scale", "scenario", "version"}));
  EXPECT_EQ(f.attr_int("/meta", "version"), 4);
  EXPECT_DOUBLE_EQ(f.attr_double("/meta", "scale"), 1.5);
  EXPECT_EQ(f.attr_string("/meta", "scenario"), "tiny sweep \xC3\xBC");
  EXPECT_EQ(f.attr_json("/meta", "config_json"), config);
  Table t = f.open_table("/summary");
  EXPECT_EQ(t.columns(), kColumns);
  EXPECT_EQ(t.rows(), 3u);
  EXPECT_EQ(f.read_int_column("/summary", "point"), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(f.read_double_column("/summary", "cycles"), (std::vector<double>{10.5, 20, 30.25}));
  EXPECT_EQ(f.read_string_column("/summary", "status"),
            (std::vector<std::string>{"ok", "timeout", ""}));
  auto trace = f.read_doubles("/points/0/trace");
  EXPECT_EQ(trace.dims, (std::vector<uint64_t>{3, 2}));
  EXPECT_EQ(trace.values, (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(f.read_ints("/points/0/ids").values, (std::vector<int64_t>{7, 8, 9}));
  auto counters = f.read_ints("/points/0/counters");
  EXPECT_EQ(counters.dims, (std::vector<uint64_t>{5, 2}));
  EXPECT_EQ(counters.values, (std::vector<int64_t>{0, 0, 1, 1, 2, 4, 3, 9, 4, 16}));
  EXPECT_EQ(f.open_series("/points/0/counters").rows(), 5u);
}

TEST_F(H5Store, ReopenedFileAppendsToExistingTable) {
  fs::path path = dir_ / "grow.h5";
  {
    File f = File::create(path);
    f.create_table("/t", kColumns).append(Row{int64_t{1}, 1.0, std::string("a")});
  }
  {
    File f = File::open(path, File::Mode::ReadWrite);
    f.open_table("/t").append(Row{int64_t{2}, 2.0, std::string("b")});
  }
  File f = File::open(path);
  EXPECT_EQ(f.read_string_column("/t", "status"), (std::vector<std::string>{"a", "b"}));
}

TEST_F(H5Store, LargeTablesAreCompressed) {
  fs::path path = dir_ / "big.h5";
  {
    File f = File::create(path);
    Table t =
        f.create_table("/t", {{"v", ColumnType::Int64}}, {.chunk_rows = 4096, .deflate_level = 6});
    std::vector<Row> rows;
    for (int64_t i = 0; i < 20000; ++i) rows.push_back(Row{int64_t{i % 4}});
    t.append(rows);
  }
  EXPECT_LT(fs::file_size(path), 20000u * 8 / 4);  // repetitive data compresses well
  EXPECT_EQ(File::open(path).read_int_column("/t", "v").size(), 20000u);
}

TEST_F(H5Store, ErrorsNameFileAndObject) {
  fs::path path = dir_ / "e.h5";
  std::string p = path.string();
  {
    File f = File::create(path);
    f.create_table("/summary", kColumns);
    f.create_group("/g");
    EXPECT_THAT(error_of([&] { f.open_table("/nope"); }),
                HasSubstr(p + ": /nope: no such dataset"));
    EXPECT_THAT(error_of([&] { f.attr_int("/g", "missing"); }),
                HasSubstr(p + ": /g: no attribute 'missing'"));
    EXPECT_THAT(error_of([&] { f.attr_int("/x/y", "a"); }),
                HasSubstr(p + ": /x/y: no such group or dataset"));
    EXPECT_THAT(error_of([&] { f.open_table("/summary").append(Row{int64_t{1}}); }),
                HasSubstr(p + ": /summary: row has 1 values, table has 3 columns"));
    EXPECT_THAT(error_of([&] {
                  f.open_table("/summary").append(Row{std::string("x"), 1.0, std::string("s")});
                }),
                HasSubstr("column 'point' expects int64"));
    EXPECT_THAT(error_of([&] { f.read_int_column("/summary", "status"); }),
                HasSubstr("holds string, not int64"));
    EXPECT_THAT(error_of([&] { f.read_int_column("/summary", "zzz"); }),
                HasSubstr("no column 'zzz'"));
    EXPECT_THAT(error_of([&] { f.create_table("/summary", kColumns); }),
                HasSubstr("/summary: already exists"));
    EXPECT_THAT(error_of([&] {
                  f.create_table("/t2", {{"a", ColumnType::Int64}, {"a", ColumnType::Int64}});
                }),
                HasSubstr("duplicate column 'a'"));
    std::vector<double> three{1, 2, 3};
    EXPECT_THAT(error_of([&] {
                  f.write_dataset("/d", {2, 2}, std::span<const double>(three));
                }),
                HasSubstr("/d: dimensions hold 4 values but 3 were given"));
    EXPECT_THAT(error_of([&] { f.create_group("/summary/x"); }),
                HasSubstr("/summary: exists and is a dataset"));
    f.set_attr("/g", "s", "text");
    EXPECT_THAT(error_of([&] { f.attr_json("/g", "s"); }), HasSubstr("not valid JSON"));
    EXPECT_THAT(error_of([&] { f.attr_double("/g", "s"); }), HasSubstr("is not a number"));
  }
  File ro = File::open(path);
  EXPECT_THAT(error_of([&] { ro.create_group("/h"); }),
              HasSubstr(p + ": /h: file is open read-only"));
  EXPECT_THAT(error_of([&] { File::open(dir_ / "missing.h5"); }),
              HasSubstr("missing.h5: no such file"));
  std::ofstream(dir_ / "text.h5") << "not an HDF5 file\n";
  std::string bad = error_of([&] { File::open(dir_ / "text.h5"); });
  EXPECT_THAT(bad, HasSubstr("text.h5: open file failed"));
  EXPECT_THAT(error_of([&] { File::create(dir_ / "no_dir" / "x.h5"); }),
              HasSubstr("x.h5: create file failed"));
}

TEST_F(H5Store, FileIsReadableWithH5pyAlone) {
  fs::path path = dir_ / "py.h5";
  json config = {{"clock_ghz", 1.35}, {"name", "tiny"}, {"list", {1, 2, 3}}};
  {
    File f = File::create(path);
    f.create_group("/meta");
    f.set_attr("/meta", "version", int64_t{1});
    f.set_attr("/meta", "scale", 0.25);
    f.set_attr("/meta", "scenario", "sweep \xC3\xA9t\xC3\xA9");
    f.set_json_attr("/meta", "config_json", config);
    Table t = f.create_table("/summary", kColumns, {.chunk_rows = 2, .deflate_level = 4});
    for (int64_t i = 0; i < 5; ++i)
      t.append(Row{i, 0.5 * static_cast<double>(i), "status " + std::to_string(i)});
    std::vector<double> trace{0.5, 1.5, 2.5, 3.5, 4.5, 5.5};
    f.write_dataset("/points/0/trace", {2, 3}, std::span<const double>(trace));
    Series s = f.create_series("/points/0/counters", 3, ColumnType::Int64);
    s.append(std::vector<int64_t>{1, 2, 3});
    s.append(std::vector<int64_t>{4, 5, -6});
  }
  json expected = {
      {"attrs",
       {{"/meta", {{"version", 1}, {"scale", 0.25}, {"scenario", "sweep \xC3\xA9t\xC3\xA9"}}}}},
      {"json_attrs", {{"/meta", {{"config_json", config}}}}},
      {"tables",
       {{"/summary",
         {{"point", {0, 1, 2, 3, 4}},
          {"cycles", {0.0, 0.5, 1.0, 1.5, 2.0}},
          {"status", {"status 0", "status 1", "status 2", "status 3", "status 4"}}}}}},
      {"datasets",
       {{"/points/0/trace", {{"shape", {2, 3}}, {"values", {0.5, 1.5, 2.5, 3.5, 4.5, 5.5}}}},
        {"/points/0/counters", {{"shape", {2, 3}}, {"values", {1, 2, 3, 4, 5, -6}}}}}},
      {"groups", {{"/", {"meta", "points", "summary"}}, {"/points/0", {"counters", "trace"}}}}};
  fs::path exp_path = dir_ / "expected.json";
  std::ofstream(exp_path) << expected.dump(2);
  auto [rc, out] = run(python3() + " " OPFORGE_SOURCE_DIR "/tests/support/h5py_check.py " +
                       path.string() + " " + exp_path.string());
  EXPECT_EQ(rc, 0) << out;
  EXPECT_THAT(out, HasSubstr("ok: 11 checks"));

  // The checker does catch a mismatch.
  expected["tables"]["/summary"]["point"][4] = 5;
  std::ofstream(exp_path) << expected.dump(2);
  auto [rc2, out2] = run(python3() + " " OPFORGE_SOURCE_DIR "/tests/support/h5py_check.py " +
                         path.string() + " " + exp_path.string());
  EXPECT_EQ(rc2, 1) << out2;
  EXPECT_THAT(out2, HasSubstr("column point"));
}

// A child appends rows as fast as it can, reporting each completed append
// through a pipe; after N reports it is SIGKILLed (most likely in the middle
// of the next append). Every completed row must then be readable.
TEST_F(H5Store, KilledWriterLeavesCompletedAppendsReadable) {
  constexpr int kAppendsBeforeKill = 60;
  for (int round = 0; round < 3; ++round) {
    fs::path path = dir_ / ("killed" + std::to_string(round) + ".h5");
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(fds[0]);
      try {
        File f = File::create(path);
        f.set_json_attr("/", "meta_json", json{{"round", round}});
        Table t = f.create_table("/summary", kColumns, {.chunk_rows = 16, .deflate_level = 4});
        Series s = f.create_series("/trace", 2, ColumnType::Float64,
                                   {.chunk_rows = 8, .deflate_level = 4});
        for (int64_t i = 0;; ++i) {
          t.append(Row{i, 1.5 * static_cast<double>(i), "row " + std::to_string(i)});
          s.append(std::vector<double>{static_cast<double>(i), -static_cast<double>(i)});
          if (write(fds[1], &i, sizeof i) != sizeof i) _exit(4);
        }
      } catch (...) {
        _exit(3);
      }
    }
    close(fds[1]);
    int64_t last = -1;
    int reports = 0;
    while (reports < kAppendsBeforeKill && read(fds[0], &last, sizeof last) == sizeof last)
      ++reports;
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    close(fds[0]);
    ASSERT_EQ(reports, kAppendsBeforeKill) << "child stopped early, status " << status;
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

    File f = File::open(path);
    EXPECT_EQ(f.attr_json("/", "meta_json")["round"], round);
    auto points = f.read_int_column("/summary", "point");
    auto cycles = f.read_double_column("/summary", "cycles");
    auto status_col = f.read_string_column("/summary", "status");
    ASSERT_GE(points.size(), static_cast<size_t>(kAppendsBeforeKill));
    for (size_t i = 0; i < points.size(); ++i) {
      EXPECT_EQ(points[i], static_cast<int64_t>(i));
      EXPECT_EQ(cycles[i], 1.5 * static_cast<double>(i));
      EXPECT_EQ(status_col[i], "row " + std::to_string(i));
    }
    auto trace = f.read_doubles("/trace");
    ASSERT_GE(trace.dims.at(0), static_cast<uint64_t>(kAppendsBeforeKill));
    for (uint64_t i = 0; i < trace.dims[0]; ++i)
      EXPECT_EQ(trace.values[2 * i], static_cast<double>(i));
    // h5py reads it too.
    auto [rc, out] =
        run(python3() +
            " -c \"import h5py,sys; f=h5py.File(sys.argv[1],'r'); "
            "assert len(f['summary']) >= " +
            std::to_string(kAppendsBeforeKill) + "; print('h5py ok')\" " + path.string());
    EXPECT_EQ(rc, 0) << out;
  }
}

}  // namespace
