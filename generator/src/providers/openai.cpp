// openai.cpp - OpenAI-compatible chat-completions provider (libcurl multi, retries, backoff).
#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <mutex>

#include "opforge/generator/openai_provider.h"
#include "../error_ctx.h"
#include "opforge/support/config.h"
#include "opforge/support/error.h"
#include "opforge/support/log.h"

namespace opforge::generator {

namespace {

using Clock = std::chrono::steady_clock;

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

size_t write_cb(char *data, size_t size, size_t n, void *user) {
  static_cast<std::string *>(user)->append(data, size * n);
  return size * n;
}

struct Transfer {
  size_t index = 0;
  CURL *easy = nullptr;
  curl_slist *headers = nullptr;
  std::string body;
  std::string response;
  std::string retry_after;
  int tries = 0;
  int reused_resets = 0;  // resends libcurl made itself after a reused connection died
  std::vector<RetryRecord> retries;
  Clock::time_point next_start;
  Clock::time_point first_start;
  bool active = false;
  bool done = false;
};

// libcurl resends a request by itself when a reused connection turns out dead;
// its only trace is this informational line.
int debug_cb(CURL *, curl_infotype type, char *data, size_t size, void *user) {
  if (type == CURLINFO_TEXT) {
    std::string_view line(data, size);
    if (line.find("retrying a fresh connect") != std::string_view::npos ||
        line.find("Connection died, retrying") != std::string_view::npos)
      ++static_cast<Transfer *>(user)->reused_resets;
  }
  return 0;
}

size_t header_cb(char *data, size_t size, size_t n, void *user) {
  std::string line(data, size * n);
  std::string lower = line;
  for (auto &c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.rfind("retry-after:", 0) == 0) {
    std::string v = line.substr(12);
    v.erase(0, v.find_first_not_of(" \t"));
    v.erase(v.find_last_not_of(" \t\r\n") + 1);
    static_cast<Transfer *>(user)->retry_after = v;
  }
  return size * n;
}

std::string snippet_of(const std::string &s, size_t max = 200) {
  std::string out = s.substr(0, max);
  for (auto &c : out)
    if (c == '\n' || c == '\r') c = ' ';
  return s.size() > max ? out + "..." : out;
}

class OpenAIProvider : public Provider {
 public:
  explicit OpenAIProvider(OpenAIConfig cfg) : cfg_(std::move(cfg)) { global_init(); }
  std::string name() const override { return "openai"; }
  std::string model() const override { return cfg_.model; }

  std::vector<ChatReply> complete(const std::vector<ChatRequest> &requests) override {
    std::vector<ChatReply> replies(requests.size());
    std::vector<Transfer> transfers(requests.size());
    auto now = Clock::now();
    for (size_t i = 0; i < requests.size(); ++i) {
      transfers[i].index = i;
      transfers[i].body = request_body(requests[i]).dump();
      transfers[i].next_start = now;
      transfers[i].first_start = now;
    }
    CURLM *multi = curl_multi_init();
    if (!multi) {
      for (auto &r : replies) r = failed(ChatReply::Status::Transport, "curl_multi_init failed");
      return replies;
    }
    size_t remaining = requests.size();
    int in_flight = 0;
    const int max_in_flight = std::max(1, cfg_.concurrency);
    while (remaining > 0) {
      now = Clock::now();
      for (auto &t : transfers) {
        if (in_flight >= max_in_flight) break;
        if (t.done || t.active || t.next_start > now) continue;
        start(multi, t);
        ++in_flight;
      }
      int running = 0;
      curl_multi_perform(multi, &running);
      int queued = 0;
      while (CURLMsg *msg = curl_multi_info_read(multi, &queued)) {
        if (msg->msg != CURLMSG_DONE) continue;
        Transfer *t = nullptr;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char **>(&t));
        long http = 0;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_RESPONSE_CODE, &http);
        CURLcode rc = msg->data.result;
        finish(multi, *t);
        --in_flight;
        ChatReply &reply = replies[t->index];
        reply = ChatReply{};
        reply.http_status = static_cast<int>(http);
        // libcurl's own resends are tries too: each is a retry record numbered in order.
        for (; t->reused_resets > 0; --t->reused_resets) {
          note_retry(*t, "reused_connection_reset", 0, 0,
                     "connection reset on a reused connection; libcurl resent the request");
          ++t->tries;
        }
        reply.tries = t->tries;
        bool retryable = false;
        std::string cause;
        if (rc == CURLE_OPERATION_TIMEDOUT) {
          reply.status = ChatReply::Status::Timeout;
          reply.error = "request timed out after " + std::to_string(cfg_.request_timeout_s) + " s";
          retryable = true;
          cause = "timeout";
        } else if (rc != CURLE_OK) {
          reply.status = ChatReply::Status::Transport;
          reply.error = std::string("transport error: ") + curl_easy_strerror(rc);
          retryable = rc == CURLE_COULDNT_CONNECT || rc == CURLE_GOT_NOTHING ||
                      rc == CURLE_RECV_ERROR || rc == CURLE_SEND_ERROR;
          cause = rc == CURLE_COULDNT_CONNECT ? "connect" : "reset";
        } else if (http == 429 || http >= 500) {
          reply.status = ChatReply::Status::HttpError;
          reply.error = "HTTP " + std::to_string(http) + ": " + snippet_of(t->response);
          retryable = true;
          cause = http == 429 ? "http_429" : "http_5xx";
        } else if (http != 200) {
          reply.status = ChatReply::Status::HttpError;
          reply.error = "HTTP " + std::to_string(http) + ": " + snippet_of(t->response);
        } else {
          parse_reply(t->response, reply);
        }
        if (retryable && t->tries <= cfg_.max_retries) {
          auto delay = backoff(*t);
          note_retry(*t, cause, static_cast<int>(http), static_cast<double>(delay.count()),
                     reply.error);
          t->next_start = Clock::now() + delay;
          continue;
        }
        reply.retries = std::move(t->retries);
        if (retryable && t->tries > 1)
          reply.error += " (after " + std::to_string(t->tries) + " tries)";
        reply.latency_ms =
            std::chrono::duration<double, std::milli>(Clock::now() - t->first_start).count();
        t->done = true;
        --remaining;
      }
      if (remaining == 0) break;
      // Sleep until network activity or the next scheduled retry (at most 100 ms).
      int wait_ms = 100;
      if (in_flight == 0) {
        auto next = Clock::time_point::max();
        for (auto &t : transfers)
          if (!t.done && !t.active) next = std::min(next, t.next_start);
        auto ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(next - Clock::now()).count();
        wait_ms = static_cast<int>(std::clamp<long long>(ms, 0, 100));
      }
      curl_multi_poll(multi, nullptr, 0, wait_ms, nullptr);
    }
    curl_multi_cleanup(multi);
    for (auto &r : replies)
      if (r.ok()) r.model = r.model.empty() ? cfg_.model : r.model;
    return replies;
  }

 private:
  OpenAIConfig cfg_;

  // Record one retry and say so on stderr (info level).
  void note_retry(Transfer &t, const std::string &cause, int http, double delay_ms,
                  const std::string &error) const {
    RetryRecord r{t.tries, cause, http, delay_ms, error};
    log::info("openai: request " + std::to_string(t.index) + " try " + std::to_string(t.tries) +
              ": " + (http ? "HTTP " + std::to_string(http) + " " : std::string()) + cause +
              "; retry in " + std::to_string(static_cast<int64_t>(delay_ms)) + " ms (" +
              snippet_of(error, 160) + ")");
    t.retries.push_back(std::move(r));
  }

  static ChatReply failed(ChatReply::Status s, std::string error) {
    ChatReply r;
    r.status = s;
    r.error = std::move(error);
    return r;
  }

  nlohmann::json request_body(const ChatRequest &req) const {
    nlohmann::json msgs = nlohmann::json::array();
    for (const auto &m : req.messages) msgs.push_back({{"role", m.role}, {"content", m.content}});
    nlohmann::json body = {
        {"model", cfg_.model},
        {"messages", msgs},
        {"temperature", req.temperature >= 0 ? req.temperature : cfg_.temperature},
        {"top_p", cfg_.top_p},
        {"max_tokens", cfg_.max_tokens},
        {"seed", req.seed},
        {"stream", false}};
    return body;
  }

  std::chrono::milliseconds backoff(const Transfer &t) const {
    double s = cfg_.backoff_initial_s * std::pow(2.0, std::max(0, t.tries - 1));
    if (!t.retry_after.empty()) {
      char *end = nullptr;
      double ra = std::strtod(t.retry_after.c_str(), &end);
      if (end && *end == '\0' && ra >= 0) s = std::max(s, ra);
    }
    s = std::min(s, cfg_.backoff_max_s);
    return std::chrono::milliseconds(static_cast<int64_t>(s * 1000));
  }

  void start(CURLM *multi, Transfer &t) {
    t.response.clear();
    t.retry_after.clear();
    t.easy = curl_easy_init();
    std::string url = cfg_.base_url;
    while (!url.empty() && url.back() == '/') url.pop_back();
    url += "/chat/completions";
    curl_easy_setopt(t.easy, CURLOPT_URL, url.c_str());
    t.headers = curl_slist_append(nullptr, "Content-Type: application/json");
    if (!cfg_.api_key_env.empty()) {
      if (const char *key = std::getenv(cfg_.api_key_env.c_str()); key && *key)
        t.headers =
            curl_slist_append(t.headers, (std::string("Authorization: Bearer ") + key).c_str());
    }
    curl_easy_setopt(t.easy, CURLOPT_HTTPHEADER, t.headers);
    curl_easy_setopt(t.easy, CURLOPT_POSTFIELDS, t.body.c_str());
    curl_easy_setopt(t.easy, CURLOPT_POSTFIELDSIZE, static_cast<long>(t.body.size()));
    curl_easy_setopt(t.easy, CURLOPT_WRITEFUNCTION, write_cb);
    curl_easy_setopt(t.easy, CURLOPT_WRITEDATA, &t.response);
    curl_easy_setopt(t.easy, CURLOPT_HEADERFUNCTION, header_cb);
    curl_easy_setopt(t.easy, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(t.easy, CURLOPT_PRIVATE, &t);
    curl_easy_setopt(t.easy, CURLOPT_DEBUGFUNCTION, debug_cb);
    curl_easy_setopt(t.easy, CURLOPT_DEBUGDATA, &t);
    curl_easy_setopt(t.easy, CURLOPT_VERBOSE, 1L);
    curl_easy_setopt(t.easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(t.easy, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(cfg_.connect_timeout_s * 1000));
    curl_easy_setopt(t.easy, CURLOPT_TIMEOUT_MS, static_cast<long>(cfg_.request_timeout_s * 1000));
    curl_multi_add_handle(multi, t.easy);
    t.active = true;
    ++t.tries;
  }

  static void finish(CURLM *multi, Transfer &t) {
    curl_multi_remove_handle(multi, t.easy);
    curl_easy_cleanup(t.easy);
    curl_slist_free_all(t.headers);
    t.easy = nullptr;
    t.headers = nullptr;
    t.active = false;
  }

  static void parse_reply(const std::string &body, ChatReply &reply) {
    auto j = nlohmann::json::parse(body, nullptr, false);
    if (j.is_discarded()) {
      reply.status = ChatReply::Status::Malformed;
      reply.error = "response is not JSON: " + snippet_of(body);
      return;
    }
    const nlohmann::json *content = nullptr;
    if (j.is_object() && j.contains("choices") && j["choices"].is_array() &&
        !j["choices"].empty()) {
      const auto &c0 = j["choices"][0];
      if (c0.is_object() && c0.contains("message") && c0["message"].is_object() &&
          c0["message"].contains("content") && c0["message"]["content"].is_string())
        content = &c0["message"]["content"];
    }
    if (!content) {
      reply.status = ChatReply::Status::Malformed;
      reply.error = "response has no choices[0].message.content string: " + snippet_of(body);
      return;
    }
    reply.status = ChatReply::Status::Ok;
    reply.text = content->get<std::string>();
    if (j.contains("model") && j["model"].is_string()) reply.model = j["model"].get<std::string>();
  }
};

template <typename T>
void read_field(const nlohmann::json &j, const char *key, T &out, const std::string &file) {
  if (!j.contains(key)) return;
  try {
    out = j.at(key).get<T>();
  } catch (const nlohmann::json::exception &) {
    throw Error("wrong type for this field", at_field(file, std::string("/") + key));
  }
}

}  // namespace

OpenAIConfig OpenAIConfig::from_json(const nlohmann::json &j, const std::string &file) {
  if (!j.is_object()) throw Error("provider config must be a JSON object", at_file(file));
  static const char *known[] = {
      "base_url",    "model",       "api_key_env",       "temperature",
      "top_p",       "max_tokens",  "connect_timeout_s", "request_timeout_s",
      "concurrency", "max_retries", "backoff_initial_s", "backoff_max_s"};
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find(std::begin(known), std::end(known), it.key()) == std::end(known))
      throw Error("unknown provider config key", at_field(file, "/" + it.key()));
  OpenAIConfig c;
  read_field(j, "base_url", c.base_url, file);
  read_field(j, "model", c.model, file);
  read_field(j, "api_key_env", c.api_key_env, file);
  read_field(j, "temperature", c.temperature, file);
  read_field(j, "top_p", c.top_p, file);
  read_field(j, "max_tokens", c.max_tokens, file);
  read_field(j, "connect_timeout_s", c.connect_timeout_s, file);
  read_field(j, "request_timeout_s", c.request_timeout_s, file);
  read_field(j, "concurrency", c.concurrency, file);
  read_field(j, "max_retries", c.max_retries, file);
  read_field(j, "backoff_initial_s", c.backoff_initial_s, file);
  read_field(j, "backoff_max_s", c.backoff_max_s, file);
  if (c.concurrency < 1) throw Error("must be >= 1", at_field(file, "/concurrency"));
  if (c.max_retries < 0) throw Error("must be >= 0", at_field(file, "/max_retries"));
  if (c.request_timeout_s <= 0) throw Error("must be > 0", at_field(file, "/request_timeout_s"));
  return c;
}

OpenAIConfig OpenAIConfig::from_file(const std::string &path) {
  if (!std::ifstream(path)) throw Error("cannot open provider config", at_file(path));
  return from_json(load_json_file(path), path);
}

nlohmann::json OpenAIConfig::to_json() const {
  return {{"base_url", base_url},
          {"model", model},
          {"api_key_env", api_key_env},
          {"temperature", temperature},
          {"top_p", top_p},
          {"max_tokens", max_tokens},
          {"connect_timeout_s", connect_timeout_s},
          {"request_timeout_s", request_timeout_s},
          {"concurrency", concurrency},
          {"max_retries", max_retries},
          {"backoff_initial_s", backoff_initial_s},
          {"backoff_max_s", backoff_max_s}};
}

std::unique_ptr<Provider> make_openai_provider(const OpenAIConfig &config) {
  return std::make_unique<OpenAIProvider>(config);
}

}  // namespace opforge::generator
