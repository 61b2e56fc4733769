"""`opforge inductor-run FILE.py` on output modules TorchInductor writes during the test
(python -m opforge.inductor_dump, the models' forward graphs at small shapes), as written
for the opforge device and as a GPU machine would write the same module (cuda device names,
guards and stream): both run on the chip with every ATen node on the chip, print the
coverage shares, and write a profile `opforge report` reads."""
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import unittest

CLI = os.environ.get("OPFORGE_CLI", "opforge")


def as_written_for_cuda(source):
    """The module a CUDA machine's Inductor writes for the same graph: its device, guard,
    allocation and stream names."""
    source = source.replace("from opforge.inductor import get_raw_stream as get_raw_stream",
                            "from torch._C import _cuda_getCurrentRawStream as get_raw_stream")
    source = source.replace("torch.opforge.", "torch.cuda.")
    return source.replace("'opforge'", "'cuda'").replace("opforge:0", "cuda:0")


class InductorRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        out = subprocess.run(
            [sys.executable, "-m", "opforge.inductor_dump", "--out", cls.dir.name,
             "--models", "gpt2,dlrm", "--capture-only"],
            capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr[-3000:]
        cls.modules = sorted(pathlib.Path(cls.dir.name).glob("*.py"))

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def run_module(self, path, profile=None):
        cmd = [CLI, "inductor-run", str(path), "--arch", "tiny", "--timing", "functional"]
        if profile:
            cmd += ["--profile", str(profile)]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        self.assertEqual(out.returncode, 0, out.stdout[-2000:] + out.stderr[-2000:])
        return out.stdout

    def check_output(self, text):
        cycles = int(re.search(r"simulated cycles (\d+)", text).group(1))
        self.assertGreater(cycles, 0)
        cpu = re.search(r"CPU fallback\s+(\d+)", text)
        self.assertEqual(int(cpu.group(1)), 0, text)
        triton = re.search(r"Inductor Triton kernels\s+(\d+)", text)
        self.assertGreater(int(triton.group(1)), 0, text)
        self.assertIn("Triton for MTIA: 50% of layers", text)
        return cycles

    def test_each_module_runs_and_its_profile_is_a_results_file(self):
        self.assertEqual([m.name for m in self.modules],
                         ["dlrm_float32_0.py", "gpt2_float32_0.py"])
        for module in self.modules:
            profile = pathlib.Path(self.dir.name) / (module.stem + ".h5")
            self.check_output(self.run_module(module, profile))
            report = subprocess.run([CLI, "report", str(profile)], capture_output=True,
                                    text=True, timeout=120)
            self.assertEqual(report.returncode, 0, report.stderr)
            self.assertRegex(report.stdout, r"\binductor\s+ok\s+\d+")

    def test_a_module_written_for_cuda_runs_the_same(self):
        module = self.modules[1]
        cuda = pathlib.Path(self.dir.name) / "gpt2_cuda.py"
        cuda.write_text(as_written_for_cuda(module.read_text()))
        self.assertIn("empty_strided_cuda", cuda.read_text())
        self.assertEqual(self.check_output(self.run_module(cuda)),
                         self.check_output(self.run_module(module)))


if __name__ == "__main__":
    unittest.main()
