// scenario_model_tests.cpp - workloads of kind "model" (a model of python/opforge/models.py on
// the opforge PyTorch device at every sweep point): what parses, and errors naming the field.
#include <gtest/gtest.h>

#include "opforge/harness/scenario.h"
#include "opforge/harness/sweep.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::harness;
using nlohmann::json;

namespace {

json doc(const std::string &workload) {
  json d = json::parse(R"({"name": "m", "arch": "tiny", "sweep": [
    {"field": "pe_grid.rows", "values": [1, 2]}]})");
  d["workloads"] = json::array({json::parse(workload)});
  return d;
}

std::string error_of(const std::string &workload) {
  try {
    parse_scenario(doc(workload), "m.json", ".");
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

TEST(ScenarioModel, AModelWorkloadParsesWithItsShapeDtypeAndTraining) {
  Scenario s =
      parse_scenario(doc(R"({"kind": "model", "model": "dlrm", "dtype": "bfloat16", "train": true,
              "shape": {"batch": 8}})"),
                     "m.json", ".");
  ASSERT_EQ(s.workloads.size(), 1u);
  const Workload &w = s.workloads[0];
  EXPECT_EQ(w.kind, Workload::Kind::Model);
  EXPECT_EQ(w.model, "dlrm");
  EXPECT_EQ(w.dtypes, std::vector<std::string>{"bfloat16"});
  EXPECT_TRUE(w.train);
  EXPECT_EQ(w.model_shape, json::parse(R"({"batch": 8})"));
  EXPECT_EQ(w.name, "dlrm-bfloat16-train");
  EXPECT_EQ(expand_sweep(s).size(), 2u);
  Scenario d =
      parse_scenario(doc(R"({"kind": "model", "model": "gpt2", "name": "g"})"), "m.json", ".");
  EXPECT_EQ(d.workloads[0].dtypes, std::vector<std::string>{"float32"});
  EXPECT_FALSE(d.workloads[0].train);
  EXPECT_EQ(d.workloads[0].name, "g");
}

TEST(ScenarioModel, BadFieldsAreErrorsNamingFileAndField) {
  std::string e = error_of(R"({"kind": "model", "model": "alexnet"})");
  EXPECT_NE(e.find("m.json"), std::string::npos) << e;
  EXPECT_NE(e.find("/workloads/0/model"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown model 'alexnet' (one of resnet18, mobilenet_v3_small, gpt2, dlrm)"),
            std::string::npos)
      << e;
  e = error_of(R"({"kind": "model"})");
  EXPECT_NE(e.find("missing required field 'model'"), std::string::npos) << e;
  e = error_of(R"({"kind": "model", "model": "gpt2", "dtype": "float64"})");
  EXPECT_NE(e.find("/workloads/0/dtype"), std::string::npos) << e;
  e = error_of(R"({"kind": "model", "model": "gpt2", "shape": {"width": 3}})");
  EXPECT_NE(e.find("/workloads/0/shape/width"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown size 'width'"), std::string::npos) << e;
  e = error_of(R"({"kind": "model", "model": "gpt2", "shape": {"seq": 0}})");
  EXPECT_NE(e.find("expected a positive integer"), std::string::npos) << e;
  e = error_of(R"({"kind": "model", "model": "gpt2", "grid": "per_pe"})");
  EXPECT_NE(e.find("unknown field 'grid'"), std::string::npos) << e;
  e = error_of(R"({"kind": "model", "model": "gpt2", "library": "no/such/dir"})");
  EXPECT_NE(e.find("kernel library directory not found"), std::string::npos) << e;
}

}  // namespace
