//===- scenario.h - co-design scenarios: arch, sweep axes, workloads ------===//
//
// A scenario (scenarios/*.json, schema in docs/scenarios.md) names an
// architecture preset of the chip model plus overrides, sweep axes over any
// field of the resolved architecture document, the workloads run at every
// point, the timing mode, the counter sampling interval, a per-point timeout
// and the output file. parse_scenario() rejects unknown fields, unknown
// architecture fields and empty sweeps with an opforge::Error naming the file
// and the JSON path.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace opforge::harness {

// One argument of a kernel's argument block (little-endian 64-bit words).
struct KernelArg {
  enum class Kind { Value, Alloc, LocalBase };
  Kind kind = Kind::Value;
  uint64_t value = 0;        // Value: the word; Alloc: bytes; LocalBase: offset
  bool per_program = false;  // Alloc: bytes are per program instance
};

// One ATen call of an `aten` or `trace` workload. Arguments are JSON in the
// call-spec form of docs/scenarios.md: numbers, booleans, null, strings,
// lists, {"shape": [..], "dtype": "float32"[, "low": a, "high": b]} for a
// random tensor, {"dtype_value": "float32"} for a torch dtype argument.
// Traces chain tensors: {"shape", "dtype", "from": [K, J]} is output J of
// call K; {"shape", "dtype", "input": N[, "values": [...]]} is the N-th
// parameter or model input (the same tensor at every use).
struct AtenCall {
  std::string op;          // "aten::add.Tensor"
  nlohmann::json args;     // list of call specs
  nlohmann::json kwargs;   // object of call specs
  nlohmann::json outputs;  // traces: the recorded outputs' {"shape", "dtype"} (may be empty)
  std::string where;       // file and JSON path, for errors
};

struct Workload {
  enum class Kind { Elf, Asm, Aten, Corpus, Trace, Model };
  std::string name;
  Kind kind = Kind::Elf;
  std::string path;          // Elf / Asm: the program; Corpus: the corpus; Trace: the trace file
  bool grid_per_pe = false;  // one program instance per PE of the point
  uint32_t grid[3] = {1, 1, 1};  // otherwise this grid
  std::vector<KernelArg> args;
  // Aten / Trace: the calls, in order; Corpus: the overloads and dtypes selected.
  std::vector<AtenCall> calls;
  std::vector<std::string> overloads;
  std::vector<std::string> dtypes;
  uint64_t max_calls = 0;  // Corpus: per overload and dtype (0: all)
  bool verify = true;      // Aten / Trace: compare with the IR interpreter's result
  std::string library;     // kernel library directory ("" : the shipped one)
  // Directories searched, in order, for the overloads `library` has no kernel for.
  std::vector<std::string> extra_libraries;
  uint64_t seed = 0;  // random inputs
  // Model: a model of python/opforge/models.py (dtypes[0] its dtype), its sizes, and
  // whether the point runs a training step after the forward pass.
  std::string model;
  nlohmann::json model_shape;
  bool train = false;
};

// Workload kinds that run ATen overloads through the kernel library.
inline bool is_aten_family(Workload::Kind k) {
  return k == Workload::Kind::Aten || k == Workload::Kind::Corpus || k == Workload::Kind::Trace;
}

// One sweep axis: a single field, or several fields zipped (same length).
struct SweepAxis {
  std::vector<std::string> fields;                  // dotted arch paths ("grid.rows")
  std::vector<std::vector<nlohmann::json>> values;  // values[i][f]: i-th step of field f
};

// The sweep axis field that loads ISA extension files per point instead of
// setting an architecture field: each value is a list of extension files
// (relative to the scenario file), e.g. [] vs ["vfexpscale.ext"].
inline constexpr const char *kIsaExtAxis = "isa_ext";

struct Scenario {
  std::string file;      // where it was read from ("" for in-memory documents)
  std::string base_dir;  // relative paths in the scenario resolve against it
  std::string name;
  std::string description;
  std::string arch = "mtia-2i";
  std::vector<std::pair<std::string, nlohmann::json>> overrides;
  std::vector<SweepAxis> axes;
  std::vector<Workload> workloads;
  std::string timing;                        // "functional", "lt" or "" (the preset's)
  uint64_t sample_interval_cycles = 0;       // 0: no counter traces
  std::vector<std::string> sample_counters;  // globs sampled when the interval is set
  double timeout_s = 300;                    // per point
  std::string output;                        // results file (resolved against the cwd)
  // ISA extension files (docs/isa/extensions.md) loaded at every point,
  // absolute; an `isa_ext` axis adds its value's files per point.
  std::vector<std::string> isa_extensions;
  nlohmann::json document;  // the scenario as read
};

// Read and validate a scenario file. Throws opforge::Error.
Scenario parse_scenario_file(const std::string &path);
// Validate a document; relative program paths resolve against `base_dir`.
Scenario parse_scenario(const nlohmann::json &doc, const std::string &file,
                        const std::string &base_dir);

// The resolved architecture document of the chip model for a preset name or
// file (the fields sweep axes and overrides may name).
nlohmann::json resolved_arch_document(const std::string &arch);
// Set a dotted path in an architecture document; the path must exist.
// Throws opforge::Error naming `where` and the field.
void set_arch_field(nlohmann::json &doc, const std::string &dotted, const nlohmann::json &value,
                    const std::string &where);

}  // namespace opforge::harness
