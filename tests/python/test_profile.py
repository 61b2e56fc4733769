"""opforge.profile(): per-op calls, cycles and fallbacks, saved as a results file
that `opforge report` reads (docs/results.md)."""
import os
import subprocess
import tempfile
import unittest

import torch

import opforge


class Profile(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        opforge.init(arch="tiny", timing="lt")

    def test_saved_profile_is_a_results_file_opforge_report_reads(self):
        a = torch.randn(16, 16).to("opforge")
        with opforge.profile() as p:
            b = a @ a
            c = b + a
            d = torch.cos(c)  # no kernel: a fallback row
        d.cpu()
        self.assertEqual(p.op("aten::mm")["chip_calls"], 1)
        # torch.cos reaches the backend as aten::cos.out (ATen's composite kernel).
        cos = [o for o in p.ops if o["op"].startswith("aten::cos")]
        self.assertEqual([o["fallbacks"] for o in cos], [1], p.ops)
        statuses = {c["op"]: c["status"] for c in p.calls}
        self.assertEqual(statuses["aten::mm"], "ok")
        self.assertEqual(statuses[cos[0]["op"]], "unsupported")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "prof.h5")
            p.save(path)
            self.assertTrue(os.path.exists(path))
            self.assertFalse(os.path.exists(path + ".shards"))
            cli = os.environ.get("OPFORGE_CLI", "build/harness/opforge")
            out = subprocess.run([cli, "report", path], capture_output=True, text=True)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn("pytorch", out.stdout)
            self.assertIn("aten::mm", out.stdout)
            self.assertIn(str(p.cycles), out.stdout.replace(",", ""))
            # triage and trace read it too.
            tri = subprocess.run([cli, "triage", path], capture_output=True, text=True)
            self.assertEqual(tri.returncode, 0, tri.stderr)
            self.assertIn(f"{p.cycles} cycles", tri.stdout)
            trace = os.path.join(tmp, "trace.json")
            tr = subprocess.run([cli, "trace", path, "--point", "0", "--perfetto", trace],
                                capture_output=True, text=True)
            self.assertEqual(tr.returncode, 0, tr.stderr)
            self.assertTrue(os.path.getsize(trace) > 0)

    def test_nothing_outside_the_with_block_is_counted(self):
        a = torch.randn(8).to("opforge")
        (a + a).cpu()
        with opforge.profile() as p:
            pass
        self.assertEqual(p.calls, [])
        self.assertEqual(p.cycles, 0)


if __name__ == "__main__":
    unittest.main()
