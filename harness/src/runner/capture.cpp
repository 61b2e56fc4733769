//===- capture.cpp - run a program, its output captured (runner internal) ===//
#include "capture.h"

#include <sys/wait.h>
#include <unistd.h>

#include "opforge/support/error.h"

namespace opforge::harness::detail {

// Runs argv (PATH lookup), stdout and stderr captured together; returns the exit status.
int capture(const std::vector<std::string> &argv, std::string &output) {
  int fds[2];
  if (::pipe(fds) != 0) throw Error("pipe failed");
  pid_t pid = ::fork();
  if (pid < 0) throw Error("fork failed");
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::dup2(fds[1], 2);
    ::close(fds[0]);
    ::close(fds[1]);
    std::vector<char *> args;
    for (const auto &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    std::string msg = "cannot run " + argv[0] + ": not found\n";
    (void)!::write(2, msg.data(), msg.size());
    ::_exit(127);
  }
  ::close(fds[1]);
  output.clear();
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) output.append(buf, size_t(n));
  ::close(fds[0]);
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0) {
  }
  while (!output.empty() && (output.back() == '\n' || output.back() == ' ')) output.pop_back();
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

}  // namespace opforge::harness::detail
