//===- loopback_endpoint.h - an OpenAI-compatible chat endpoint on loopback, for tests ===//
//
// A real HTTP server (cpp-httplib) on an ephemeral 127.0.0.1 port answering
// /v1/chat/completions with whatever the test's handler says, recording every
// request body; the openai provider (libcurl) talks to it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <httplib.h>

#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "opforge/generator/openai_provider.h"

namespace opforge::test {

using nlohmann::json;

inline std::string fenced(const std::string &code) {
  return "Here is the kernel:\n\n```python\n" + code + "```\n";
}

inline json completion(const std::string &content) {
  return {{"id", "chatcmpl-1"},
          {"object", "chat.completion"},
          {"model", "loopback-model"},
          {"choices",
           {{{"index", 0},
             {"message", {{"role", "assistant"}, {"content", content}}},
             {"finish_reason", "stop"}}}}};
}

// A chat-completions endpoint on 127.0.0.1:<ephemeral>; `handler(n, req, res)` answers the n-th
// request (0-based).
class LoopbackEndpoint {
 public:
  using Handler = std::function<void(int, const httplib::Request &, httplib::Response &)>;
  explicit LoopbackEndpoint(Handler h) : handler_(std::move(h)) {
    server_.Post("/v1/chat/completions",
                 [this](const httplib::Request &req, httplib::Response &res) {
                   int n;
                   {
                     std::lock_guard lock(mutex_);
                     n = static_cast<int>(bodies_.size());
                     bodies_.push_back(json::parse(req.body));
                     auth_.push_back(req.get_header_value("Authorization"));
                   }
                   handler_(n, req, res);
                 });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~LoopbackEndpoint() {
    server_.stop();
    thread_.join();
  }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  std::vector<json> bodies() {
    std::lock_guard lock(mutex_);
    return bodies_;
  }
  std::vector<std::string> auth() {
    std::lock_guard lock(mutex_);
    return auth_;
  }

 private:
  Handler handler_;
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  std::vector<json> bodies_;
  std::vector<std::string> auth_;
};

inline generator::OpenAIConfig config_for(const LoopbackEndpoint &ep) {
  generator::OpenAIConfig c;
  c.base_url = ep.base_url();
  c.model = "loopback-model";
  c.api_key_env = "OPFORGE_TEST_LOOPBACK_KEY";
  c.request_timeout_s = 10;
  c.max_retries = 3;
  c.backoff_initial_s = 0.01;
  c.backoff_max_s = 0.05;
  return c;
}

}  // namespace opforge::test
