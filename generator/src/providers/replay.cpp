// replay.cpp - the replay provider: responses recorded in a run log.
#include <map>
#include <tuple>

#include "opforge/generator/replay_provider.h"
#include "opforge/generator/runlog.h"
#include "../error_ctx.h"
#include "opforge/support/error.h"

namespace opforge::generator {

namespace {

using Key = std::tuple<std::string, int, int, int>;

class ReplayProvider : public Provider {
 public:
  explicit ReplayProvider(const std::vector<nlohmann::json> &records) {
    for (const auto &r : records) {
      if (r.value("event", "") == "overload_start") {
        model_ = r.value("model", model_);
        continue;
      }
      if (r.value("event", "") != "response") continue;
      Key k{r.at("overload").get<std::string>(), r.at("attempt").get<int>(),
            r.at("dialog").get<int>(), r.at("call").get<int>()};
      ChatReply reply;
      reply.status = parse_status(r.value("status", "ok"));
      reply.text = r.value("text", "");
      reply.error = r.value("error", "");
      reply.http_status = r.value("http_status", 0);
      reply.tries = r.value("tries", 0);
      reply.model = r.value("model", "");
      replies_[k] = reply;
    }
  }
  std::string name() const override { return "replay"; }
  std::string model() const override { return model_; }
  std::vector<ChatReply> complete(const std::vector<ChatRequest> &requests) override {
    std::vector<ChatReply> out;
    for (const auto &req : requests) {
      Key k{req.key.overload, req.key.attempt, req.key.dialog, req.key.call};
      auto it = replies_.find(k);
      if (it == replies_.end()) {
        ChatReply r;
        r.status = ChatReply::Status::Transport;
        r.error = "replay: no recorded response for " + req.key.overload + " attempt " +
                  std::to_string(req.key.attempt) + " dialog " + std::to_string(req.key.dialog) +
                  " call " + std::to_string(req.key.call);
        out.push_back(r);
      } else {
        out.push_back(it->second);
      }
    }
    return out;
  }

 private:
  std::map<Key, ChatReply> replies_;
  std::string model_ = "replay";
};

}  // namespace

std::unique_ptr<Provider> make_replay_provider(const std::vector<nlohmann::json> &records) {
  return std::make_unique<ReplayProvider>(records);
}

std::unique_ptr<Provider> make_replay_provider(const std::string &runlog_path) {
  try {
    return make_replay_provider(read_runlog(runlog_path));
  } catch (const nlohmann::json::exception &e) {
    throw Error(std::string("bad response record: ") + e.what(), at_file(runlog_path));
  }
}

}  // namespace opforge::generator
