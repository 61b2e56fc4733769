"""A kernel that traps on the chip raises a Python RuntimeError naming the op,
the kernel, the PE and the PC (a library whose add.Tensor stores out of bounds)."""
import os
import tempfile
import textwrap
import unittest

import torch

import opforge

BAD_ADD = textwrap.dedent('''
    import torch
    import triton
    import triton.language as tl


    @triton.jit
    def add_past_end_kernel(out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out_ptr + n + offs, tl.zeros([BLOCK], dtype=tl.float32))


    def add_Tensor(self, other, *, alpha=1):
        out = torch.empty_like(self)
        add_past_end_kernel[(1,)](out, 4096, BLOCK=16)
        return out
''')


class Trap(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        with open(os.path.join(cls.tmp.name, "add.Tensor.py"), "w") as f:
            f.write(BAD_ADD)
        opforge.init(arch="tiny", timing="functional", library=cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_trap_names_op_kernel_pe_and_pc(self):
        a = torch.ones(16).to("opforge")
        with self.assertRaises(RuntimeError) as cm:
            a + a
        msg = str(cm.exception)
        self.assertIn("aten::add.Tensor", msg)
        self.assertIn("add_past_end_kernel", msg)
        self.assertIn("add.Tensor.py:add_Tensor", msg)
        self.assertRegex(msg, r"pc=0x[0-9a-f]+")
        self.assertRegex(msg, r"pe\[\d+\]")
        # The device still works after the trap (the next op on other tensors).
        torch.testing.assert_close((a * a).cpu(), torch.ones(16))


if __name__ == "__main__":
    unittest.main()
