// runlog.cpp - JSONL run log: append-and-flush writer and reader.
#include "opforge/generator/runlog.h"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "error_ctx.h"
#include "opforge/support/config.h"
#include "opforge/support/error.h"

namespace opforge::generator {

namespace {
std::string utc_now() {
  auto now = std::chrono::system_clock::now();
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[80];
  std::snprintf(out, sizeof out, "%s.%03dZ", buf, static_cast<int>(ms));
  return out;
}
}  // namespace

RunLog::RunLog(const std::string &path) : path_(path) {
  if (path.empty()) return;
  std::filesystem::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  file_ = std::fopen(path.c_str(), "a");
  if (!file_) throw Error("cannot open run log for appending", at_file(path));
}

RunLog::~RunLog() {
  if (file_) std::fclose(file_);
}

void RunLog::append(nlohmann::json record) {
  std::lock_guard lock(mutex_);
  record["seq"] = seq_++;
  // A record copied from another log (a worker process's) keeps its time.
  if (!record.contains("time") || !record["time"].is_string()) record["time"] = utc_now();
  if (file_) {
    std::string line = record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    line += '\n';
    if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0)
      throw Error("cannot write run log record", at_file(path_));
  }
  if (listener_) listener_(record);
  records_.push_back(std::move(record));
}

void RunLog::set_listener(std::function<void(const nlohmann::json &)> listener) {
  std::lock_guard lock(mutex_);
  listener_ = std::move(listener);
}

std::vector<nlohmann::json> RunLog::records() const {
  std::lock_guard lock(mutex_);
  return records_;
}

std::vector<nlohmann::json> read_runlog(const std::string &path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open run log", at_file(path));
  std::vector<nlohmann::json> out;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    nlohmann::json j;
    try {
      j = parse_json(line, path);
    } catch (const Error &e) {
      throw Error("run log record: " + e.message(), at_file(path, line_no));
    }
    if (!j.is_object()) throw Error("run log record is not a JSON object", at_file(path, line_no));
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::json stable_record(const nlohmann::json &record) {
  nlohmann::json r = record;
  r.erase("seq");
  r.erase("time");
  r.erase("latency_ms");
  r.erase("wall_ms");
  return r;
}

}  // namespace opforge::generator
