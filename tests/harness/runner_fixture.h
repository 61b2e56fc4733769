// runner_fixture.h - temporary directories, scenario files and `opforge` runs for runner tests.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include "opforge/support/python.h"
#include <string>

#ifndef OPFORGE_EXE
#define OPFORGE_EXE ""
#endif

namespace opforge::runner_test {

class RunnerDir : public ::testing::Test {
 public:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(OPFORGE_EXE))
        << "opforge binary not built: " << OPFORGE_EXE;
    dir_ = std::filesystem::temp_directory_path() /
           ("opforge-rt-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path write_json(const std::string &name, const nlohmann::json &doc) {
    std::filesystem::path p = dir_ / name;
    std::ofstream(p) << doc.dump(2);
    return p;
  }
  // Runs `opforge ARGS` with stdout to out_, stderr to err_; returns the exit status.
  int opforge(const std::string &args, const std::string &env = "") {
    std::string cmd = env + " " + std::string(OPFORGE_EXE) + " " + args + " >" +
                      (dir_ / "stdout").string() + " 2>" + (dir_ / "stderr").string();
    int st = std::system(cmd.c_str());
    out_ = slurp(dir_ / "stdout");
    err_ = slurp(dir_ / "stderr");
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  }
  static std::string slurp(const std::filesystem::path &p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // Runs a Python snippet with the project venv's python; returns its exit status, output in py_.
  int python(const std::string &code, const std::string &args) {
    std::ofstream(dir_ / "check.py") << code;
    std::string py = opforge::project_python();
    std::string cmd = py + " " + (dir_ / "check.py").string() + " " + args + " 2>&1";
    FILE *p = ::popen(cmd.c_str(), "r");
    if (!p) return -1;
    char buf[4096];
    py_.clear();
    while (fgets(buf, sizeof buf, p)) py_ += buf;
    int st = ::pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  }

  std::filesystem::path dir_;
  std::string out_, err_, py_;
};

}  // namespace opforge::runner_test
