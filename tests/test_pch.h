//===- test_pch.h - headers precompiled once per test binary ---------------===//
//
// Every test translation unit spends most of its parse time in GoogleTest,
// nlohmann/json (through opforge's config headers) and the standard library;
// opforge_test() precompiles this header per test binary (CMake
// target_precompile_headers), so each test file parses them once per binary
// instead of once per file. Only third-party and standard headers belong
// here: a change to an opforge header must not rebuild every test's PCH.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>
