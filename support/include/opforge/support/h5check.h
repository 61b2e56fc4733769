//===- h5check.h - reading a possibly damaged HDF5 file in a child process ===//
//
// libhdf5 trusts the bytes of a file: one changed byte can make it crash
// (variable-length string reads follow a damaged heap address) rather than
// return an error. `check_readable` reads every object, attribute and
// dataset of a file in a forked child, with a time limit and an address-space
// limit, so that a damaged file becomes an opforge::Error naming the file and
// the object, never a signal in the caller.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace opforge::h5 {

struct CheckOptions {
  // Each read of the file; 0: 5 s (set_check_base_time_s) plus 1 s per 2 MB of
  // file, at most 120 s.
  double timeout_s = 0;
  uint64_t max_object_bytes = 1ull << 32;  // one dataset or attribute in memory
  // Objects (datasets, "/a/b") whose damage the caller handles itself: they are
  // returned instead of thrown, and the rest of the file is still checked.
  std::function<bool(const std::string &object)> tolerate;
};

// The base of the limit a read gets when CheckOptions::timeout_s is 0 (as in
// h5::File::open and Corpus::open): default 5 s. The fuzz targets, which open
// thousands of small damaged files, set less.
void set_check_base_time_s(double seconds);

struct Damage {
  std::string object;  // "/calls/float32/data"
  std::string reason;  // "dataset: inflate() failed", "reading it crashed libhdf5 (...)"
};

// Throws opforge::Error{file, object, "damaged HDF5 file: ..."} for the first
// object that cannot be read (an HDF5 error, a crash of the reading child, a
// read past the time limit or an implausible size) unless options.tolerate
// accepts it; returns the tolerated ones.
std::vector<Damage> check_readable(const std::filesystem::path &path,
                                   const CheckOptions &options = {});

// Reads the string in attribute `attr` (an hid_t; fixed or variable length, scalar
// or one element) into `out`. A null variable-length string, what a damaged
// global heap reference can read back as, is refused (H5::Attribute::read passes
// it to strlen). Returns an empty string on success, else why it failed.
std::string read_string_attribute(int64_t attr, std::string &out);

}  // namespace opforge::h5
