"""A scenario workload of kind "model" end to end: `opforge sweep` runs the DLRM-style model's
training step and the GPT-2-shaped decoder's forward pass on the opforge device at two PE
grids (each point its own process running python -m opforge.point), and the results file
has, per point, status ok (the output matched the CPU's), cycles and instructions, one op row
per ATen call, and fewer cycles for the decoder on the larger grid; `opforge report` reads it."""
import json
import os
import subprocess
import tempfile
import unittest

import h5py

CLI = os.environ["OPFORGE_CLI"]


class ModelWorkload(unittest.TestCase):
    def test_sweep_runs_models_per_point(self):
        with tempfile.TemporaryDirectory() as d:
            scenario = {
                "name": "models", "arch": "mtia-2i", "timing": "lt",
                "sweep": [{"zip": {"pe_grid.rows": [2, 4], "pe_grid.cols": [2, 4]}}],
                "workloads": [
                    {"name": "gpt2", "kind": "model", "model": "gpt2",
                     "shape": {"batch": 2, "seq": 16, "vocab": 64, "d": 32, "heads": 4}},
                    {"name": "dlrm", "kind": "model", "model": "dlrm", "train": True,
                     "shape": {"batch": 4}},
                ],
                "output": os.path.join(d, "out.h5"),
            }
            path = os.path.join(d, "s.json")
            with open(path, "w") as f:
                json.dump(scenario, f)
            run = subprocess.run([CLI, "sweep", path, "--jobs", "2", "--quiet"],
                                 capture_output=True, text=True, timeout=900)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            with h5py.File(os.path.join(d, "out.h5")) as f:
                summary = f["summary"][:]
                status = [s.decode() for s in summary["status"]]
                workload = [s.decode() for s in summary["workload"]]
                cycles = [int(c) for c in summary["cycles"]]
                self.assertEqual(status, ["ok"] * 4, [r.decode() for r in summary["reason"]])
                for i in range(4):
                    ops = f[f"points/{i}/ops"][:]
                    self.assertGreater(len(ops), 5)
                    on_chip = [o for o in ops if o["status"] == b"ok"]
                    self.assertGreater(len(on_chip), len(ops) // 2)
                    self.assertTrue(all(o["cycles"] > 0 for o in on_chip if o["launches"]))
                self.assertEqual(sorted(workload), ["dlrm", "dlrm", "gpt2", "gpt2"])
                self.assertTrue(all(c > 0 for c in cycles), cycles)
                gpt = [c for c, w in zip(cycles, workload) if w == "gpt2"]
                self.assertLess(gpt[1], gpt[0], "16 PEs should take fewer cycles than 4")
            report = subprocess.run([CLI, "report", os.path.join(d, "out.h5")],
                                    capture_output=True, text=True, timeout=120)
            self.assertEqual(report.returncode, 0, report.stderr)
            self.assertIn("aten::addmm", report.stdout)
            self.assertIn("dlrm", report.stdout)

    def test_a_bad_model_workload_is_refused_naming_the_field(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.json")
            with open(path, "w") as f:
                json.dump({"name": "m", "arch": "tiny",
                           "workloads": [{"kind": "model", "model": "vgg"}]}, f)
            run = subprocess.run([CLI, "sweep", path], capture_output=True, text=True, timeout=60)
            self.assertNotEqual(run.returncode, 0)
            self.assertIn("/workloads/0/model", run.stdout + run.stderr)
            self.assertIn("unknown model 'vgg'", run.stdout + run.stderr)


if __name__ == "__main__":
    unittest.main()
