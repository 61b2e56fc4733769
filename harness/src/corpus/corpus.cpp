//===- corpus.cpp - open, check and decode the OpInfo call corpus (HDF5) --===//
#include "opforge/harness/corpus.h"

#include <H5Cpp.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <regex>
#include <set>
#include <unordered_map>

#include "opforge/harness/value_json.h"
#include "opforge/support/error.h"
#include "opforge/support/h5check.h"

#ifndef OPFORGE_SOURCE_DIR
#define OPFORGE_SOURCE_DIR "."
#endif
#ifndef OPFORGE_TORCH_VERSION
#error "OPFORGE_TORCH_VERSION (the torch pin of requirements.txt) must be defined"
#endif

namespace opforge::harness {

namespace {

ErrorContext fctx(const std::string &file, const std::string &path = "") {
  ErrorContext c;
  c.file = file;
  c.path = path;
  return c;
}

constexpr int kTensorColumns =
    7;  // dtype code, ndim, dims offset, storage offset, span start, data offset, bytes

// Calls the HDF5 C++ API and turns its exceptions into opforge::Error naming file and object.
template <class F>
auto h5_guard(const std::string &file, const std::string &object, F &&f) -> decltype(f()) {
  try {
    return f();
  } catch (const H5::Exception &e) {
    throw Error("corpus: cannot read '" + object + "': " + e.getDetailMsg() +
                    " (the file is corrupt, truncated or not an opforge corpus)",
                fctx(file, object));
  }
}

std::vector<hsize_t> dims_of(const H5::DataSet &ds) {
  H5::DataSpace sp = ds.getSpace();
  int rank = sp.getSimpleExtentNdims();
  std::vector<hsize_t> d(static_cast<size_t>(std::max(rank, 0)));
  if (rank > 0) sp.getSimpleExtentDims(d.data());
  return d;
}

template <class T>
std::vector<T> read_numeric(const H5::H5File &f, const std::string &file, const std::string &path,
                            const H5::PredType &type, size_t expect_cols = 0) {
  return h5_guard(file, path, [&] {
    H5::DataSet ds = f.openDataSet(path);
    auto d = dims_of(ds);
    size_t n = 1;
    for (auto x : d) n *= static_cast<size_t>(x);
    if (d.empty() || d.size() > 2 || (expect_cols && (d.size() != 2 || d[1] != expect_cols)) ||
        (!expect_cols && d.size() != 1))
      throw Error("corpus: dataset '" + path + "' has an unexpected shape", fctx(file, path));
    std::vector<T> v(n);
    if (n) ds.read(v.data(), type);
    return v;
  });
}

std::vector<std::string> read_strings(const H5::H5File &f, const std::string &file,
                                      const std::string &path) {
  return h5_guard(file, path, [&] {
    H5::DataSet ds = f.openDataSet(path);
    auto d = dims_of(ds);
    if (d.size() != 1) throw Error("corpus: dataset '" + path + "' is not 1-D", fctx(file, path));
    H5::StrType st(H5::PredType::C_S1, H5T_VARIABLE);
    st.setCset(H5T_CSET_UTF8);
    std::vector<char *> raw(d[0], nullptr);
    std::vector<std::string> out;
    if (d[0] == 0) return out;
    ds.read(raw.data(), st);
    out.reserve(raw.size());
    for (char *p : raw) out.emplace_back(p ? p : "");
    H5::DataSpace sp = ds.getSpace();
    H5Dvlen_reclaim(st.getId(), sp.getId(), H5P_DEFAULT, raw.data());
    return out;
  });
}

std::string read_string_attr(const H5::H5File &f, const std::string &file,
                             const std::string &name) {
  return h5_guard(file, "/@" + name, [&] {
    H5::Group root = f.openGroup("/");
    H5::Attribute a = root.openAttribute(name);
    std::string s;
    if (std::string why = h5::read_string_attribute(a.getId(), s); !why.empty())
      throw Error("attribute '" + name + "': " + why, fctx(file, "/@" + name));
    return s;
  });
}

int64_t read_int_attr(const H5::H5File &f, const std::string &file, const std::string &obj,
                      const std::string &name) {
  return h5_guard(file, obj + "@" + name, [&] {
    H5::Group g = f.openGroup(obj);
    H5::Attribute a = g.openAttribute(name);
    int64_t v = 0;
    a.read(H5::PredType::NATIVE_INT64, &v);
    return v;
  });
}

std::vector<std::string> split_commas(const std::string &s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(',', start);
    if (end == std::string::npos) end = s.size();
    if (end > start) out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// "aten::add_.Tensor" -> "add_"
std::string overload_base(const std::string &name) {
  std::string s = name.starts_with("aten::") ? name.substr(6) : name;
  return s.substr(0, s.find('.'));
}

}  // namespace

int64_t OverloadEntry::total_calls() const {
  int64_t n = 0;
  for (const auto &[dt, c] : calls_per_dtype) n += c;
  return n;
}

std::vector<opforge::DType> OverloadEntry::dtypes() const {
  std::vector<opforge::DType> out;
  for (const auto &[dt, c] : calls_per_dtype)
    if (c > 0) out.push_back(dt);
  return out;
}

// Index columns of one dtype group (read at open) and its payload (read on first use).
struct Group {
  opforge::DType dtype;
  std::string name;  // "float32"
  int64_t samples = 0;
  std::vector<int32_t> overload, opinfo, sample;
  std::vector<int64_t> tensor_base, json_offsets;
  bool loaded = false;
  std::vector<uint8_t> json, data;
  std::vector<int64_t> tensors, dims;
};

struct Corpus::State {
  std::string path;
  H5::H5File file;
  std::string torch_version;
  std::vector<std::optional<opforge::DType>> code_dtype;  // dtype code -> DType (nullopt: complex)
  std::vector<std::string> code_name;
  std::vector<OverloadEntry> overloads;
  std::unordered_map<std::string, size_t> overload_index;
  std::vector<OpInfoEntry> opinfos;
  std::vector<Exclusion> exclusions;
  std::map<std::pair<std::string, opforge::DType>, Tolerance> tolerances;
  std::vector<Group> groups;
  std::mutex load_mutex;
  std::vector<h5::Damage> damaged;  // lazily read datasets that must not be read

  const Group &group(opforge::DType dt) {
    for (auto &g : groups)
      if (g.dtype == dt) {
        load(g);
        return g;
      }
    throw Error("corpus has no calls of dtype " + std::string(dtype_name(dt)), fctx(path));
  }
  const Group *find_group(opforge::DType dt) const {
    for (const auto &g : groups)
      if (g.dtype == dt) return &g;
    return nullptr;
  }

  void load(Group &g) {
    std::lock_guard<std::mutex> lock(load_mutex);
    if (g.loaded) return;
    std::string base = "/calls/" + g.name + "/";
    for (const auto &d : damaged)
      if (d.object.starts_with(base))
        throw Error("damaged HDF5 file: " + d.reason, fctx(path, d.object));
    g.json = read_numeric<uint8_t>(file, path, base + "json", H5::PredType::NATIVE_UINT8);
    g.data = read_numeric<uint8_t>(file, path, base + "data", H5::PredType::NATIVE_UINT8);
    g.dims = read_numeric<int64_t>(file, path, base + "dims", H5::PredType::NATIVE_INT64);
    g.tensors = h5_guard(path, base + "tensors", [&] {
      H5::DataSet ds = file.openDataSet(base + "tensors");
      auto d = dims_of(ds);
      if (d.size() != 2 || d[1] != kTensorColumns)
        throw Error("corpus: dataset '" + base + "tensors' is not N x 7",
                    fctx(path, base + "tensors"));
      std::vector<int64_t> v(d[0] * d[1]);
      if (!v.empty()) ds.read(v.data(), H5::PredType::NATIVE_INT64);
      return v;
    });
    // Structural checks, so decoding never reads out of bounds.
    const int64_t n_tensors = static_cast<int64_t>(g.tensors.size() / kTensorColumns);
    for (int64_t i = 0; i < n_tensors; ++i) {
      const int64_t *r = &g.tensors[static_cast<size_t>(i * kTensorColumns)];
      bool ok = r[0] >= 0 && r[0] < static_cast<int64_t>(code_dtype.size()) && r[1] >= 0 &&
                r[1] <= 64 && r[2] >= 0 && r[2] + 2 * r[1] <= static_cast<int64_t>(g.dims.size()) &&
                r[3] >= 0 && r[5] >= 0 && r[6] >= 0 &&
                r[5] + r[6] <= static_cast<int64_t>(g.data.size()) &&
                // The span starts at or before the storage offset, which lies inside the span,
                // and the rebuilt storage stays below 16 GiB.
                r[4] >= 0 && r[4] <= r[3] && (r[6] == 0 || r[3] - r[4] < r[6]) &&
                r[4] < (int64_t{1} << 31);
      if (!ok)
        throw Error("corpus: " + g.name + " tensor row " + std::to_string(i) + " is out of range",
                    fctx(path, base + "tensors"));
    }
    if (!g.json_offsets.empty() && g.json_offsets.back() != static_cast<int64_t>(g.json.size()))
      throw Error("corpus: " + g.name + " json_offsets do not match the json blob (" +
                      std::to_string(g.json_offsets.back()) + " vs " +
                      std::to_string(g.json.size()) + " bytes)",
                  fctx(path, base + "json_offsets"));
    g.loaded = true;
  }

  Value tensor_value(const Group &g, int64_t index, const std::string &where) const {
    const int64_t n_tensors = static_cast<int64_t>(g.tensors.size() / kTensorColumns);
    if (index < 0 || index >= n_tensors)
      throw Error(where + ": tensor reference " + std::to_string(index) + " out of range",
                  fctx(path));
    const int64_t *r = &g.tensors[static_cast<size_t>(index * kTensorColumns)];
    const auto code = static_cast<size_t>(r[0]);
    const auto ndim = static_cast<size_t>(r[1]);
    std::vector<int64_t> sizes(g.dims.begin() + r[2],
                               g.dims.begin() + r[2] + static_cast<int64_t>(ndim));
    std::vector<int64_t> strides(g.dims.begin() + r[2] + static_cast<int64_t>(ndim),
                                 g.dims.begin() + r[2] + 2 * static_cast<int64_t>(ndim));
    if (!code_dtype[code]) {
      Value v;
      v.kind = Value::Kind::Opaque;
      v.text = code_name[code] + " tensor";
      return v;
    }
    DType dt = *code_dtype[code];
    const int64_t es = dtype_size(dt);
    const int64_t span_start = r[4];
    if (r[6] % es != 0)
      throw Error(
          where + ": tensor " + std::to_string(index) + " data is not a whole number of elements",
          fctx(path));
    // Storage keeps the recorded storage offset: elements before the recorded span are zero.
    auto storage =
        std::make_shared<std::vector<uint8_t>>(static_cast<size_t>(span_start * es + r[6]), 0);
    if (r[6])
      std::memcpy(storage->data() + span_start * es, g.data.data() + r[5],
                  static_cast<size_t>(r[6]));
    try {
      return Value::of_tensor(
          HostTensor(dt, std::move(sizes), std::move(strides), r[3], std::move(storage)));
    } catch (const Error &e) {
      throw Error(where + ": tensor " + std::to_string(index) + ": " + e.message(), fctx(path));
    }
  }
};

Corpus::Corpus(std::unique_ptr<State> state) : state_(std::move(state)) {}
Corpus::Corpus(Corpus &&) noexcept = default;
Corpus &Corpus::operator=(Corpus &&) noexcept = default;
Corpus::~Corpus() = default;

std::string Corpus::default_path() {
  if (const char *env = std::getenv("OPFORGE_CORPUS"); env && *env) return env;
  return std::string(OPFORGE_SOURCE_DIR) + "/corpus/opinfo.h5";
}

std::string Corpus::expected_torch_version() { return OPFORGE_TORCH_VERSION; }

Corpus Corpus::open(const std::string &path) {
  H5::Exception::dontPrint();
  auto st = std::make_unique<State>();
  st->path = path;
  if (!std::filesystem::exists(path))
    throw Error("corpus: no such file (run 'make corpus' to create it)", fctx(path));
  try {
    if (!H5::H5File::isHdf5(path.c_str()))
      throw Error("corpus: not an HDF5 file (run 'make corpus' to create it)", fctx(path));
    // A damaged file can crash libhdf5 (vlen string reads): read it once in a child first.
    // Damage in a dtype's lazily read call data fails only the calls of that dtype.
    h5::CheckOptions check;
    check.tolerate = [](const std::string &object) {
      static const std::regex lazy("/calls/[A-Za-z0-9_]+/(json|data|dims|tensors)");
      return std::regex_match(object, lazy);
    };
    st->damaged = h5::check_readable(path, check);
    st->file.openFile(path, H5F_ACC_RDONLY);
  } catch (const H5::Exception &e) {
    throw Error(
        "corpus: cannot open: " + e.getDetailMsg() + " (missing, unreadable or truncated file)",
        fctx(path));
  }
  auto &f = st->file;
  const int64_t version = read_int_attr(f, path, "/", "format_version");
  if (version != 1)
    throw Error(
        "corpus: format_version " + std::to_string(version) + " is not supported (expected 1)",
        fctx(path, "/@format_version"));
  st->torch_version = read_string_attr(f, path, "torch_version");
  // Recorded outputs are ATen's results of one torch release: another release's corpus
  // would judge kernels against different numerics. "2.15.0+cu132" is release 2.15.0.
  const std::string release = st->torch_version.substr(0, st->torch_version.find('+'));
  if (release != Corpus::expected_torch_version())
    throw Error("corpus: exported with torch " +
                    (st->torch_version.empty() ? std::string("(none)") : st->torch_version) +
                    ", but opforge is pinned to torch " + Corpus::expected_torch_version() +
                    " (requirements.txt); remake it with 'make corpus'",
                fctx(path, "/@torch_version"));
  st->code_name = split_commas(read_string_attr(f, path, "dtype_codes"));
  for (const auto &n : st->code_name) st->code_dtype.push_back(parse_dtype(n));

  auto names = read_strings(f, path, "/overloads/name");
  auto schemas = read_strings(f, path, "/overloads/schema");
  if (names.size() != schemas.size())
    throw Error("corpus: /overloads/name and /overloads/schema differ in length",
                fctx(path, "/overloads"));
  for (size_t i = 0; i < names.size(); ++i) {
    st->overload_index[names[i]] = i;
    st->overloads.push_back({names[i], schemas[i], {}});
  }

  auto op_names = read_strings(f, path, "/opinfos/name");
  auto op_aten = read_strings(f, path, "/opinfos/aten_name");
  auto op_doc = read_strings(f, path, "/opinfos/docstring");
  auto op_dtypes = read_strings(f, path, "/opinfos/dtypes");
  if (op_aten.size() != op_names.size() || op_doc.size() != op_names.size() ||
      op_dtypes.size() != op_names.size())
    throw Error("corpus: /opinfos columns differ in length", fctx(path, "/opinfos"));
  for (size_t i = 0; i < op_names.size(); ++i) {
    OpInfoEntry e{op_names[i], op_aten[i], op_doc[i], {}};
    for (const auto &d : split_commas(op_dtypes[i]))
      if (auto t = parse_dtype(d)) e.dtypes.push_back(*t);
    st->opinfos.push_back(std::move(e));
  }

  auto tol_op = read_numeric<int32_t>(f, path, "/tolerances/opinfo", H5::PredType::NATIVE_INT32);
  auto tol_dt = read_strings(f, path, "/tolerances/dtype");
  auto tol_a = read_numeric<double>(f, path, "/tolerances/atol", H5::PredType::NATIVE_DOUBLE);
  auto tol_r = read_numeric<double>(f, path, "/tolerances/rtol", H5::PredType::NATIVE_DOUBLE);
  if (tol_dt.size() != tol_op.size() || tol_a.size() != tol_op.size() ||
      tol_r.size() != tol_op.size())
    throw Error("corpus: /tolerances columns differ in length", fctx(path, "/tolerances"));
  for (size_t i = 0; i < tol_op.size(); ++i) {
    auto dt = parse_dtype(tol_dt[i]);
    if (!dt && tol_dt[i].starts_with("complex")) continue;  // dtypes opforge does not hold
    if (tol_op[i] < 0 || static_cast<size_t>(tol_op[i]) >= st->opinfos.size() || !dt)
      throw Error("corpus: /tolerances row " + std::to_string(i) + " is invalid",
                  fctx(path, "/tolerances"));
    st->tolerances[{st->opinfos[static_cast<size_t>(tol_op[i])].name, *dt}] = {tol_a[i], tol_r[i]};
  }

  auto ex_op = read_strings(f, path, "/exclusions/opinfo");
  auto ex_dt = read_strings(f, path, "/exclusions/dtype");
  auto ex_reason = read_strings(f, path, "/exclusions/reason");
  if (ex_dt.size() != ex_op.size() || ex_reason.size() != ex_op.size())
    throw Error("corpus: /exclusions columns differ in length", fctx(path, "/exclusions"));
  for (size_t i = 0; i < ex_op.size(); ++i)
    st->exclusions.push_back({ex_op[i], ex_dt[i], ex_reason[i]});

  for (const auto &dname : split_commas(read_string_attr(f, path, "dtypes"))) {
    auto dt = parse_dtype(dname);
    if (!dt)
      throw Error("corpus: unknown dtype '" + dname + "' in /@dtypes", fctx(path, "/@dtypes"));
    Group g;
    g.dtype = *dt;
    g.name = dname;
    std::string base = "/calls/" + dname + "/";
    g.samples = read_int_attr(f, path, "/calls/" + dname, "samples");
    g.overload = read_numeric<int32_t>(f, path, base + "overload", H5::PredType::NATIVE_INT32);
    g.opinfo = read_numeric<int32_t>(f, path, base + "opinfo", H5::PredType::NATIVE_INT32);
    g.sample = read_numeric<int32_t>(f, path, base + "sample", H5::PredType::NATIVE_INT32);
    g.tensor_base =
        read_numeric<int64_t>(f, path, base + "tensor_base", H5::PredType::NATIVE_INT64);
    g.json_offsets =
        read_numeric<int64_t>(f, path, base + "json_offsets", H5::PredType::NATIVE_INT64);
    const size_t n = g.overload.size();
    if (g.opinfo.size() != n || g.sample.size() != n || g.tensor_base.size() != n ||
        g.json_offsets.size() != n + 1)
      throw Error("corpus: the call columns of " + dname + " differ in length", fctx(path, base));
    for (size_t i = 0; i < n; ++i) {
      if (g.overload[i] < 0 || static_cast<size_t>(g.overload[i]) >= st->overloads.size() ||
          g.opinfo[i] < 0 || static_cast<size_t>(g.opinfo[i]) >= st->opinfos.size() ||
          g.json_offsets[i] < 0 || g.json_offsets[i] > g.json_offsets[i + 1] ||
          g.tensor_base[i] < 0)
        throw Error("corpus: " + dname + " call " + std::to_string(i) + " has out-of-range indices",
                    fctx(path, base));
      st->overloads[static_cast<size_t>(g.overload[i])].calls_per_dtype[*dt] += 1;
    }
    st->groups.push_back(std::move(g));
  }
  return Corpus(std::move(st));
}

const std::string &Corpus::path() const { return state_->path; }
std::string Corpus::torch_version() const { return state_->torch_version; }

std::vector<opforge::DType> Corpus::dtypes() const {
  std::vector<opforge::DType> out;
  for (const auto &g : state_->groups) out.push_back(g.dtype);
  return out;
}

const std::vector<OverloadEntry> &Corpus::overloads() const { return state_->overloads; }

bool Corpus::has_overload(const std::string &name) const {
  return state_->overload_index.count(name) > 0;
}

const OverloadEntry &Corpus::overload(const std::string &name) const {
  auto it = state_->overload_index.find(name);
  if (it == state_->overload_index.end()) {
    std::string hint;
    if (!name.starts_with("aten::")) hint = " (names look like 'aten::add.Tensor')";
    throw Error("unknown overload '" + name + "' in corpus" + hint, fctx(state_->path));
  }
  return state_->overloads[it->second];
}

std::vector<std::string> Corpus::opinfos_calling(const std::string &name) const {
  auto idx = static_cast<int32_t>(state_->overload_index.at(overload(name).name));
  std::set<int32_t> ops;
  for (const auto &g : state_->groups)
    for (size_t i = 0; i < g.overload.size(); ++i)
      if (g.overload[i] == idx) ops.insert(g.opinfo[i]);
  std::vector<std::string> out;
  for (int32_t o : ops) out.push_back(state_->opinfos[static_cast<size_t>(o)].name);
  return out;
}

std::string Corpus::docstring(const std::string &name) const {
  const std::string base = overload_base(overload(name).name);
  std::string stripped = base;
  if (stripped.size() > 1 && stripped.back() == '_') stripped.pop_back();
  while (!stripped.empty() && stripped.front() == '_') stripped.erase(0, 1);
  // Prefer the OpInfo named after the overload, then one whose samples call it.
  for (const auto &o : state_->opinfos)
    if ((o.aten_name == base || o.aten_name == stripped || o.name == stripped) &&
        !o.docstring.empty())
      return o.docstring;
  for (const auto &opname : opinfos_calling(name))
    for (const auto &o : state_->opinfos)
      if (o.name == opname && !o.docstring.empty()) return o.docstring;
  return "";
}

const std::vector<OpInfoEntry> &Corpus::opinfos() const { return state_->opinfos; }
const std::vector<Exclusion> &Corpus::exclusions() const { return state_->exclusions; }

std::optional<Tolerance> Corpus::tolerance(const std::string &opinfo, opforge::DType dtype) const {
  auto it = state_->tolerances.find({opinfo, dtype});
  if (it == state_->tolerances.end()) return std::nullopt;
  return it->second;
}

int64_t Corpus::call_count(opforge::DType dtype) const {
  const Group *g = state_->find_group(dtype);
  return g ? static_cast<int64_t>(g->overload.size()) : 0;
}

int64_t Corpus::sample_count(opforge::DType dtype) const {
  const Group *g = state_->find_group(dtype);
  return g ? g->samples : 0;
}

Call Corpus::call(opforge::DType dtype, int64_t index) const {
  const Group &g = state_->group(dtype);
  if (index < 0 || index >= static_cast<int64_t>(g.overload.size()))
    throw Error("corpus: " + g.name + " call " + std::to_string(index) + " does not exist",
                fctx(state_->path));
  const auto i = static_cast<size_t>(index);
  Call c;
  c.overload = state_->overloads[static_cast<size_t>(g.overload[i])].name;
  c.opinfo = state_->opinfos[static_cast<size_t>(g.opinfo[i])].name;
  c.dtype = dtype;
  c.index = index;
  c.sample = g.sample[i];
  const std::string where =
      "corpus " + g.name + " call " + std::to_string(index) + " (" + c.overload + ")";
  const auto *begin = reinterpret_cast<const char *>(g.json.data()) + g.json_offsets[i];
  const auto len = static_cast<size_t>(g.json_offsets[i + 1] - g.json_offsets[i]);
  nlohmann::json j = nlohmann::json::parse(begin, begin + len, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("args") || !j["args"].is_array())
    throw Error(where + ": the call record is not valid JSON with 'args'", fctx(state_->path));
  const int64_t base = g.tensor_base[i];
  TensorLookup lookup = [&](int64_t t) { return state_->tensor_value(g, base + t, where); };
  for (const auto &a : j["args"]) c.args.push_back(decode_value(a, lookup, where));
  if (j.contains("kwargs") && j["kwargs"].is_object())
    for (const auto &[k, v] : j["kwargs"].items())
      c.kwargs.emplace_back(k, decode_value(v, lookup, where));
  c.out = decode_value(j.value("out", nlohmann::json()), lookup, where);
  if (j.contains("mutated") && j["mutated"].is_object())
    for (const auto &[k, v] : j["mutated"].items())
      c.mutated.emplace_back(k, decode_value(v, lookup, where));
  c.uninitialized = j.value("uninitialized", false);
  return c;
}

void Corpus::for_each_call(const std::string &name, std::optional<opforge::DType> dtype,
                           const std::function<bool(const Call &)> &fn) const {
  const auto idx = static_cast<int32_t>(state_->overload_index.at(overload(name).name));
  for (const auto &g : state_->groups) {
    if (dtype && g.dtype != *dtype) continue;
    for (size_t i = 0; i < g.overload.size(); ++i) {
      if (g.overload[i] != idx) continue;
      if (!fn(call(g.dtype, static_cast<int64_t>(i)))) return;
    }
  }
}

std::vector<Call> Corpus::calls(const std::string &name, std::optional<opforge::DType> dtype,
                                size_t max_calls) const {
  std::vector<Call> out;
  if (max_calls == 0) return out;
  for_each_call(name, dtype, [&](const Call &c) {
    out.push_back(c);
    return out.size() < max_calls;
  });
  return out;
}

}  // namespace opforge::harness
