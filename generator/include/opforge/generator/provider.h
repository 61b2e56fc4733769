//===- provider.h - where kernels come from: one interface for all providers -===//
//
// A provider answers chat requests (system + user/assistant turns) with
// text. The loop sends every attempt that is in its Generate state in one
// batch, so providers that talk to a server run them concurrently. Providers:
// `openai` (OpenAI-compatible chat completions over HTTP, openai_provider.h),
// `replay` (recorded responses from a run log, replay_provider.h); an offline
// template provider plugs in the same way.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace opforge::generator {

struct ChatMessage {
  std::string role;  // "system", "user", "assistant"
  std::string content;
};

// Identifies one model call of a run; the replay provider keys on it.
struct CallKey {
  std::string overload;  // "aten::add.Tensor"
  int attempt = 0;       // 0-based independent attempt (--k)
  int dialog = 0;        // 0-based dialog within the attempt
  int call = 0;          // 0-based model call within the dialog
};

struct ChatRequest {
  CallKey key;
  std::vector<ChatMessage> messages;
  uint64_t seed = 0;        // per attempt; providers that sample pass it on
  double temperature = -1;  // < 0: the provider's configured value
};

// One retried request: why, what the server said, how long the provider waited.
struct RetryRecord {
  int try_number = 0;   // the request that failed (1 = the first)
  std::string cause;    // http_429, http_5xx, timeout, connect, reset, reused_connection_reset
  int http_status = 0;  // 0: no HTTP reply
  double delay_ms = 0;  // wait before the next request
  std::string error;    // one line
};

struct ChatReply {
  // Unsupported: the provider has no answer for this overload (no lowering rule).
  enum class Status { Ok, HttpError, Timeout, Malformed, Transport, Unsupported };
  Status status = Status::Ok;
  std::string text;     // the assistant message (Ok)
  std::string error;    // one line (not Ok)
  int http_status = 0;  // last HTTP status seen (0: none)
  int tries = 0;        // HTTP requests made (retries included)
  double latency_ms = 0;
  std::string model;                 // the model that answered, when known
  std::vector<RetryRecord> retries;  // every retry, in order (tries - 1 of them, plus resets of
                                     // reused connections that libcurl resent itself)
  bool ok() const { return status == Status::Ok; }
};

std::string status_name(ChatReply::Status s);
ChatReply::Status parse_status(const std::string &name);  // throws opforge::Error

class Provider {
 public:
  virtual ~Provider() = default;
  virtual std::string name() const = 0;   // "openai", "replay"
  virtual std::string model() const = 0;  // model name recorded in the log and library headers
  // One reply per request, in request order. Never throws for a failed
  // request: the failure is the reply's status.
  virtual std::vector<ChatReply> complete(const std::vector<ChatRequest> &requests) = 0;
};

}  // namespace opforge::generator
