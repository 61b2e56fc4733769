//===- h5store.cpp - HDF5 results files over the HDF5 C++ API -------------===//
#include "opforge/support/h5store.h"

#include <H5Cpp.h>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "opforge/support/config.h"
#include "opforge/support/error.h"
#include "opforge/support/h5check.h"

namespace opforge::h5 {

namespace fs = std::filesystem;
using nlohmann::json;

struct FileState {
  H5::H5File file;
  fs::path path;
  bool writable = false;
};

namespace {

void silence_hdf5() {
  static const bool once = [] {
    H5::Exception::dontPrint();
    return true;
  }();
  (void)once;
}

// The innermost (most specific) message on HDF5's error stack, if any.
std::string hdf5_cause() {
  std::string cause;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t *err, void *data) -> herr_t {
        auto *out = static_cast<std::string *>(data);
        if (n == 0 && err->desc) *out = err->desc;
        return 0;
      },
      &cause);
  H5Eclear2(H5E_DEFAULT);
  return cause;
}

[[noreturn]] void fail(const FileState &st, const std::string &object, const std::string &message) {
  throw Error(message, ErrorContext{st.path.string(), object, {}, {}, {}});
}

// Run f, turning HDF5 exceptions into opforge::Error with file and object.
template <class F>
auto guard(const FileState &st, const std::string &object, const std::string &what, F &&f)
    -> decltype(f()) {
  try {
    return f();
  } catch (const H5::Exception &e) {
    std::string cause = hdf5_cause();
    std::string detail = e.getDetailMsg();
    fail(st, object,
         what + " failed: " + (cause.empty() ? detail : cause) +
             (cause.empty() || detail.empty() ? "" : " (" + detail + ")"));
  }
}

void require_writable(const FileState &st, const std::string &object) {
  if (!st.writable) fail(st, object, "file is open read-only");
}

void flush_file(FileState &st) {
  guard(st, "", "flush", [&] { st.file.flush(H5F_SCOPE_GLOBAL); });
}

void check_name(const FileState &st, const std::string &object, const std::string &name,
                const char *what) {
  if (name.empty() || name == "." || name.find('/') != std::string::npos)
    fail(st, object, std::string("bad ") + what + " name '" + name + "'");
}

H5::StrType string_type() {
  H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
  t.setCset(H5T_CSET_UTF8);
  return t;
}

H5::DataType column_type(ColumnType t) {
  switch (t) {
    case ColumnType::Int64:
      return H5::PredType::NATIVE_INT64;
    case ColumnType::Float64:
      return H5::PredType::NATIVE_DOUBLE;
    case ColumnType::String:
      return string_type();
  }
  return H5::PredType::NATIVE_INT64;
}

std::string_view column_type_name(ColumnType t) {
  switch (t) {
    case ColumnType::Int64:
      return "int64";
    case ColumnType::Float64:
      return "float64";
    case ColumnType::String:
      return "string";
  }
  return "?";
}

// Each column occupies 8 bytes in memory: int64, double or a char*.
H5::CompType row_type(const std::vector<Column> &columns) {
  H5::CompType t(8 * columns.size());
  for (size_t i = 0; i < columns.size(); ++i)
    t.insertMember(columns[i].name, 8 * i, column_type(columns[i].type));
  return t;
}

std::string parent_of(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos || slash == 0) return "/";
  return path.substr(0, slash);
}

std::string leaf_of(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

ObjectKind kind_of(const FileState &st, const std::string &path) {
  if (path.empty() || path == "/") return ObjectKind::Group;
  // H5Lexists needs every parent to exist: test each prefix.
  size_t pos = path[0] == '/' ? 1 : 0;
  while (true) {
    size_t slash = path.find('/', pos);
    std::string prefix = path.substr(0, slash);
    if (!prefix.empty() && prefix != "/" &&
        H5Lexists(st.file.getId(), prefix.c_str(), H5P_DEFAULT) <= 0) {
      H5Eclear2(H5E_DEFAULT);
      return ObjectKind::None;
    }
    if (slash == std::string::npos) break;
    pos = slash + 1;
  }
  H5O_type_t t = guard(st, path, "inspect", [&] { return st.file.childObjType(path); });
  if (t == H5O_TYPE_GROUP) return ObjectKind::Group;
  if (t == H5O_TYPE_DATASET) return ObjectKind::Dataset;
  return ObjectKind::None;
}

// Call f(H5::H5Object&) on the group or dataset at path.
template <class F>
auto with_object(const FileState &st, const std::string &path, F &&f) {
  switch (kind_of(st, path)) {
    case ObjectKind::Group: {
      H5::Group g = guard(st, path, "open group",
                          [&] { return st.file.openGroup(path.empty() ? "/" : path); });
      return f(static_cast<H5::H5Object &>(g));
    }
    case ObjectKind::Dataset: {
      H5::DataSet d = guard(st, path, "open dataset", [&] { return st.file.openDataSet(path); });
      return f(static_cast<H5::H5Object &>(d));
    }
    case ObjectKind::None:
      break;
  }
  fail(st, path, "no such group or dataset");
}

H5::DataSet open_dataset(const FileState &st, const std::string &path) {
  if (kind_of(st, path) != ObjectKind::Dataset) fail(st, path, "no such dataset");
  return guard(st, path, "open dataset", [&] { return st.file.openDataSet(path); });
}

H5::Attribute open_attr(const FileState &st, H5::H5Object &obj, const std::string &object,
                        const std::string &name) {
  bool exists =
      guard(st, object, "look up attribute '" + name + "'", [&] { return obj.attrExists(name); });
  if (!exists) fail(st, object, "no attribute '" + name + "'");
  return guard(st, object, "open attribute '" + name + "'",
               [&] { return obj.openAttribute(name); });
}

// Replace attribute `name` on `object` with a scalar of `type` holding `write`'s data.
template <class W>
void put_attr(FileState &st, const std::string &object, const std::string &name,
              const H5::DataType &type, W &&write) {
  require_writable(st, object);
  check_name(st, object, name, "attribute");
  with_object(st, object, [&](H5::H5Object &obj) {
    guard(st, object, "write attribute '" + name + "'", [&] {
      if (obj.attrExists(name)) obj.removeAttr(name);
      H5::Attribute a = obj.createAttribute(name, type, H5::DataSpace(H5S_SCALAR));
      write(a);
    });
    return 0;
  });
  flush_file(st);
}

std::vector<Column> table_columns(const FileState &st, const std::string &path, H5::DataSet &ds) {
  return guard(st, path, "read table type", [&] {
    if (ds.getTypeClass() != H5T_COMPOUND)
      fail(st, path, "not a table (expected a compound dataset)");
    H5::CompType t = ds.getCompType();
    std::vector<Column> cols;
    for (int i = 0; i < t.getNmembers(); ++i) {
      H5T_class_t c = t.getMemberClass(static_cast<unsigned>(i));
      ColumnType ct = c == H5T_INTEGER ? ColumnType::Int64
                      : c == H5T_FLOAT ? ColumnType::Float64
                      : c == H5T_STRING
                          ? ColumnType::String
                          : (fail(st, path, "unsupported column type"), ColumnType::Int64);
      cols.push_back({t.getMemberName(static_cast<unsigned>(i)), ct});
    }
    return cols;
  });
}

uint64_t extent(const FileState &st, const std::string &path, const H5::DataSet &ds, int dim) {
  return guard(st, path, "read extent", [&] {
    H5::DataSpace s = ds.getSpace();
    std::vector<hsize_t> dims(static_cast<size_t>(s.getSimpleExtentNdims()));
    s.getSimpleExtentDims(dims.data());
    return static_cast<uint64_t>(dims.at(static_cast<size_t>(dim)));
  });
}

// Grow a dataset along dim 0 by `n` rows of `row_elems` elements and write `data`.
void append_rows(FileState &st, const std::string &path, H5::DataSet &ds,
                 const H5::DataType &mem_type, const void *data, hsize_t n, hsize_t row_elems,
                 int rank) {
  guard(st, path, "append", [&] {
    H5::DataSpace s = ds.getSpace();
    hsize_t dims[2] = {0, row_elems};
    s.getSimpleExtentDims(dims);
    hsize_t start[2] = {dims[0], 0};
    hsize_t count[2] = {n, row_elems};
    hsize_t grown[2] = {dims[0] + n, row_elems};
    ds.extend(grown);
    H5::DataSpace fspace = ds.getSpace();
    fspace.selectHyperslab(H5S_SELECT_SET, count, start);
    H5::DataSpace mspace(rank, count);
    ds.write(data, mem_type, mspace, fspace);
  });
  flush_file(st);
}

template <class T>
void write_whole(FileState &st, const std::string &path, const std::vector<uint64_t> &dims,
                 std::span<const T> values, const H5::PredType &type) {
  require_writable(st, path);
  if (dims.empty()) fail(st, path, "a dataset needs at least one dimension");
  uint64_t total = std::accumulate(dims.begin(), dims.end(), uint64_t{1}, std::multiplies<>());
  if (total != values.size())
    fail(st, path,
         "dimensions hold " + std::to_string(total) + " values but " +
             std::to_string(values.size()) + " were given");
  if (kind_of(st, path) != ObjectKind::None) fail(st, path, "already exists");
  guard(st, path, "write dataset", [&] {
    std::vector<hsize_t> hd(dims.begin(), dims.end());
    H5::DataSpace space(static_cast<int>(hd.size()), hd.data());
    H5::DSetCreatPropList plist;
    if (total > 0) {
      // Chunks of at most 64Ki elements, cut along the leading dimension.
      std::vector<hsize_t> chunk = hd;
      uint64_t inner = total / std::max<uint64_t>(1, dims[0]);
      chunk[0] = std::max<hsize_t>(
          1, std::min<hsize_t>(hd[0], (65536 + inner - 1) / std::max<uint64_t>(1, inner)));
      plist.setChunk(static_cast<int>(chunk.size()), chunk.data());
      plist.setShuffle();
      plist.setDeflate(4);
    }
    H5::DataSet ds = st.file.createDataSet(path, type, space, plist);
    if (total > 0) ds.write(values.data(), type);
  });
  flush_file(st);
}

template <class T>
Array<T> read_whole(const FileState &st, const std::string &path, H5T_class_t want,
                    const H5::PredType &type, const char *type_word) {
  H5::DataSet ds = open_dataset(st, path);
  return guard(st, path, "read dataset", [&] {
    if (ds.getTypeClass() != want)
      fail(st, path, std::string("dataset does not hold ") + type_word);
    H5::DataSpace s = ds.getSpace();
    Array<T> out;
    std::vector<hsize_t> dims(static_cast<size_t>(s.getSimpleExtentNdims()));
    s.getSimpleExtentDims(dims.data());
    out.dims.assign(dims.begin(), dims.end());
    out.values.resize(static_cast<size_t>(s.getSimpleExtentNpoints()));
    if (!out.values.empty()) ds.read(out.values.data(), type);
    return out;
  });
}

}  // namespace

// ---------------------------------------------------------------- File

File::File(std::shared_ptr<FileState> state) : state_(std::move(state)) {}
File::File(File &&) noexcept = default;
File &File::operator=(File &&) noexcept = default;
File::~File() {
  if (!state_) return;
  try {
    state_->file.close();
  } catch (const H5::Exception &) {
    H5Eclear2(H5E_DEFAULT);
  }
}

File File::create(const fs::path &path) {
  silence_hdf5();
  auto st = std::make_shared<FileState>();
  st->path = path;
  st->writable = true;
  guard(*st, "", "create file", [&] { st->file = H5::H5File(path.string(), H5F_ACC_TRUNC); });
  return File(st);
}

File File::open(const fs::path &path, Mode mode) {
  silence_hdf5();
  auto st = std::make_shared<FileState>();
  st->path = path;
  st->writable = mode == Mode::ReadWrite;
  std::error_code ec;
  if (!fs::exists(path, ec)) fail(*st, "", "no such file");
  // A damaged file can crash libhdf5: read it once in a child process first.
  if (mode == Mode::ReadOnly && H5Fis_hdf5(path.c_str()) > 0) check_readable(path);
  guard(*st, "", "open file", [&] {
    st->file = H5::H5File(path.string(), st->writable ? H5F_ACC_RDWR : H5F_ACC_RDONLY);
  });
  return File(st);
}

const fs::path &File::path() const { return state_->path; }

void File::flush() { flush_file(*state_); }

void File::close() {
  guard(*state_, "", "close", [&] { state_->file.close(); });
  state_.reset();
}

void File::create_group(const std::string &path) {
  auto &st = *state_;
  require_writable(st, path);
  std::string cur;
  size_t pos = path.starts_with("/") ? 1 : 0;
  while (pos <= path.size()) {
    size_t slash = path.find('/', pos);
    if (slash == std::string::npos) slash = path.size();
    std::string part = path.substr(pos, slash - pos);
    pos = slash + 1;
    if (part.empty()) continue;
    check_name(st, path, part, "group");
    cur += "/" + part;
    ObjectKind k = kind_of(st, cur);
    if (k == ObjectKind::Dataset) fail(st, cur, "exists and is a dataset, not a group");
    if (k == ObjectKind::None) guard(st, cur, "create group", [&] { st.file.createGroup(cur); });
  }
  flush_file(st);
}

ObjectKind File::kind(const std::string &path) const { return kind_of(*state_, path); }

std::vector<std::string> File::list(const std::string &group_path) const {
  auto &st = *state_;
  if (kind_of(st, group_path) != ObjectKind::Group) fail(st, group_path, "no such group");
  return guard(st, group_path, "list group", [&] {
    H5::Group g = st.file.openGroup(group_path.empty() ? "/" : group_path);
    std::vector<std::string> names;
    for (hsize_t i = 0; i < g.getNumObjs(); ++i) names.push_back(g.getObjnameByIdx(i));
    std::sort(names.begin(), names.end());
    return names;
  });
}

// ---------------------------------------------------------------- attributes

void File::set_attr(const std::string &object, const std::string &name, int64_t value) {
  put_attr(*state_, object, name, H5::PredType::NATIVE_INT64,
           [&](H5::Attribute &a) { a.write(H5::PredType::NATIVE_INT64, &value); });
}

void File::set_attr(const std::string &object, const std::string &name, double value) {
  put_attr(*state_, object, name, H5::PredType::NATIVE_DOUBLE,
           [&](H5::Attribute &a) { a.write(H5::PredType::NATIVE_DOUBLE, &value); });
}

void File::set_attr(const std::string &object, const std::string &name, const std::string &value) {
  H5::StrType t = string_type();
  put_attr(*state_, object, name, t, [&](H5::Attribute &a) { a.write(t, value); });
}

void File::set_json_attr(const std::string &object, const std::string &name, const json &value) {
  set_attr(object, name, value.dump());
}

std::vector<std::string> File::attr_names(const std::string &object) const {
  auto &st = *state_;
  return with_object(st, object, [&](H5::H5Object &obj) {
    return guard(st, object, "list attributes", [&] {
      std::vector<std::string> names;
      for (int i = 0; i < obj.getNumAttrs(); ++i)
        names.push_back(obj.openAttribute(static_cast<unsigned>(i)).getName());
      std::sort(names.begin(), names.end());
      return names;
    });
  });
}

int64_t File::attr_int(const std::string &object, const std::string &name) const {
  auto &st = *state_;
  return with_object(st, object, [&](H5::H5Object &obj) {
    H5::Attribute a = open_attr(st, obj, object, name);
    return guard(st, object, "read attribute '" + name + "'", [&] {
      if (a.getTypeClass() != H5T_INTEGER)
        fail(st, object, "attribute '" + name + "' is not an integer");
      int64_t v = 0;
      a.read(H5::PredType::NATIVE_INT64, &v);
      return v;
    });
  });
}

double File::attr_double(const std::string &object, const std::string &name) const {
  auto &st = *state_;
  return with_object(st, object, [&](H5::H5Object &obj) {
    H5::Attribute a = open_attr(st, obj, object, name);
    return guard(st, object, "read attribute '" + name + "'", [&] {
      H5T_class_t c = a.getTypeClass();
      if (c != H5T_FLOAT && c != H5T_INTEGER)
        fail(st, object, "attribute '" + name + "' is not a number");
      double v = 0;
      a.read(H5::PredType::NATIVE_DOUBLE, &v);
      return v;
    });
  });
}

std::string File::attr_string(const std::string &object, const std::string &name) const {
  auto &st = *state_;
  return with_object(st, object, [&](H5::H5Object &obj) {
    H5::Attribute a = open_attr(st, obj, object, name);
    return guard(st, object, "read attribute '" + name + "'", [&] {
      std::string v;
      if (std::string why = read_string_attribute(a.getId(), v); !why.empty())
        fail(st, object, "attribute '" + name + "': " + why);
      return v;
    });
  });
}

json File::attr_json(const std::string &object, const std::string &name) const {
  std::string text = attr_string(object, name);
  try {
    return parse_json(text, "");
  } catch (const Error &e) {
    fail(*state_, object, "attribute '" + name + "' is not valid JSON: " + e.what());
  }
}

// ---------------------------------------------------------------- tables

Table::Table(std::shared_ptr<FileState> state, std::string path, std::vector<Column> columns)
    : state_(std::move(state)), path_(std::move(path)), columns_(std::move(columns)) {}

uint64_t Table::rows() const {
  H5::DataSet ds = open_dataset(*state_, path_);
  return extent(*state_, path_, ds, 0);
}

void Table::append(const Row &row) { append(std::vector<Row>{row}); }

void Table::append(const std::vector<Row> &rows) {
  auto &st = *state_;
  require_writable(st, path_);
  if (rows.empty()) return;
  const size_t ncol = columns_.size();
  std::vector<unsigned char> buf(8 * ncol * rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    const Row &row = rows[r];
    if (row.size() != ncol)
      fail(st, path_,
           "row has " + std::to_string(row.size()) + " values, table has " + std::to_string(ncol) +
               " columns");
    for (size_t c = 0; c < ncol; ++c) {
      unsigned char *slot = buf.data() + 8 * (r * ncol + c);
      const Value &v = row[c];
      switch (columns_[c].type) {
        case ColumnType::Int64: {
          if (!std::holds_alternative<int64_t>(v)) break;
          std::memcpy(slot, &std::get<int64_t>(v), 8);
          continue;
        }
        case ColumnType::Float64: {
          double d;
          if (std::holds_alternative<double>(v))
            d = std::get<double>(v);
          else if (std::holds_alternative<int64_t>(v))
            d = static_cast<double>(std::get<int64_t>(v));
          else
            break;
          std::memcpy(slot, &d, 8);
          continue;
        }
        case ColumnType::String: {
          if (!std::holds_alternative<std::string>(v)) break;
          const char *p = std::get<std::string>(v).c_str();
          std::memcpy(slot, &p, sizeof p);
          continue;
        }
      }
      fail(st, path_,
           "column '" + columns_[c].name + "' expects " +
               std::string(column_type_name(columns_[c].type)));
    }
  }
  H5::DataSet ds = open_dataset(st, path_);
  H5::CompType t = row_type(columns_);
  append_rows(st, path_, ds, t, buf.data(), rows.size(), 1, 1);
}

Table File::create_table(const std::string &path, const std::vector<Column> &columns,
                         const TableOptions &options) {
  auto &st = *state_;
  require_writable(st, path);
  if (columns.empty()) fail(st, path, "a table needs at least one column");
  for (size_t i = 0; i < columns.size(); ++i) {
    check_name(st, path, columns[i].name, "column");
    for (size_t j = 0; j < i; ++j)
      if (columns[j].name == columns[i].name)
        fail(st, path, "duplicate column '" + columns[i].name + "'");
  }
  if (kind_of(st, path) != ObjectKind::None) fail(st, path, "already exists");
  create_group(parent_of(path));
  check_name(st, path, leaf_of(path), "table");
  guard(st, path, "create table", [&] {
    hsize_t dims[1] = {0}, maxdims[1] = {H5S_UNLIMITED},
            chunk[1] = {std::max<hsize_t>(1, options.chunk_rows)};
    H5::DataSpace space(1, dims, maxdims);
    H5::DSetCreatPropList plist;
    plist.setChunk(1, chunk);
    if (options.deflate_level > 0) plist.setDeflate(std::min(options.deflate_level, 9));
    st.file.createDataSet(path, row_type(columns), space, plist);
  });
  flush_file(st);
  return Table(state_, path, columns);
}

Table File::open_table(const std::string &path) {
  H5::DataSet ds = open_dataset(*state_, path);
  return Table(state_, path, table_columns(*state_, path, ds));
}

namespace {

// Read one column of a table into 8-byte slots using a one-member compound type.
template <class T>
std::vector<T> read_column(const FileState &st, const std::string &table, const std::string &column,
                           ColumnType want) {
  H5::DataSet ds = open_dataset(st, table);
  auto cols = table_columns(st, table, ds);
  auto it =
      std::find_if(cols.begin(), cols.end(), [&](const Column &c) { return c.name == column; });
  if (it == cols.end()) fail(st, table, "no column '" + column + "'");
  if (it->type != want && !(want == ColumnType::Float64 && it->type == ColumnType::Int64))
    fail(st, table,
         "column '" + column + "' holds " + std::string(column_type_name(it->type)) + ", not " +
             std::string(column_type_name(want)));
  uint64_t n = extent(st, table, ds, 0);
  std::vector<T> out(n);
  if (n == 0) return out;
  guard(st, table, "read column '" + column + "'", [&] {
    H5::CompType t(sizeof(T));
    t.insertMember(column, 0, column_type(want));
    ds.read(out.data(), t);
  });
  return out;
}

}  // namespace

std::vector<int64_t> File::read_int_column(const std::string &table,
                                           const std::string &column) const {
  return read_column<int64_t>(*state_, table, column, ColumnType::Int64);
}

std::vector<double> File::read_double_column(const std::string &table,
                                             const std::string &column) const {
  return read_column<double>(*state_, table, column, ColumnType::Float64);
}

std::vector<std::string> File::read_string_column(const std::string &table,
                                                  const std::string &column) const {
  auto &st = *state_;
  std::vector<char *> raw = read_column<char *>(st, table, column, ColumnType::String);
  std::vector<std::string> out;
  out.reserve(raw.size());
  for (char *p : raw) out.emplace_back(p ? p : "");
  if (!raw.empty()) {
    H5::CompType t(sizeof(char *));
    t.insertMember(column, 0, string_type());
    hsize_t n = raw.size();
    H5::DataSpace space(1, &n);
    guard(st, table, "free strings", [&] { H5::DataSet::vlenReclaim(raw.data(), t, space); });
  }
  return out;
}

// ---------------------------------------------------------------- datasets and series

void File::write_dataset(const std::string &path, const std::vector<uint64_t> &dims,
                         std::span<const double> values) {
  create_group(parent_of(path));
  write_whole(*state_, path, dims, values, H5::PredType::NATIVE_DOUBLE);
}

void File::write_dataset(const std::string &path, const std::vector<uint64_t> &dims,
                         std::span<const int64_t> values) {
  create_group(parent_of(path));
  write_whole(*state_, path, dims, values, H5::PredType::NATIVE_INT64);
}

Array<double> File::read_doubles(const std::string &path) const {
  return read_whole<double>(*state_, path, H5T_FLOAT, H5::PredType::NATIVE_DOUBLE,
                            "floating-point values");
}

Array<int64_t> File::read_ints(const std::string &path) const {
  return read_whole<int64_t>(*state_, path, H5T_INTEGER, H5::PredType::NATIVE_INT64, "integers");
}

Series::Series(std::shared_ptr<FileState> state, std::string path, uint64_t cols, ColumnType type)
    : state_(std::move(state)), path_(std::move(path)), cols_(cols), type_(type) {}

uint64_t Series::rows() const {
  H5::DataSet ds = open_dataset(*state_, path_);
  return extent(*state_, path_, ds, 0);
}

void Series::append(std::span<const double> row) {
  append_raw(row.data(), row.size(), ColumnType::Float64);
}
void Series::append(std::span<const int64_t> row) {
  append_raw(row.data(), row.size(), ColumnType::Int64);
}

void Series::append_raw(const void *data, size_t n, ColumnType type) {
  auto &st = *state_;
  require_writable(st, path_);
  if (type != type_)
    fail(st, path_,
         "series holds " + std::string(column_type_name(type_)) + ", got " +
             std::string(column_type_name(type)));
  if (n != cols_)
    fail(st, path_,
         "row has " + std::to_string(n) + " values, series has " + std::to_string(cols_));
  H5::DataSet ds = open_dataset(st, path_);
  append_rows(st, path_, ds, column_type(type_), data, 1, cols_, 2);
}

Series File::create_series(const std::string &path, uint64_t cols, ColumnType type,
                           const TableOptions &options) {
  auto &st = *state_;
  require_writable(st, path);
  if (type == ColumnType::String) fail(st, path, "a series holds numbers, not strings");
  if (cols == 0) fail(st, path, "a series needs at least one column");
  if (kind_of(st, path) != ObjectKind::None) fail(st, path, "already exists");
  create_group(parent_of(path));
  check_name(st, path, leaf_of(path), "series");
  guard(st, path, "create series", [&] {
    hsize_t dims[2] = {0, cols}, maxdims[2] = {H5S_UNLIMITED, cols};
    hsize_t chunk[2] = {std::max<hsize_t>(1, options.chunk_rows), cols};
    H5::DataSpace space(2, dims, maxdims);
    H5::DSetCreatPropList plist;
    plist.setChunk(2, chunk);
    if (options.deflate_level > 0) {
      plist.setShuffle();
      plist.setDeflate(std::min(options.deflate_level, 9));
    }
    st.file.createDataSet(path, column_type(type), space, plist);
  });
  flush_file(st);
  return Series(state_, path, cols, type);
}

Series File::open_series(const std::string &path) {
  auto &st = *state_;
  H5::DataSet ds = open_dataset(st, path);
  return guard(st, path, "open series", [&] {
    H5::DataSpace s = ds.getSpace();
    if (s.getSimpleExtentNdims() != 2) fail(st, path, "not a series (expected a 2-D dataset)");
    hsize_t dims[2];
    s.getSimpleExtentDims(dims);
    H5T_class_t c = ds.getTypeClass();
    if (c != H5T_INTEGER && c != H5T_FLOAT) fail(st, path, "not a numeric series");
    return Series(state_, path, dims[1],
                  c == H5T_INTEGER ? ColumnType::Int64 : ColumnType::Float64);
  });
}

}  // namespace opforge::h5
