//===- process_pool.cpp - runs tasks in child processes, at most N at a time ===//
//
// Protocol. Each worker has a result pipe (child -> parent) and, for bodies,
// a command socket (parent -> child; a socket so that a send to a dead child
// is EPIPE, not SIGPIPE in the parent). The parent sends a task number as 8
// bytes, little-endian; the child answers with one frame: a kind byte ('R'
// returned, 'E' threw), the payload's length as 8 bytes little-endian, the
// payload. A worker whose command socket reaches end of file exits 0. A
// program's output is the raw bytes it wrote to its result pipe (fd 3).
// A task ends with its frame, or (programs, and a worker that died) when its
// process has been reaped and its pipe drained.
//
//===----------------------------------------------------------------------===//
#include "opforge/support/process_pool.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>

#include "opforge/support/error.h"

namespace opforge {
namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kFrameHeaderBytes = 9;  // kind + 64-bit length

struct Worker {
  pid_t pid = -1;
  int result_fd = -1;   // parent's read end, non-blocking
  int command_fd = -1;  // parent's end of the command socket (bodies)
  std::string buffer;   // bytes read and not yet consumed
  std::optional<size_t> task;
  Clock::time_point started;
  size_t tasks_given = 0;
  bool eof = false;
  Clock::time_point eof_at;
  bool timed_out = false;
};

void close_fd(int &fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::string le64(uint64_t v) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[static_cast<size_t>(i)] = static_cast<char>(v >> (8 * i));
  return s;
}

uint64_t read_le64(const char *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

// In a child: writes everything or ends the process (the parent is gone).
void child_write_all(int fd, const char *data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ::_exit(3);
    data += n;
    size -= static_cast<size_t>(n);
  }
}

// In a child: reads exactly `size` bytes; false at end of file.
bool child_read_all(int fd, char *data, size_t size) {
  while (size > 0) {
    ssize_t n = ::read(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

[[noreturn]] void child_exit(int code) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  ::_exit(code);  // not exit(): the parent's atexit handlers and statics are not ours to run
}

std::string format_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

class Pool {
 public:
  Pool(size_t tasks, const ProcessPoolOptions &options, const TaskBody *body,
       const ProgramFor *program_for)
      : options_(options), body_(body), program_for_(program_for), outcomes_(tasks) {
    std::vector<bool> queued(tasks, false);
    auto enqueue = [&](size_t t) {
      if (t >= tasks || queued[t]) return;
      queued[t] = true;
      if (options_.skip && options_.skip(t)) return;
      queue_.push_back(t);
    };
    for (size_t t : options_.order) enqueue(t);
    for (size_t t = 0; t < tasks; ++t) enqueue(t);
    slots_ = std::max(1u, options_.workers);
    per_worker_ = program_for_ ? 1 : options_.tasks_per_worker;
  }

  ~Pool() {
    for (auto &w : workers_) {
      ::kill(-w.pid, SIGKILL);
      ::kill(w.pid, SIGKILL);
    }
    for (auto &w : workers_) {
      while (::waitpid(w.pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      close_fd(w.result_fd);
      close_fd(w.command_fd);
    }
  }

  std::vector<TaskOutcome> run() {
    while (next_ < queue_.size() || !workers_.empty()) {
      hand_out();
      wait_for_events();
      reap();
      enforce_timeouts();
    }
    return std::move(outcomes_);
  }

 private:
  bool accepts_more(const Worker &w) const {
    return per_worker_ == 0 || w.tasks_given < per_worker_;
  }

  // Idle workers get the next task or are told to exit; free slots get new workers.
  void hand_out() {
    for (auto &w : workers_) {
      if (w.task || w.command_fd < 0) continue;
      if (next_ < queue_.size() && accepts_more(w))
        give(w, queue_[next_++]);
      else
        close_fd(w.command_fd);  // end of file: the worker exits
    }
    while (next_ < queue_.size() && workers_.size() < slots_) {
      if (!spawn()) break;
      give(workers_.back(), queue_[next_++]);
    }
  }

  void give(Worker &w, size_t task) {
    w.task = task;
    w.started = Clock::now();
    ++w.tasks_given;
    if (w.command_fd >= 0) {
      const std::string msg = le64(task);
      // A worker that died already is found by reap() and fails this task.
      (void)::send(w.command_fd, msg.data(), msg.size(), MSG_NOSIGNAL);
      if (!accepts_more(w)) close_fd(w.command_fd);
    }
    if (options_.on_start) options_.on_start(task);
  }

  // Starts a worker; false when fork or pipe fail while others still run
  // (try again when one has ended), throws when none runs.
  bool spawn() {
    auto fail = [&](const char *what, int error) {
      if (!workers_.empty()) return false;
      throw Error(std::string("cannot start a worker process: ") + what +
                  " failed: " + std::strerror(error));
    };
    // Prepared before fork: a program's child only calls async-signal-safe functions.
    std::optional<Program> program;
    std::vector<char *> argv;
    if (program_for_) {
      program = (*program_for_)(queue_[next_]);
      for (auto &a : program->argv) argv.push_back(a.data());
      argv.push_back(nullptr);
    }
    int result[2];
    if (::pipe2(result, O_CLOEXEC) != 0) return fail("pipe", errno);
    int command[2] = {-1, -1};
    if (body_ && ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, command) != 0) {
      const int error = errno;
      ::close(result[0]);
      ::close(result[1]);
      return fail("socketpair", error);
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);  // else the child would write the parent's buffered output again
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
      const int error = errno;
      for (int fd : {result[0], result[1], command[0], command[1]})
        if (fd >= 0) ::close(fd);
      return fail("fork", error);
    }
    if (pid == 0) {
      ::setpgid(0, 0);  // its own group, so that a timeout kills what it started too
      // Dies with the parent (SIGKILL included): nobody else would enforce its
      // timeout or take its result. The check covers a parent that died first.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(128 + SIGKILL);
      ::signal(SIGPIPE, SIG_DFL);
      for (auto &w : workers_) {  // the other workers' channels are not this one's
        ::close(w.result_fd);
        if (w.command_fd >= 0) ::close(w.command_fd);
      }
      ::close(result[0]);
      if (command[0] >= 0) ::close(command[0]);
      if (program)
        exec_program(*program, argv, result[1]);
      else
        serve(result[1], command[1]);
    }
    ::setpgid(pid, pid);  // also here: no window in which a kill(-pid) misses it
    ::close(result[1]);
    if (command[1] >= 0) ::close(command[1]);
    ::fcntl(result[0], F_SETFL, ::fcntl(result[0], F_GETFL) | O_NONBLOCK);
    Worker w;
    w.pid = pid;
    w.result_fd = result[0];
    w.command_fd = command[0];
    workers_.push_back(std::move(w));
    return true;
  }

  [[noreturn]] static void exec_program(const Program &p, const std::vector<char *> &argv,
                                        int result_fd) {
    // The output channel becomes fd 3, kept across exec.
    if (result_fd != 3) {
      if (::dup2(result_fd, 3) < 0) ::_exit(127);
      ::close(result_fd);
    } else {
      ::fcntl(3, F_SETFD, 0);
    }
    if (!p.log_path.empty()) {
      int fd = ::open(p.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd >= 0) {
        ::dup2(fd, 1);
        ::dup2(fd, 2);
      }
    }
    if (argv.empty() || !argv[0]) ::_exit(127);
    if (p.executable.empty())
      ::execvp(argv[0], argv.data());
    else
      ::execv(p.executable.c_str(), argv.data());
    const char *what = p.executable.empty() ? argv[0] : p.executable.c_str();
    const char *why = std::strerror(errno);
    for (const char *s : {"cannot execute ", what, ": ", why, "\n"})
      (void)!::write(2, s, std::strlen(s));
    ::_exit(127);
  }

  [[noreturn]] void serve(int result_fd, int command_fd) {
    for (size_t served = 0; per_worker_ == 0 || served < per_worker_; ++served) {
      char msg[8];
      if (!child_read_all(command_fd, msg, sizeof msg)) break;
      const size_t task = static_cast<size_t>(read_le64(msg));
      char kind = 'R';
      std::string payload;
      try {
        payload = (*body_)(task);
      } catch (const std::exception &e) {
        kind = 'E';
        payload = e.what();
      } catch (...) {
        kind = 'E';
        payload = "an exception that is not a std::exception";
      }
      std::string header(1, kind);
      header += le64(payload.size());
      child_write_all(result_fd, header.data(), header.size());
      child_write_all(result_fd, payload.data(), payload.size());
    }
    child_exit(0);
  }

  void wait_for_events() {
    std::vector<pollfd> fds;
    auto wait = std::chrono::milliseconds(100);
    const auto now = Clock::now();
    for (const auto &w : workers_) {
      // A closed pipe means the process is ending: look for its exit soon
      // (often, at first; a program that closed fd 3 may run on).
      if (w.eof)
        wait = std::min(wait, now - w.eof_at < std::chrono::milliseconds(20)
                                  ? std::chrono::milliseconds(1)
                                  : std::chrono::milliseconds(20));
      else
        fds.push_back({w.result_fd, POLLIN, 0});
      if (w.task && options_.task_timeout_s > 0 && !w.timed_out) {
        auto left = std::chrono::ceil<std::chrono::milliseconds>(
            w.started + std::chrono::duration<double>(options_.task_timeout_s) - now);
        wait = std::clamp(left, std::chrono::milliseconds(0), wait);
      }
    }
    if (::poll(fds.data(), fds.size(), static_cast<int>(wait.count())) <= 0) return;
    for (auto &w : workers_)
      if (!w.eof) drain(w);
  }

  // Reads what the pipe holds now; consumes complete frames.
  void drain(Worker &w) {
    char buf[65536];
    while (!w.eof) {
      ssize_t n = ::read(w.result_fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;  // EAGAIN: nothing more now
      if (n == 0) {
        w.eof = true;
        w.eof_at = Clock::now();
        break;
      }
      w.buffer.append(buf, static_cast<size_t>(n));
    }
    if (!program_for_) consume_frames(w);
  }

  void consume_frames(Worker &w) {
    while (w.buffer.size() >= kFrameHeaderBytes) {
      const uint64_t size = read_le64(w.buffer.data() + 1);
      if (w.buffer.size() - kFrameHeaderBytes < size) return;
      TaskOutcome o;
      o.status = w.buffer[0] == 'R' ? TaskStatus::Ok : TaskStatus::Failed;
      std::string payload = w.buffer.substr(kFrameHeaderBytes, size);
      w.buffer.erase(0, kFrameHeaderBytes + size);
      (o.ok() ? o.output : o.reason) = std::move(payload);
      if (!w.task || w.timed_out) continue;  // a late answer of a task already killed
      finish(w, std::move(o));
    }
  }

  void finish(Worker &w, TaskOutcome o) {
    const size_t task = *w.task;
    w.task.reset();
    o.pid = w.pid;
    o.wall_s = std::chrono::duration<double>(Clock::now() - w.started).count();
    outcomes_[task] = std::move(o);
    ++done_;
    if (options_.on_done) options_.on_done(task, outcomes_[task], done_, queue_.size());
  }

  void reap() {
    for (size_t k = 0; k < workers_.size();) {
      Worker &w = workers_[k];
      int status = 0;
      pid_t got = ::waitpid(w.pid, &status, WNOHANG);
      if (got == 0 || (got < 0 && errno == EINTR)) {
        ++k;
        continue;
      }
      if (got < 0) status = 0;  // reaped by someone else: nothing to tell
      if (!w.eof) drain(w);
      if (w.task) finish(w, outcome_of_exit(w, status));
      close_fd(w.result_fd);
      close_fd(w.command_fd);
      workers_.erase(workers_.begin() + static_cast<std::ptrdiff_t>(k));
    }
  }

  TaskOutcome outcome_of_exit(Worker &w, int status) const {
    TaskOutcome o;
    if (WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
    if (program_for_) o.output = std::move(w.buffer);
    if (w.timed_out) {
      o.status = TaskStatus::TimedOut;
      o.reason = "timed out: killed after the per-task limit of " +
                 format_seconds(options_.task_timeout_s) + " s";
    } else if (WIFSIGNALED(status)) {
      o.status = TaskStatus::Crashed;
      o.reason = describe_wait_status(status);
    } else if (program_for_ && o.exit_code == 0) {
      o.status = TaskStatus::Ok;
    } else {
      o.status = TaskStatus::Failed;
      o.reason = describe_wait_status(status);
      if (!program_for_) o.reason += " without finishing its task";
    }
    return o;
  }

  void enforce_timeouts() {
    if (options_.task_timeout_s <= 0) return;
    const auto now = Clock::now();
    for (auto &w : workers_) {
      if (!w.task || w.timed_out) continue;
      if (std::chrono::duration<double>(now - w.started).count() < options_.task_timeout_s)
        continue;
      ::kill(-w.pid, SIGKILL);
      ::kill(w.pid, SIGKILL);
      w.timed_out = true;
    }
  }

  const ProcessPoolOptions &options_;
  const TaskBody *body_;
  const ProgramFor *program_for_;
  std::vector<TaskOutcome> outcomes_;
  std::vector<size_t> queue_;  // tasks to run, in start order
  size_t next_ = 0, done_ = 0;
  unsigned slots_ = 1;
  size_t per_worker_ = 1;
  std::vector<Worker> workers_;
};

}  // namespace

std::string_view task_status_name(TaskStatus status) {
  switch (status) {
    case TaskStatus::Ok:
      return "ok";
    case TaskStatus::Failed:
      return "failed";
    case TaskStatus::Crashed:
      return "crashed";
    case TaskStatus::TimedOut:
      return "timeout";
    case TaskStatus::Skipped:
      return "skipped";
  }
  return "?";
}

std::string describe_wait_status(int status) {
  if (WIFSIGNALED(status)) {
    const char *name = strsignal(WTERMSIG(status));
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
           (name ? name : "unknown") + ")";
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended with wait status " + std::to_string(status);
}

std::vector<TaskOutcome> run_in_processes(size_t tasks, const TaskBody &body,
                                          const ProcessPoolOptions &options) {
  return Pool(tasks, options, &body, nullptr).run();
}

std::vector<TaskOutcome> run_programs(size_t tasks, const ProgramFor &program_for,
                                      const ProcessPoolOptions &options) {
  return Pool(tasks, options, nullptr, &program_for).run();
}

}  // namespace opforge
