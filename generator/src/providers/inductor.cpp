// inductor.cpp - the offline provider: answers with the overload's filled template.
#include "opforge/generator/inductor.h"

namespace opforge::generator {

namespace {

class InductorProvider : public Provider {
 public:
  InductorProvider(std::shared_ptr<const LoweringTable> table,
                   std::map<std::string, std::string> schemas)
      : table_(std::move(table)), schemas_(std::move(schemas)) {}
  std::string name() const override { return "inductor"; }
  std::string model() const override { return "inductor-templates"; }
  std::vector<ChatReply> complete(const std::vector<ChatRequest> &requests) override {
    std::vector<ChatReply> out;
    for (const auto &req : requests) {
      ChatReply reply;
      reply.model = model();
      auto it = schemas_.find(req.key.overload);
      Rendered r = table_->render(req.key.overload, it == schemas_.end() ? "" : it->second);
      if (!r.error.empty()) {
        reply.status = ChatReply::Status::Unsupported;
        reply.error = r.error;
      } else {
        reply.text = "Lowered from " + r.template_path + ":\n\n```python\n" + r.source +
                     (r.source.ends_with("\n") ? "" : "\n") + "```\n";
      }
      out.push_back(std::move(reply));
    }
    return out;
  }

 private:
  std::shared_ptr<const LoweringTable> table_;
  std::map<std::string, std::string> schemas_;
};

}  // namespace

std::unique_ptr<Provider> make_inductor_provider(std::shared_ptr<const LoweringTable> table,
                                                 std::map<std::string, std::string> schemas) {
  return std::make_unique<InductorProvider>(std::move(table), std::move(schemas));
}

}  // namespace opforge::generator
