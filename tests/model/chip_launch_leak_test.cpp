//===- chip_launch_leak_test.cpp - a launch's memory is returned when its result is dropped ===//
#include <gtest/gtest.h>
#include <malloc.h>

#include <cstring>
#include <iostream>

#include "opforge/model/device.h"
#include "test_util.h"

namespace opforge::model {
namespace {

size_t heap_in_use() { return mallinfo2().uordblks; }

TEST(ChipLaunchLeak, ThousandsOfLaunchesKeepTheHeapFlat) {
  Device dev(testing::preset("tiny"));
  const uint64_t out = dev.alloc(64 * 4);
  KernelLaunch k;
  k.image = read_elf_file(std::string(MODEL_KERNEL_DIR) + "/pid_store.elf");
  k.args.resize(8);
  std::memcpy(k.args.data(), &out, 8);
  k.grid = {4, 1, 1};
  auto launch = [&] {
    LaunchResult r = dev.launch(k);
    ASSERT_TRUE(r.ok());
  };
  for (int i = 0; i < 200; ++i) launch();  // warm: caches, counters, SystemC's pools
  const size_t before = heap_in_use();
  constexpr int kLaunches = 2000;
  for (int i = 0; i < kLaunches; ++i) launch();
  const double per_launch = (double(heap_in_use()) - double(before)) / kLaunches;
  std::cout << "heap kept per launch: " << per_launch << " bytes\n";
  EXPECT_LT(per_launch, 256.0) << "bytes of heap kept per launch";
}

}  // namespace
}  // namespace opforge::model
