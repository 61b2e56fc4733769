//===- fuzz_config_json.cpp - arch config documents over any text -----------===//
//
// The text as an arch config document (parse_json's depth and number limits,
// "extends" to the presets, the schema, every field's range), then as a
// configuration override list ("K=V" per line).
#include <sstream>

#include "fuzz_common.h"
#include "opforge/support/arch_config.h"
#include "opforge/support/config.h"

using namespace opforge;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::small_budgets();
  const std::string text = fuzz::text_of(data, size);
  fuzz::expect_only_errors([&] {
    nlohmann::json doc = parse_json(text, "fuzz.json");
    (void)ArchConfig::from_document(doc, "fuzz.json");
  });
  fuzz::expect_only_errors([&] {
    std::vector<std::string> overrides;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line) && overrides.size() < 16;)
      overrides.push_back(line);
    (void)ArchConfig::load("tiny", overrides);
  });
  return 0;
}
