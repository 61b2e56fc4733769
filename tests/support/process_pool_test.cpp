//===- process_pool_test.cpp - the child-process pool, with real fork and exec ===//
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "opforge/support/error.h"
#include "opforge/support/process_pool.h"

using namespace opforge;
namespace fs = std::filesystem;

namespace {

size_t open_fd_count() {
  size_t n = 0;
  for ([[maybe_unused]] const auto &e : fs::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

// True when this process has no child left to reap (no zombie of the pool's).
bool no_children_left() { return ::waitpid(-1, nullptr, WNOHANG) < 0 && errno == ECHILD; }

// A process that is gone or a zombie (dead, waiting for a reaper that is not us).
bool process_dead(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return true;
  std::string text((std::istreambuf_iterator<char>(stat)), {});
  auto close_paren = text.rfind(')');
  return close_paren != std::string::npos && close_paren + 2 < text.size() &&
         text[close_paren + 2] == 'Z';
}

bool dies_within(pid_t pid, std::chrono::milliseconds limit) {
  auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (process_dead(pid)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return process_dead(pid);
}

[[noreturn]] void crash_with(int sig) {
  std::signal(sig, SIG_DFL);  // a real crash, not a sanitizer's report
  std::raise(sig);
  std::abort();
}

fs::path temp_dir(const std::string &name) {
  fs::path d =
      fs::temp_directory_path() / ("opforge-pool-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST(ProcessPool, MoreTasksThanWorkersGiveEveryResultInTaskOrder) {
  ProcessPoolOptions o;
  o.workers = 3;
  auto out = run_in_processes(
      20, [](size_t t) { return "task " + std::to_string(t) + " pid " + std::to_string(getpid()); },
      o);
  ASSERT_EQ(out.size(), 20u);
  std::set<int> pids;
  for (size_t t = 0; t < out.size(); ++t) {
    ASSERT_TRUE(out[t].ok()) << t << ": " << out[t].reason;
    EXPECT_EQ(out[t].output.rfind("task " + std::to_string(t) + " pid ", 0), 0u) << out[t].output;
    EXPECT_EQ(out[t].output, "task " + std::to_string(t) + " pid " + std::to_string(out[t].pid));
    EXPECT_NE(out[t].pid, getpid());
    pids.insert(out[t].pid);
  }
  EXPECT_EQ(pids.size(), 20u) << "one fresh process per task by default";
  EXPECT_TRUE(no_children_left());
}

TEST(ProcessPool, ReusedWorkersKeepWhatTheirBodiesBuilt) {
  ProcessPoolOptions o;
  o.workers = 2;
  o.tasks_per_worker = 0;
  static int tasks_in_this_process = 0;  // each worker's own copy
  auto out = run_in_processes(
      10,
      [](size_t) {
        return std::to_string(getpid()) + " " + std::to_string(++tasks_in_this_process);
      },
      o);
  std::map<std::string, int> last_count;
  for (const auto &r : out) {
    ASSERT_TRUE(r.ok()) << r.reason;
    std::istringstream in(r.output);
    std::string pid;
    int count = 0;
    in >> pid >> count;
    EXPECT_EQ(count, last_count[pid] + 1) << r.output;
    last_count[pid] = count;
  }
  EXPECT_LE(last_count.size(), 2u);
  EXPECT_EQ(tasks_in_this_process, 0) << "bodies ran in this process";
  EXPECT_TRUE(no_children_left());
}

TEST(ProcessPool, ASegfaultAndAnAbortFailTheirTasksAndTheOthersGoOn) {
  for (size_t per_worker : {size_t(1), size_t(0)}) {
    ProcessPoolOptions o;
    o.workers = 2;
    o.tasks_per_worker = per_worker;
    auto out = run_in_processes(
        6,
        [](size_t t) -> std::string {
          if (t == 1) crash_with(SIGSEGV);
          if (t == 4) std::abort();
          return "fine " + std::to_string(t);
        },
        o);
    for (size_t t : {0, 2, 3, 5}) {
      EXPECT_TRUE(out[t].ok()) << t << ": " << out[t].reason;
      EXPECT_EQ(out[t].output, "fine " + std::to_string(t));
    }
    EXPECT_EQ(out[1].status, TaskStatus::Crashed);
    EXPECT_EQ(out[1].signal, SIGSEGV);
    EXPECT_NE(out[1].reason.find("killed by signal " + std::to_string(SIGSEGV)), std::string::npos)
        << out[1].reason;
    EXPECT_NE(out[1].reason.find("Segmentation fault"), std::string::npos) << out[1].reason;
    EXPECT_EQ(out[4].status, TaskStatus::Crashed);
    EXPECT_EQ(out[4].signal, SIGABRT);
    EXPECT_NE(out[4].reason.find("Aborted"), std::string::npos) << out[4].reason;
    EXPECT_EQ(task_status_name(out[4].status), "crashed");
    EXPECT_TRUE(no_children_left());
  }
}

TEST(ProcessPool, AThrowingBodyOrAnExitFailsItsTaskWithTheReason) {
  ProcessPoolOptions o;
  o.workers = 2;
  o.tasks_per_worker = 0;
  auto out = run_in_processes(
      4,
      [](size_t t) -> std::string {
        if (t == 1) throw Error("no corpus here");
        if (t == 2) ::_exit(7);
        return "fine";
      },
      o);
  EXPECT_TRUE(out[0].ok());
  EXPECT_TRUE(out[3].ok());
  EXPECT_EQ(out[1].status, TaskStatus::Failed);
  EXPECT_EQ(out[1].reason, "no corpus here");
  EXPECT_EQ(out[2].status, TaskStatus::Failed);
  EXPECT_EQ(out[2].exit_code, 7);
  EXPECT_EQ(out[2].reason, "exited with status 7 without finishing its task");
}

TEST(ProcessPool, ATaskPastTheLimitIsKilledAndReportedAsATimeout) {
  ProcessPoolOptions o;
  o.workers = 2;
  o.task_timeout_s = 0.3;
  auto start = std::chrono::steady_clock::now();
  auto out = run_in_processes(
      3,
      [](size_t t) -> std::string {
        if (t == 1) std::this_thread::sleep_for(std::chrono::seconds(60));
        return "quick";
      },
      o);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(took, 30.0);
  EXPECT_TRUE(out[0].ok());
  EXPECT_TRUE(out[2].ok());
  EXPECT_EQ(out[1].status, TaskStatus::TimedOut);
  EXPECT_EQ(out[1].signal, SIGKILL);
  EXPECT_GE(out[1].wall_s, 0.3);
  EXPECT_NE(out[1].reason.find("0.3 s"), std::string::npos) << out[1].reason;
  EXPECT_EQ(task_status_name(out[1].status), "timeout");
  EXPECT_TRUE(no_children_left());
}

TEST(ProcessPool, ATimeoutKillsWhatTheProgramStartedToo) {
  ProcessPoolOptions o;
  o.task_timeout_s = 0.3;
  auto out = run_programs(
      1,
      [](size_t) {
        return Program{"/bin/sh", {"sh", "-c", "sleep 60 & echo $! >&3; wait"}, ""};
      },
      o);
  ASSERT_EQ(out[0].status, TaskStatus::TimedOut) << out[0].reason;
  const pid_t grandchild = std::atoi(out[0].output.c_str());
  ASSERT_GT(grandchild, 0) << out[0].output;
  EXPECT_TRUE(dies_within(grandchild, std::chrono::seconds(5)));
}

TEST(ProcessPool, ProgressReportsEachTaskWithDoneAndTotal) {
  ProcessPoolOptions o;
  o.workers = 3;
  std::vector<size_t> started, finished;
  size_t last_done = 0;
  o.on_start = [&](size_t t) { started.push_back(t); };
  o.on_done = [&](size_t t, const TaskOutcome &r, size_t done, size_t total) {
    EXPECT_EQ(done, last_done + 1);
    EXPECT_EQ(total, 7u);
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r.output, std::to_string(t));
    last_done = done;
    finished.push_back(t);
  };
  run_in_processes(
      7, [](size_t t) { return std::to_string(t); }, o);
  EXPECT_EQ(last_done, 7u);
  EXPECT_EQ(std::set<size_t>(started.begin(), started.end()).size(), 7u);
  EXPECT_EQ(std::set<size_t>(finished.begin(), finished.end()).size(), 7u);
}

TEST(ProcessPool, SkippedTasksDoNotRunAndTheOrderIsKept) {
  ProcessPoolOptions o;
  o.workers = 1;
  o.order = {5, 3, 1, 3, 99};  // a duplicate and an unknown task are ignored
  o.skip = [](size_t t) { return t == 1 || t == 4; };
  std::vector<size_t> started;
  size_t total_seen = 0;
  o.on_start = [&](size_t t) { started.push_back(t); };
  o.on_done = [&](size_t, const TaskOutcome &, size_t, size_t total) { total_seen = total; };
  auto out = run_in_processes(
      6, [](size_t t) { return std::to_string(t); }, o);
  EXPECT_EQ(started, (std::vector<size_t>{5, 3, 0, 2}));
  EXPECT_EQ(total_seen, 4u);
  EXPECT_EQ(out[1].status, TaskStatus::Skipped);
  EXPECT_EQ(out[4].status, TaskStatus::Skipped);
  EXPECT_EQ(out[1].pid, 0);
  EXPECT_TRUE(out[5].ok());
}

TEST(ProcessPool, OutputLargerThanAPipeBufferArrivesWhole) {
  std::string big;
  for (size_t i = 0; i < (3u << 20); ++i) big.push_back(static_cast<char>(i * 7 % 256));
  ProcessPoolOptions o;
  o.workers = 3;
  o.tasks_per_worker = 0;
  auto out = run_in_processes(
      5, [&](size_t t) { return big + std::to_string(t); }, o);
  for (size_t t = 0; t < out.size(); ++t) {
    ASSERT_TRUE(out[t].ok()) << out[t].reason;
    EXPECT_EQ(out[t].output.size(), big.size() + 1);
    EXPECT_TRUE(out[t].output == big + std::to_string(t)) << "task " << t << " differs";
  }
}

TEST(ProcessPool, ProgramsWriteTheirOutputToFd3AndTheirTextToTheLog) {
  fs::path dir = temp_dir("programs");
  ProcessPoolOptions o;
  o.workers = 2;
  auto out = run_programs(
      4,
      [&](size_t t) {
        Program p;
        p.argv = {"sh", "-c",
                  t == 1   ? "echo going wrong; exit 5"
                  : t == 2 ? "head -c 200000 /dev/zero >&3; echo big"
                           : "printf 'result %s' " + std::to_string(t) + " >&3; echo log " +
                                 std::to_string(t)};
        p.log_path = (dir / ("task" + std::to_string(t) + ".log")).string();
        return p;
      },
      o);
  auto read = [](const fs::path &p) {
    std::ifstream in(p);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  };
  EXPECT_TRUE(out[0].ok()) << out[0].reason;
  EXPECT_EQ(out[0].output, "result 0");
  EXPECT_EQ(read(dir / "task0.log"), "log 0\n");
  EXPECT_EQ(out[3].output, "result 3");
  EXPECT_EQ(out[1].status, TaskStatus::Failed);
  EXPECT_EQ(out[1].exit_code, 5);
  EXPECT_EQ(out[1].reason, "exited with status 5");
  EXPECT_EQ(read(dir / "task1.log"), "going wrong\n");
  EXPECT_TRUE(out[2].ok()) << out[2].reason;
  EXPECT_EQ(out[2].output, std::string(200000, '\0'));
  fs::remove_all(dir);
  EXPECT_TRUE(no_children_left());
}

TEST(ProcessPool, AProgramThatCannotRunExits127WithTheReasonInItsLog) {
  fs::path dir = temp_dir("missing");
  auto out = run_programs(1, [&](size_t) {
    return Program{"", {"opforge-no-such-program-here"}, (dir / "log").string()};
  });
  EXPECT_EQ(out[0].status, TaskStatus::Failed);
  EXPECT_EQ(out[0].exit_code, 127);
  std::ifstream in(dir / "log");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(text.find("cannot execute opforge-no-such-program-here"), std::string::npos) << text;
  fs::remove_all(dir);
}

TEST(ProcessPool, LeavesNoDescriptorOrZombieBehind) {
  const size_t before = open_fd_count();
  ProcessPoolOptions o;
  o.workers = 4;
  o.task_timeout_s = 5;
  for (size_t per_worker : {size_t(1), size_t(3), size_t(0)}) {
    o.tasks_per_worker = per_worker;
    run_in_processes(
        12,
        [](size_t t) -> std::string {
          if (t == 5) crash_with(SIGSEGV);
          return std::string(100000, 'x');
        },
        o);
  }
  run_programs(
      5,
      [](size_t) {
        return Program{"/bin/true", {"true"}, ""};
      },
      o);
  EXPECT_EQ(open_fd_count(), before);
  EXPECT_TRUE(no_children_left());
}

TEST(ProcessPool, ACallbackThatThrowsKillsAndReapsTheRunningChildren) {
  ProcessPoolOptions o;
  o.workers = 3;
  o.on_done = [&](size_t, const TaskOutcome &, size_t, size_t) {
    throw std::runtime_error("stop here");
  };
  const size_t before = open_fd_count();
  auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(run_in_processes(
                   5,
                   [](size_t t) -> std::string {
                     if (t != 0) std::this_thread::sleep_for(std::chrono::seconds(60));
                     return "first";
                   },
                   o),
               std::runtime_error);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 30.0);
  EXPECT_EQ(open_fd_count(), before);
  EXPECT_TRUE(no_children_left());
}

TEST(ProcessPool, WorkersDieWithTheirParent) {
  fs::path dir = temp_dir("orphans");
  const fs::path pid_file = dir / "worker.pid";
  pid_t parent = ::fork();
  ASSERT_GE(parent, 0);
  if (parent == 0) {
    run_in_processes(1, [&](size_t) -> std::string {
      std::ofstream(pid_file.string() + ".tmp") << getpid();
      fs::rename(pid_file.string() + ".tmp", pid_file);
      std::this_thread::sleep_for(std::chrono::seconds(60));
      return "";
    });
    ::_exit(0);
  }
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!fs::exists(pid_file) && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ::kill(parent, SIGKILL);
  ::waitpid(parent, nullptr, 0);
  ASSERT_TRUE(fs::exists(pid_file));
  pid_t worker = 0;
  std::ifstream(pid_file) >> worker;
  ASSERT_GT(worker, 0);
  EXPECT_TRUE(dies_within(worker, std::chrono::seconds(5)));
  fs::remove_all(dir);
}
