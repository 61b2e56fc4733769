//===- chip_counters_h5_test.cpp - snapshots and series in HDF5 via h5py --===//
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "opforge/model/device.h"
#include "test_util.h"

namespace opforge::model {
namespace {

using testing::CmdList;

TEST(ChipCountersH5, SampledSeriesAndSnapshotAreReadableWithH5py) {
  ChipParams p = testing::preset("tiny", {"simulation.sample_interval_cycles=200"});
  Device dev(p);
  dev.set_sampled_counters({"pe[*].dma.bytes_read", "dram.ch[*].busy_cycles"});
  uint64_t src = dev.alloc(16384), dst = dev.alloc(16384);
  CmdList cl;
  cl.dma({src, p.map.local_alias_base, 16384, 1, 0, 0, 0})
      .dma_wait(0)
      .dma({p.map.local_alias_base, dst, 16384, 1, 0, 0, 0})
      .dma_wait(0);
  LaunchResult r = dev.launch(cl.launch({4, 1, 1}));
  ASSERT_TRUE(r.ok());
  std::string path = ::testing::TempDir() + "model_counters.h5";
  dev.write_counters_h5(path, &r);
  std::string py = path + ".py";
  std::ofstream(py)
      << "import h5py, json, sys\n"
         "f = h5py.File(sys.argv[1], 'r')\n"
         "names = [n.decode() if isinstance(n, bytes) else n for n in f['counters/names'][:]]\n"
         "vals = dict(zip(names, f['counters/values'][:]))\n"
         "assert vals['pe[0][0].dma.bytes_read'] == 32768, vals['pe[0][0].dma.bytes_read']\n"
         "s = f['series/values']\n"
         "assert s.shape[1] == 4 + 2, s.shape\n"
         "assert s.shape[0] == f['series/cycles'].shape[0] and s.shape[0] >= 2, s.shape\n"
         "cyc = f['series/cycles'][:]\n"
         "assert all(b > a for a, b in zip(cyc, cyc[1:]))\n"
         "col = list(f['series/names'][:]).index(b'pe[0][0].dma.bytes_read') if "
         "isinstance(f['series/names'][0], bytes) else [n for n in "
         "f['series/names'][:]].index('pe[0][0].dma.bytes_read')\n"
         "series = s[:, col]\n"
         "assert all(b >= a for a, b in zip(series, series[1:])) and series[-1] > 0\n"
         "cfg = json.loads(f.attrs['config'])\n"
         "assert cfg['pe_grid']['rows'] == 2\n"
         "assert f['launch'].attrs['cycles'] == " +
             std::to_string(r.cycles) +
             "\n"
             "assert f['launch/instances'].shape == (4, 8)\n"
             "print('ok')\n";
  std::string cmd = std::string(MODEL_PYTHON3) + " " + py + " " + path;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

}  // namespace
}  // namespace opforge::model
