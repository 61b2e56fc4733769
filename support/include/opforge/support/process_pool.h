//===- process_pool.h - runs tasks in child processes, at most N at a time ===//
//
// The one child-process pool of opforge: sweep points (`opforge sweep`),
// validation shards (`opforge validate --jobs N` on the chip) and generation
// workers (`opforge generate --jobs N` on the chip) all run through it. A
// child process is the unit of isolation: the chip model elaborates once per
// process, and a crash in it must fail one task, never the run.
//
// Two kinds of task:
//   - a body (run_in_processes): a function called in a forked child; what it
//     returns is the task's output, sent to the parent through a pipe in
//     length-prefixed frames (any size; bytes, not just text). A body that
//     throws fails its task with the exception's message. With
//     tasks_per_worker != 1 a worker process runs several tasks one after
//     another, and whatever a body builds in its process (an open file, a
//     chip) lives on for that worker's later tasks. Its stdout and stderr
//     are the parent's.
//   - a program (run_programs): a command line executed in a fresh child,
//     its stdout and stderr going to a log file. Its output is whatever it
//     writes to file descriptor 3 (/dev/fd/3), its outcome its exit status.
//
// Every child gets its own process group (a timeout kills the tools it
// started too) and dies with the parent (PR_SET_PDEATHSIG SIGKILL), however
// the parent ends. Outcomes:
//   Ok        the body returned / the program exited with status 0
//   Failed    the body threw / the program exited with another status /
//             the process exited without finishing its task
//   Crashed   the process died on a signal: reason "killed by signal 11
//             (Segmentation fault)"
//   TimedOut  it ran longer than task_timeout_s and was killed: reason
//             "timed out: killed after the per-task limit of 2.5 s"
//   Skipped   `skip` said it was done already (resume); it did not run
// The other tasks go on whatever one of them does. Every child is reaped and
// every descriptor closed before the call returns, also when a callback
// throws (the running children are then killed).
//
// The callbacks run in the parent, one at a time, on the caller's thread.
// Bodies run after fork() in a copy of the parent: in a parent with other
// threads they must not need a lock another thread may have held (the same
// caveat as any fork without exec).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace opforge {

enum class TaskStatus { Ok, Failed, Crashed, TimedOut, Skipped };

// "ok", "failed", "crashed", "timeout", "skipped".
std::string_view task_status_name(TaskStatus status);

struct TaskOutcome {
  TaskStatus status = TaskStatus::Skipped;
  std::string output;  // Ok (and a program's partial output otherwise)
  std::string reason;  // empty when Ok
  int exit_code = -1;  // the process's exit status when it exited while running the task
  int signal = 0;      // the signal it died on (Crashed; SIGKILL when TimedOut)
  int pid = 0;         // the process that ran it (0 when Skipped)
  double wall_s = 0;   // from handing the task out to its outcome
  bool ok() const { return status == TaskStatus::Ok; }
};

struct ProcessPoolOptions {
  unsigned workers = 1;         // child processes at a time; 0 counts as 1
  double task_timeout_s = 0;    // per task; 0: no limit
  size_t tasks_per_worker = 1;  // bodies only: 1 a fresh process per task, 0 no limit
  // The order tasks start in (each task at most once); tasks left out start
  // after these, in ascending order. Empty: ascending.
  std::vector<size_t> order;
  // Tasks done already (a resumed run): not run, their outcome is Skipped
  // and they count in neither `done` nor `total`.
  std::function<bool(size_t task)> skip;
  // A task was handed to a process.
  std::function<void(size_t task)> on_start;
  // A task has its outcome; `done` of `total` tasks to run have one now.
  std::function<void(size_t task, const TaskOutcome &outcome, size_t done, size_t total)> on_done;
};

// Runs body(task) for task = 0 .. tasks-1 in child processes; returns one
// outcome per task, in task order. Throws opforge::Error when no process can
// be started at all (fork or pipe failing with none running).
using TaskBody = std::function<std::string(size_t task)>;
std::vector<TaskOutcome> run_in_processes(size_t tasks, const TaskBody &body,
                                          const ProcessPoolOptions &options = {});

struct Program {
  std::string executable;         // path run with execv; empty: argv[0] searched on PATH
  std::vector<std::string> argv;  // argv[0] included
  std::string log_path;           // stdout and stderr (truncated); empty: the parent's
};

// Runs program_for(task) for every task, one fresh process each
// (tasks_per_worker is ignored); program_for runs in the parent. A program
// that cannot be executed exits with status 127, the reason written to its log.
using ProgramFor = std::function<Program(size_t task)>;
std::vector<TaskOutcome> run_programs(size_t tasks, const ProgramFor &program_for,
                                      const ProcessPoolOptions &options = {});

// "killed by signal 9 (Killed)", "exited with status 3" for a waitpid status.
std::string describe_wait_status(int status);

}  // namespace opforge
