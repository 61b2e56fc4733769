//===- h5store.h - HDF5 results files: groups, attributes, tables, series --===//
//
// Thin, durable primitives over the HDF5 C++ API for opforge's results files
// (conventions in docs/store.md):
//  - groups created with their parents ("/points/3/counters");
//  - attributes: int64, double, UTF-8 string, and JSON (a string attribute
//    holding JSON text);
//  - tables: one chunked, deflate-compressed, unlimited 1-D dataset of a
//    compound type with named int64/double/string columns; rows are appended;
//  - series: 1-D/2-D numeric datasets written at once, or 2-D datasets that
//    grow by rows (counter samples over time).
// Every write is followed by a file flush, so a process killed at any point
// leaves every completed write readable. HDF5's own error printing is
// silenced; its errors become opforge::Error naming the file and object path.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace opforge::h5 {

enum class ColumnType { Int64, Float64, String };

struct Column {
  std::string name;
  ColumnType type;
  friend bool operator==(const Column &, const Column &) = default;
};

using Value = std::variant<int64_t, double, std::string>;
using Row = std::vector<Value>;

struct TableOptions {
  uint64_t chunk_rows = 256;
  int deflate_level = 4;  // 0-9; 0 disables compression
};

class File;

// An appendable table; obtained from File::create_table / File::open_table.
class Table {
 public:
  const std::string &path() const { return path_; }
  const std::vector<Column> &columns() const { return columns_; }
  uint64_t rows() const;
  // Append rows (each must match the columns in count and type) and flush.
  void append(const Row &row);
  void append(const std::vector<Row> &rows);

 private:
  friend class File;
  Table(std::shared_ptr<struct FileState> state, std::string path, std::vector<Column> columns);
  std::shared_ptr<struct FileState> state_;
  std::string path_;
  std::vector<Column> columns_;
};

// A 2-D numeric dataset that grows by rows of a fixed width.
class Series {
 public:
  const std::string &path() const { return path_; }
  uint64_t cols() const { return cols_; }
  uint64_t rows() const;
  ColumnType type() const { return type_; }
  void append(std::span<const double> row);   // Float64 series only
  void append(std::span<const int64_t> row);  // Int64 series only

 private:
  friend class File;
  Series(std::shared_ptr<struct FileState> state, std::string path, uint64_t cols, ColumnType type);
  void append_raw(const void *data, size_t n, ColumnType type);
  std::shared_ptr<struct FileState> state_;
  std::string path_;
  uint64_t cols_;
  ColumnType type_;
};

// An n-D numeric array read back from a dataset.
template <class T>
struct Array {
  std::vector<uint64_t> dims;
  std::vector<T> values;  // row-major
};

enum class ObjectKind { None, Group, Dataset };

class File {
 public:
  enum class Mode { ReadOnly, ReadWrite };

  // Create (truncating) or open a results file.
  static File create(const std::filesystem::path &path);
  static File open(const std::filesystem::path &path, Mode mode = Mode::ReadOnly);

  File(File &&) noexcept;
  File &operator=(File &&) noexcept;
  ~File();

  const std::filesystem::path &path() const;
  void flush();
  // Close now (errors reported); the destructor closes quietly otherwise.
  void close();

  // --- structure ---
  void create_group(const std::string &path);  // parents created as needed; existing is fine
  ObjectKind kind(const std::string &path) const;
  bool exists(const std::string &path) const { return kind(path) != ObjectKind::None; }
  // Names of a group's children, sorted.
  std::vector<std::string> list(const std::string &group_path = "/") const;

  // --- attributes on a group or dataset ---
  void set_attr(const std::string &object, const std::string &name, int64_t value);
  void set_attr(const std::string &object, const std::string &name, double value);
  void set_attr(const std::string &object, const std::string &name, const std::string &value);
  void set_attr(const std::string &object, const std::string &name, const char *value) {
    set_attr(object, name, std::string(value));
  }
  void set_json_attr(const std::string &object, const std::string &name,
                     const nlohmann::json &value);
  std::vector<std::string> attr_names(const std::string &object) const;
  int64_t attr_int(const std::string &object, const std::string &name) const;
  double attr_double(const std::string &object, const std::string &name) const;
  std::string attr_string(const std::string &object, const std::string &name) const;
  nlohmann::json attr_json(const std::string &object, const std::string &name) const;

  // --- tables ---
  Table create_table(const std::string &path, const std::vector<Column> &columns,
                     const TableOptions &options = {});
  Table open_table(const std::string &path);
  std::vector<int64_t> read_int_column(const std::string &table, const std::string &column) const;
  std::vector<double> read_double_column(const std::string &table, const std::string &column) const;
  std::vector<std::string> read_string_column(const std::string &table,
                                              const std::string &column) const;

  // --- numeric datasets (time series) ---
  // Write a whole n-D dataset (chunked, compressed); dims' product must match.
  void write_dataset(const std::string &path, const std::vector<uint64_t> &dims,
                     std::span<const double> values);
  void write_dataset(const std::string &path, const std::vector<uint64_t> &dims,
                     std::span<const int64_t> values);
  Series create_series(const std::string &path, uint64_t cols, ColumnType type,
                       const TableOptions &options = {});
  Series open_series(const std::string &path);
  Array<double> read_doubles(const std::string &path) const;
  Array<int64_t> read_ints(const std::string &path) const;

 private:
  explicit File(std::shared_ptr<struct FileState> state);
  std::shared_ptr<struct FileState> state_;
};

}  // namespace opforge::h5
