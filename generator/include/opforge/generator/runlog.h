//===- runlog.h - the generation run log: one JSON object per line ---------===//
//
// Every state transition, prompt, response, diagnostic and verdict of a
// generation run is one JSONL record (format in docs/generator/runlog.md).
// Each record is written and flushed before append() returns, so a killed
// run loses nothing it had written. The log is also the replay provider's
// input. append() is thread-safe.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace opforge::generator {

class RunLog {
 public:
  // Opens `path` for appending (creates it and its directory). Throws
  // opforge::Error naming the path when it cannot. An empty path keeps
  // records in memory only.
  explicit RunLog(const std::string &path = {});
  ~RunLog();
  RunLog(const RunLog &) = delete;
  RunLog &operator=(const RunLog &) = delete;

  // Adds "seq" and "time" (UTC ISO-8601) and writes the record as one line.
  void append(nlohmann::json record);
  const std::string &path() const { return path_; }
  // Called with every record after it is written, under the log's lock (records
  // appended from several threads arrive one at a time): `opforge generate
  // --verbose` prints state transitions and feedback as they happen.
  void set_listener(std::function<void(const nlohmann::json &)> listener);
  // Every record appended through this object, in order.
  std::vector<nlohmann::json> records() const;

 private:
  std::string path_;
  std::FILE *file_ = nullptr;
  mutable std::mutex mutex_;
  int64_t seq_ = 0;
  std::vector<nlohmann::json> records_;
  std::function<void(const nlohmann::json &)> listener_;
};

// Reads a run log; throws opforge::Error naming the file and line of a bad record.
std::vector<nlohmann::json> read_runlog(const std::string &path);

// A record without its run-dependent fields (seq, time, latency_ms), for
// comparing two runs.
nlohmann::json stable_record(const nlohmann::json &record);

}  // namespace opforge::generator
