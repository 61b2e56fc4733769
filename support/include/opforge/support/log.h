//===- log.h - leveled logging to stderr ------------------------------------===//
//
// Library code logs through these functions only (never to stdout); the CLI
// sets the level from --log-level. Default level: warn.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>

namespace opforge::log {

enum class Level { Trace, Debug, Info, Warn, Error, Off };

void set_level(Level level);
Level level();
// Accepts trace, debug, info, warn, error, off; returns false otherwise.
bool set_level_from_string(std::string_view name);
bool enabled(Level level);
void write(Level level, std::string_view message);

inline void trace(std::string_view m) {
  if (enabled(Level::Trace)) write(Level::Trace, m);
}
inline void debug(std::string_view m) {
  if (enabled(Level::Debug)) write(Level::Debug, m);
}
inline void info(std::string_view m) {
  if (enabled(Level::Info)) write(Level::Info, m);
}
inline void warn(std::string_view m) {
  if (enabled(Level::Warn)) write(Level::Warn, m);
}
inline void error(std::string_view m) {
  if (enabled(Level::Error)) write(Level::Error, m);
}

}  // namespace opforge::log
