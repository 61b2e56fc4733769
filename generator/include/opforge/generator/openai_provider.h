//===- openai_provider.h - OpenAI-compatible chat completions over libcurl ---===//
//
// Talks to any server that implements POST {base_url}/chat/completions
// (vLLM, llama.cpp server, Ollama, hosted APIs). Requests of a batch run
// concurrently (curl multi, at most `concurrency` in flight); 429, 5xx and
// timeouts are retried with exponential backoff (Retry-After honoured up to
// the cap). The API key is read from the environment variable named by
// `api_key_env` at each request and is never logged or stored.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "opforge/generator/provider.h"

namespace opforge::generator {

struct OpenAIConfig {
  std::string base_url = "http://127.0.0.1:8000/v1";
  std::string model = "default";
  std::string api_key_env = "OPENAI_API_KEY";  // empty or unset: no Authorization header
  double temperature = 0.2;
  double top_p = 0.95;
  int max_tokens = 4096;
  double connect_timeout_s = 10;
  double request_timeout_s = 300;
  int concurrency = 4;  // requests in flight
  int max_retries = 4;  // retries after the first try (429, 5xx, timeouts)
  double backoff_initial_s = 1.0;
  double backoff_max_s = 60.0;

  // Reads the fields above from a JSON object (unknown keys are an error
  // naming the key; `file` names the source in errors).
  static OpenAIConfig from_json(const nlohmann::json &j, const std::string &file = "<config>");
  static OpenAIConfig from_file(const std::string &path);
  nlohmann::json to_json() const;  // the key's variable name only, never the key
};

std::unique_ptr<Provider> make_openai_provider(const OpenAIConfig &config);

}  // namespace opforge::generator
