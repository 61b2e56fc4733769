//===- h5check.cpp - reading a possibly damaged HDF5 file in a child process ===//
#include "opforge/support/h5check.h"

#include <hdf5.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <new>
#include <optional>
#include <vector>

#include "opforge/support/error.h"

// Present only in sanitizer builds (weak): the function a sanitizer report calls.
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));

namespace opforge::h5 {

namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------- the child

struct Walk {
  int fd;
  uint64_t max_bytes;
  std::string object;               // the object being read
  const std::vector<Damage> *skip;  // known damaged objects, not read again
};

void say(const Walk &w, const std::string &line) {
  std::string s = line;
  for (char &c : s)
    if (c == '\n') c = ' ';
  s += '\n';
  const char *p = s.data();
  size_t left = s.size();
  while (left) {
    ssize_t n = ::write(w.fd, p, left);
    if (n <= 0) _exit(3);
    p += n;
    left -= static_cast<size_t>(n);
  }
}

std::string hdf5_cause() {
  std::string cause;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t *err, void *data) -> herr_t {
        if (n == 0 && err->desc) *static_cast<std::string *>(data) = err->desc;
        return 0;
      },
      &cause);
  H5Eclear2(H5E_DEFAULT);
  return cause.empty() ? "unreadable" : cause;
}

// Report the first damaged object (with libhdf5's reason where it gave one) and stop.
[[noreturn]] void damaged(const Walk &w, const std::string &what, bool hdf5_error = true) {
  say(w, "E " + what + (hdf5_error ? ": " + hdf5_cause() : ""));
  _exit(1);
}

// Read `n` elements of `ftype` through `read` into memory, then release any
// variable-length data.
template <class Read>
void read_all(const Walk &w, hid_t ftype, hid_t space, const std::string &what, Read &&read) {
  hssize_t n = H5Sget_simple_extent_npoints(space);
  if (n < 0) damaged(w, what + ": bad dataspace");
  hid_t mtype = H5Tget_native_type(ftype, H5T_DIR_ASCEND);
  if (mtype < 0) damaged(w, what + ": bad datatype");
  size_t esize = H5Tget_size(mtype);
  if (esize == 0) damaged(w, what + ": bad datatype size");
  if (n > 0 && static_cast<uint64_t>(n) > w.max_bytes / esize)
    damaged(w,
            what + ": claims " + std::to_string(n) + " elements of " + std::to_string(esize) +
                " bytes (more than " + std::to_string(w.max_bytes) + " bytes)",
            false);
  if (n == 0) {
    H5Tclose(mtype);
    return;
  }
  auto *buf = new (std::nothrow) unsigned char[static_cast<size_t>(n) * esize];
  if (!buf) damaged(w, what + ": no memory for " + std::to_string(n * esize) + " bytes", false);
  std::memset(buf, 0, static_cast<size_t>(n) * esize);
  if (read(mtype, buf) < 0) damaged(w, what);
  if (H5Tdetect_class(mtype, H5T_VLEN) > 0 || H5Tis_variable_str(mtype) > 0 ||
      H5Tdetect_class(mtype, H5T_STRING) > 0) {
    // Touch every variable-length string so a bad heap reference shows here.
    hid_t mem_space = H5Screate_simple(1, std::vector<hsize_t>{hsize_t(n)}.data(), nullptr);
    H5Dvlen_reclaim(mtype, mem_space, H5P_DEFAULT, buf);
    H5Sclose(mem_space);
  }
  delete[] buf;
  H5Tclose(mtype);
}

herr_t visit_attr(hid_t loc, const char *name, const H5A_info_t *, void *data) {
  auto &w = *static_cast<Walk *>(data);
  std::string what = "attribute '" + std::string(name) + "'";
  say(w, "A " + std::string(name));
  hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
  if (a < 0) damaged(w, what);
  hid_t t = H5Aget_type(a), s = H5Aget_space(a);
  if (t < 0 || s < 0) damaged(w, what);
  read_all(w, t, s, what, [&](hid_t mtype, void *buf) { return H5Aread(a, mtype, buf); });
  H5Sclose(s);
  H5Tclose(t);
  H5Aclose(a);
  return 0;
}

herr_t visit_object(hid_t file, const char *name, const H5O_info_t *info, void *data) {
  auto &w = *static_cast<Walk *>(data);
  w.object = std::string(name) == "." ? "/" : "/" + std::string(name);
  for (const auto &d : *w.skip)
    if (d.object == w.object) return 0;
  say(w, "O " + w.object);
  hid_t obj = H5Oopen(file, name, H5P_DEFAULT);
  if (obj < 0) damaged(w, "cannot open");
  hsize_t idx = 0;
  if (H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_NATIVE, &idx, visit_attr, &w) < 0)
    damaged(w, "attributes");
  say(w, "A ");
  if (info->type == H5O_TYPE_DATASET) {
    hid_t t = H5Dget_type(obj), s = H5Dget_space(obj);
    if (t < 0 || s < 0) damaged(w, "dataset");
    read_all(w, t, s, "dataset", [&](hid_t mtype, void *buf) {
      return H5Dread(obj, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
    });
    H5Sclose(s);
    H5Tclose(t);
  }
  H5Oclose(obj);
  return 0;
}

[[noreturn]] void child(const fs::path &path, int fd, const CheckOptions &opt,
                        const std::vector<Damage> &skip, pid_t parent) {
  // A crash of libhdf5 kills the child by its signal, which the parent reports. A
  // handler inherited from the parent (a sanitizer's, or libFuzzer's, which would
  // record the parent's input as a crash) must not run here.
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP}) ::signal(sig, SIG_DFL);
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(nullptr);
  // A parent that dies (killed, or a fuzzer's timeout) takes the child with it: a file
  // that sends libhdf5 into a loop must not leave a process spinning.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) _exit(4);
  // Bound the child's memory: what it has now plus room for the largest object.
  uint64_t pages = 0;
  if (std::ifstream statm("/proc/self/statm"); statm >> pages) {
    uint64_t limit = pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) +
                     2 * opt.max_object_bytes + (1ull << 30);
    rlimit r{limit, limit};
    setrlimit(RLIMIT_AS, &r);
  }
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  Walk w{fd, opt.max_object_bytes, "/", &skip};
  say(w, "O /");
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) damaged(w, "cannot open");
  if (H5Ovisit2(f, H5_INDEX_NAME, H5_ITER_NATIVE, visit_object, &w, H5O_INFO_BASIC) < 0)
    damaged(w, "cannot list the objects");
  H5Fclose(f);
  say(w, "D");
  _exit(0);
}

// ---------------------------------------------------------------- the parent

// The time one read of the file may take: options.timeout_s, or when that is 0,
// 5 s (check_base_time_s) plus 1 s per 2 MB of file, at most 120 s. (The check
// reads 33 MB in 2 s on a loaded 2-core machine; a damaged 40 KB file that sends
// libhdf5 into a loop is reported after 5 s, not 120.)
std::atomic<double> check_base_time_s{5.0};

double check_timeout_s(const fs::path &path, const CheckOptions &options) {
  if (options.timeout_s > 0) return options.timeout_s;
  std::error_code ec;
  const uintmax_t bytes = fs::file_size(path, ec);
  const double scaled =
      check_base_time_s.load() + (ec ? 0.0 : static_cast<double>(bytes) / (2 << 20));
  return std::min(scaled, 120.0);
}

// One read of the file in a child; the first damaged object, if any.
std::optional<Damage> read_in_child(const fs::path &path, const CheckOptions &options,
                                    const std::vector<Damage> &skip) {
  auto fail = [&](const std::string &object, const std::string &msg) {
    return Damage{object, msg};
  };
  int fds[2];
  if (::pipe(fds) != 0) throw Error("pipe failed", ErrorContext{path.string(), {}, {}, {}, {}});
  const pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw Error("fork failed", ErrorContext{path.string(), {}, {}, {}, {}});
  }
  if (pid == 0) {
    ::close(fds[0]);
    child(path, fds[1], options, skip, parent);
  }
  ::close(fds[1]);
  std::string text, object = "/", attribute, error;
  bool done = false, timed_out = false;
  const double timeout_s = check_timeout_s(path, options);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  char buf[4096];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
    size_t nl;
    while ((nl = text.find('\n')) != std::string::npos) {
      std::string line = text.substr(0, nl);
      text.erase(0, nl + 1);
      if (line.starts_with("O ")) {
        object = line.substr(2);
        attribute.clear();
      } else if (line.starts_with("A ")) {
        attribute = line.substr(2);
      } else if (line.starts_with("E ")) {
        error = line.substr(2);
      } else if (line == "D") {
        done = true;
      }
    }
  }
  ::close(fds[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::string where = attribute.empty() ? "" : " attribute '" + attribute + "'";
  if (timed_out)
    return fail(object, "reading" + where + " did not finish in " +
                            std::to_string(static_cast<int>(timeout_s)) + " s");
  if (!error.empty()) return fail(object, error);
  if (WIFSIGNALED(status))
    return fail(object, "reading" + (where.empty() ? std::string(" it") : where) +
                            " crashed libhdf5 (" + strsignal(WTERMSIG(status)) + ")");
  if (!done || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return fail(object, "the reading process stopped (exit status " +
                            std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  return std::nullopt;
}

}  // namespace

void set_check_base_time_s(double seconds) {
  if (seconds > 0) check_base_time_s.store(seconds);
}

std::string read_string_attribute(int64_t attr, std::string &out) {
  const hid_t a = static_cast<hid_t>(attr);
  hid_t ftype = H5Aget_type(a);
  if (ftype < 0) return "no datatype";
  hid_t space = H5Aget_space(a);
  hssize_t n = space < 0 ? -1 : H5Sget_simple_extent_npoints(space);
  if (space >= 0) H5Sclose(space);
  std::string why;
  if (H5Tget_class(ftype) != H5T_STRING)
    why = "not a string";
  else if (n != 1)
    why = "holds " + std::to_string(n) + " values, not one string";
  else if (H5Tis_variable_str(ftype) > 0) {
    hid_t mtype = H5Tcopy(H5T_C_S1);
    H5Tset_size(mtype, H5T_VARIABLE);
    H5Tset_cset(mtype, H5Tget_cset(ftype));
    char *p = nullptr;
    if (H5Aread(a, mtype, &p) < 0)
      why = "unreadable";
    else if (!p)
      why = "null string (damaged heap reference?)";
    else
      out = p;
    if (p) H5free_memory(p);
    H5Tclose(mtype);
  } else {
    size_t size = H5Tget_size(ftype);
    std::string buf(size, '\0');
    hid_t mtype = H5Tcopy(ftype);
    if (size == 0 || H5Aread(a, mtype, buf.data()) < 0) {
      why = "unreadable";
    } else {
      if (size_t nul = buf.find('\0'); nul != std::string::npos) buf.resize(nul);
      out = std::move(buf);
    }
    H5Tclose(mtype);
  }
  H5Tclose(ftype);
  H5Eclear2(H5E_DEFAULT);
  return why;
}

std::vector<Damage> check_readable(const fs::path &path, const CheckOptions &options) {
  std::vector<Damage> tolerated;
  for (;;) {
    auto damage = read_in_child(path, options, tolerated);
    if (!damage) return tolerated;
    bool known = false;
    for (const auto &d : tolerated) known = known || d.object == damage->object;
    if (known || !options.tolerate || !options.tolerate(damage->object) || tolerated.size() >= 64)
      throw Error("damaged HDF5 file: " + damage->reason,
                  ErrorContext{path.string(), damage->object, {}, {}, {}});
    tolerated.push_back(*damage);
  }
}

}  // namespace opforge::h5
