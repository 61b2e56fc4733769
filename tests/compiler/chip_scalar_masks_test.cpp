//===- chip_scalar_masks_test.cpp - block masks combined with a scalar bool ===//
//
// `cols < n & flag` with a scalar flag (from a loaded value or the program
// id) guarding tl.load, tl.store and tl.where: the chip must honour the flag
// as the IR interpreter does, for programs where it is false as well.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "diff_harness.h"

namespace opforge::compiler::testing {
namespace {

DiffCase scalar_and_masks(int64_t rows, int64_t n, int64_t block, uint32_t seed) {
  DiffCase c;
  c.file = "scalar_masks.py";
  c.kernel = "scalar_and_masks";
  c.signature = "IDX=*i32,X=*fp32,Y=*fp32,S=*fp32,n=i32";
  c.constexprs = {"BLOCK=" + std::to_string(block)};
  // IDX[r] == r for rows 0 and 3 only.
  HostTensor idx(DType::Int32, {rows});
  for (int64_t r = 0; r < rows; ++r) idx.set_int(r, r % 3 == 0 ? r : r + 1);
  HostTensor y(DType::Float32, {rows * 8 * block});
  for (int64_t i = 0; i < y.numel(); ++i) y.set_double(i, 7.0);
  c.args = {KArg::tensor(idx), KArg::tensor(random_tensor(DType::Float32, {rows * block}, seed)),
            KArg::tensor(y), KArg::tensor(HostTensor(DType::Float32, {rows * 4})),
            KArg::integer(n)};
  c.grid.x = rows;
  return c;
}

TEST(ChipScalarMasks, LoadStoreWhereHonourTheScalarWithPartialColumns) {
  expect_close(scalar_and_masks(4, 20, 32, 71), 0, 0);
}

TEST(ChipScalarMasks, LoadStoreWhereHonourTheScalarWithEveryColumnActive) {
  // n == BLOCK: the range masks are all true, only the scalar decides.
  expect_close(scalar_and_masks(4, 64, 64, 72), 0, 0);
}

TEST(ChipScalarMasks, LoopedGatherSumsOnlyTheMatchingRows) {
  // Rows 0..3 of OUT; IDX names rows 1, 3, 1, 0, 3: row 2 stays 0.
  for (int64_t dim : {16, 13}) {
    DiffCase c;
    c.file = "scalar_masks.py";
    c.kernel = "gather_rows";
    c.signature = "IDX=*i32,G=*fp32,OUT=*fp32,n_idx=i32,dim=i32";
    c.constexprs = {"BLOCK_D=16"};
    HostTensor idx(DType::Int32, {5});
    const int64_t names[] = {1, 3, 1, 0, 3};
    for (int64_t j = 0; j < 5; ++j) idx.set_int(j, names[j]);
    c.args = {KArg::tensor(idx), KArg::tensor(random_tensor(DType::Float32, {5 * dim}, 73)),
              KArg::tensor(HostTensor(DType::Float32, {4 * dim})), KArg::integer(5),
              KArg::integer(dim)};
    c.grid.x = 4;
    expect_close(c, 1e-6, 1e-6);
  }
}

DiffCase tile_scalar_masks(int64_t m, int64_t n, uint32_t seed) {
  DiffCase c;
  c.file = "scalar_masks.py";
  c.kernel = "tile_scalar_masks";
  c.signature = "IDX=*i32,X=*fp32,Y=*fp32,S=*fp32,M=i32,N=i32";
  c.constexprs = {"BLOCK_M=8", "BLOCK_N=16"};
  const int64_t programs = 4, tile = 8 * 16;
  HostTensor idx(DType::Int32, {programs});
  for (int64_t p = 0; p < programs; ++p) idx.set_int(p, p % 2 ? p : -1);
  HostTensor y(DType::Float32, {programs * 3 * tile});
  for (int64_t i = 0; i < y.numel(); ++i) y.set_double(i, 7.0);
  c.args = {KArg::tensor(idx), KArg::tensor(random_tensor(DType::Float32, {programs * tile}, seed)),
            KArg::tensor(y),   KArg::tensor(HostTensor(DType::Float32, {programs * 8})),
            KArg::integer(m),  KArg::integer(n)};
  c.grid.x = programs;
  return c;
}

TEST(ChipScalarMasks, TileMasksHonourTheScalar) {
  // Full tiles, then partial rows and columns.
  expect_close(tile_scalar_masks(8, 16, 74), 0, 0);
  expect_close(tile_scalar_masks(5, 11, 75), 0, 0);
}

TEST(ChipScalarMasks, WrappedOffsetsHonourTheScalar) {
  // 3 blocks of 16 over M = 40 elements: the last block wraps after 8.
  DiffCase c;
  c.file = "scalar_masks.py";
  c.kernel = "wrapped_rows";
  c.signature = "IDX=*i32,X=*fp32,Y=*fp32,M=i32,n=i32";
  c.constexprs = {"BLOCK=16"};
  HostTensor idx(DType::Int32, {3});
  for (int64_t p = 0; p < 3; ++p) idx.set_int(p, p == 1 ? p : 5);
  for (int64_t n : {16, 12}) {
    c.args = {KArg::tensor(idx), KArg::tensor(random_tensor(DType::Float32, {40}, 76)),
              KArg::tensor(HostTensor(DType::Float32, {3 * 16})), KArg::integer(40),
              KArg::integer(n)};
    c.grid.x = 3;
    expect_close(c, 0, 0);
  }
}

// A file the process wrote and removes when it exits.
struct TempFile {
  std::string path;
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
};

// The inductor embedding_bag template's forward kernel (its placeholders
// filled so that the file parses), written once per process and removed at exit.
std::string embedding_bag_kernel_file() {
  static const TempFile file{[] {
    std::ifstream in(std::string(OPFORGE_SOURCE_DIR) +
                     "/generator/inductor/templates/indexing/embedding_bag.py");
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    const std::pair<std::string, std::string> fills[] = {{"{{SCHEMA}}", "embedding_bag"},
                                                         {"{{WRAPPER}}", "_embedding_bag"},
                                                         {"{{SIGNATURE}}", ""},
                                                         {"{{RESULT}}", "None"}};
    for (auto &[from, to] : fills)
      for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at))
        text.replace(at, from.size(), to);
    auto file = std::filesystem::temp_directory_path() /
                ("opforge_scalar_masks_" + std::to_string(::getpid()) + "_embedding_bag.py");
    std::ofstream(file) << text;
    return file.string();
  }()};
  return file.path;
}

// Sum mode, 2 bags of 3 indices over 4 rows of 8 (NaN in row `nan_row`),
// `padding_idx` skipped (its row is masked off in the load: `dmask & valid`).
DiffCase embedding_bag_sum(const std::vector<int64_t> &indices, int64_t padding_idx,
                           int64_t nan_row) {
  DiffCase c;
  c.file = embedding_bag_kernel_file();
  c.kernel = "embedding_bag_kernel";
  c.signature =
      "w_ptr=*fp32,idx_ptr=*i64,off_ptr=*i64,psw_ptr=*fp32,out_ptr=*fp32,size_ptr=*i64,"
      "maxi_ptr=*i64,n_idx=i32,n_off=i32,nb=i32,dim=i32,w_stride0=i32,w_stride1=i32,"
      "padding_idx=i32";
  c.constexprs = {"MODE=0", "HAS_PSW=0", "BLOCK_D=8"};
  HostTensor w = random_tensor(DType::Float32, {4, 8}, 77);
  for (int64_t k = 0; k < 8; ++k) w.set_double(nan_row * 8 + k, std::nan(""));
  HostTensor idx(DType::Int64, {int64_t(indices.size())}), off(DType::Int64, {2});
  for (size_t j = 0; j < indices.size(); ++j) idx.set_int(int64_t(j), indices[j]);
  off.set_int(1, 3);
  c.args = {KArg::tensor(w),
            KArg::tensor(idx),
            KArg::tensor(off),
            KArg::tensor(w),
            KArg::tensor(HostTensor(DType::Float32, {2, 8})),
            KArg::tensor(HostTensor(DType::Int64, {2})),
            KArg::tensor(HostTensor(DType::Int64, {2})),
            KArg::integer(int64_t(indices.size())),
            KArg::integer(2),
            KArg::integer(2),
            KArg::integer(8),
            KArg::integer(8),
            KArg::integer(1),
            KArg::integer(padding_idx)};
  c.grid.x = 2;
  return c;
}

TEST(ChipScalarMasks, EmbeddingBagForwardSkipsThePaddingRowsLoads) {
  // Results: the padding row (NaN) contributes nothing, as on the interpreter.
  expect_close(embedding_bag_sum({2, 0, 2, 1, 2, 3}, 2, 2), 1e-6, 1e-6);
  // Traffic: with every index the padding row, no weight row is read; with
  // none of them padding, all six are (8 fp32 each).
  const std::vector<int64_t> twos = {2, 2, 2, 2, 2, 2};
  uint64_t skipped =
      counter_sum(expect_close(embedding_bag_sum(twos, 2, 0), 0, 0), "dma.bytes_read");
  uint64_t read = counter_sum(expect_close(embedding_bag_sum(twos, -1, 0), 0, 0), "dma.bytes_read");
  RecordProperty("dma_bytes_read_all_padding", std::to_string(skipped));
  RecordProperty("dma_bytes_read_no_padding", std::to_string(read));
  EXPECT_GE(read, skipped + 6 * 8 * 4) << "padding rows were loaded";
}

}  // namespace
}  // namespace opforge::compiler::testing
