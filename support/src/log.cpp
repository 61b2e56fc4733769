//===- log.cpp - leveled logging to stderr ----------------------------------===//
#include "opforge/support/log.h"

#include <atomic>
#include <cstdio>
#include <mutex>

namespace opforge::log {

static std::atomic<Level> g_level{Level::Warn};

void set_level(Level l) { g_level = l; }
Level level() { return g_level; }

bool set_level_from_string(std::string_view name) {
  static constexpr std::pair<std::string_view, Level> kNames[] = {
      {"trace", Level::Trace}, {"debug", Level::Debug},  {"info", Level::Info},
      {"warn", Level::Warn},   {"warning", Level::Warn}, {"error", Level::Error},
      {"off", Level::Off}};
  for (auto [n, l] : kNames)
    if (n == name) {
      set_level(l);
      return true;
    }
  return false;
}

bool enabled(Level l) { return l >= g_level.load() && l != Level::Off; }

void write(Level l, std::string_view message) {
  static std::mutex mu;
  static constexpr const char *kTags[] = {"trace", "debug", "info", "warn", "error", "off"};
  std::lock_guard<std::mutex> lock(mu);
  std::fprintf(stderr, "[%s] %.*s\n", kTags[static_cast<int>(l)], static_cast<int>(message.size()),
               message.data());
}

}  // namespace opforge::log
