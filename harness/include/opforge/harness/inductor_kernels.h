//===- inductor_kernels.h - kernel sets rendered on demand from the inductor lowering table ===//
//
// A workload's `inductor_kernels` names a manifest (scenarios/traces/kernels.json):
// the overloads, with their schemas, whose kernels the inductor provider renders
// from its lowering table (generator/inductor). Nothing rendered is committed:
// reading the scenario renders the set into a cache directory keyed by the
// rendered text, so an edited template, row or manifest gets a new directory
// and a stale render is never used. Format: docs/scenarios.md.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <string>
#include <vector>

namespace opforge::generator {
class LoweringTable;
}

namespace opforge::harness {

struct InductorKernel {
  std::string overload;  // "aten::addmm"
  std::string schema;    // as the corpus records it: "aten::addmm(Tensor self, ...) -> Tensor"
  std::string note;      // what it was verified on, why it is in the set ("" none)
};

struct InductorKernelSet {
  std::string file;  // the manifest it was read from
  std::vector<InductorKernel> kernels;
};

// Reads a manifest. Throws opforge::Error naming the file and JSON path of the
// first problem (unknown field, missing overload or schema, an overload twice).
InductorKernelSet read_inductor_kernel_set(const std::string &path);

// The files of the set: library file name ("addmm.py") -> a comment header
// (the overload, its template, the note) followed by exactly what
// `table.render(overload, schema)` returns. Throws opforge::Error naming the
// manifest, the JSON path and the overload when one does not render.
std::map<std::string, std::string> render_inductor_kernel_set(
    const InductorKernelSet &set, const generator::LoweringTable &table);

// Where rendered sets are kept: $OPFORGE_CACHE_DIR/inductor-kernels, else
// <build dir>/cache/inductor-kernels.
std::string inductor_kernel_cache_dir();

// Renders the manifest's set with the lowering table in `table_dir` ("" : the
// source tree's generator/inductor) and returns the directory holding exactly
// those files: <cache>/<manifest stem>-<16 hex digits of FNV-1a over the file
// names and texts>. An existing directory is used only when its .py files are
// byte for byte the ones just rendered; otherwise it is replaced. Written
// through a temporary directory and a rename, so concurrent runs (sweep jobs)
// never see a half-written set. Throws opforge::Error.
std::string rendered_inductor_kernel_dir(const std::string &manifest_path,
                                         const std::string &table_dir = "");

}  // namespace opforge::harness
