//===- report_json.cpp - ValidateReport to and from JSON (process shards) ===//
#include <nlohmann/json.hpp>

#include "opforge/harness/validate.h"
#include "opforge/support/config.h"
#include "opforge/support/error.h"

namespace opforge::harness {

std::string ValidateReport::to_json() const {
  nlohmann::json doc = nlohmann::json::array();
  for (const auto &r : results) {
    nlohmann::json o = {{"overload", r.overload},
                        {"file", r.file},
                        {"passed", r.passed},
                        {"total", r.total},
                        {"error", r.error},
                        {"failures", nlohmann::json::array()},
                        {"per_dtype", nlohmann::json::array()}};
    for (const auto &f : r.failures)
      o["failures"].push_back({{"dtype", std::string(dtype_name(f.dtype))},
                               {"index", f.index},
                               {"summary", f.summary},
                               {"reason", f.reason}});
    for (const auto &[d, pt] : r.per_dtype)
      o["per_dtype"].push_back({std::string(dtype_name(d)), pt.first, pt.second});
    doc.push_back(std::move(o));
  }
  return doc.dump();
}

ValidateReport ValidateReport::from_json(const std::string &text, const std::string &source) {
  ValidateReport report;
  try {
    auto doc = parse_json(text, source);
    if (!doc.is_array()) throw Error("expected a JSON array of overload results");
    for (const auto &o : doc) {
      OverloadResult r;
      r.overload = o.at("overload").get<std::string>();
      r.file = o.at("file").get<std::string>();
      r.passed = o.at("passed").get<int64_t>();
      r.total = o.at("total").get<int64_t>();
      r.error = o.at("error").get<std::string>();
      for (const auto &f : o.at("failures"))
        r.failures.push_back({dtype_from_name(f.at("dtype").get<std::string>()),
                              f.at("index").get<int64_t>(), f.at("summary").get<std::string>(),
                              f.at("reason").get<std::string>()});
      for (const auto &p : o.at("per_dtype"))
        r.per_dtype[dtype_from_name(p.at(0).get<std::string>())] = {p.at(1).get<int64_t>(),
                                                                    p.at(2).get<int64_t>()};
      report.results.push_back(std::move(r));
    }
  } catch (const nlohmann::json::exception &e) {
    throw Error("validation results " + source + ": " + e.what());
  } catch (const Error &e) {
    throw Error("validation results " + source + ": " + e.what());
  }
  return report;
}

}  // namespace opforge::harness
