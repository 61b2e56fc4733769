//===- capture.h - run a program, its output captured (runner internal) ---===//
#pragma once

#include <string>
#include <vector>

namespace opforge::harness::detail {

// Runs argv (PATH lookup, no shell), stdout and stderr captured together into `output`
// (trailing newlines and spaces dropped); returns the exit status (128 + signal when killed).
int capture(const std::vector<std::string> &argv, std::string &output);

}  // namespace opforge::harness::detail
