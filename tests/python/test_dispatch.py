"""Dispatch of ATen ops on opforge tensors: by overload and dtype to the kernel
library on the chip (cycles counted, no fallback), else to the CPU with one
warning per op and dtype and a count."""
import unittest
import warnings

import torch

import opforge


class Dispatch(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        opforge.init(arch="tiny", timing="lt")

    def test_library_ops_run_on_the_chip(self):
        torch.manual_seed(0)
        a, b = torch.randn(16, 16), torch.randn(16, 16)
        da, db = a.to("opforge"), b.to("opforge")
        with opforge.profile() as p:
            s = da + db
            m = da * db
            g = da @ db
            e = torch.exp(da)
            sg = torch.sigmoid(db)
            r = torch.sum(da, dim=1)
            rl = torch.relu(da)  # an inductor kernel (scenarios/traces/kernels.json)
        torch.testing.assert_close(rl.cpu(), torch.relu(a))
        torch.testing.assert_close(s.cpu(), a + b)
        torch.testing.assert_close(m.cpu(), a * b)
        torch.testing.assert_close(g.cpu(), a @ b)
        torch.testing.assert_close(e.cpu(), torch.exp(a))
        torch.testing.assert_close(sg.cpu(), torch.sigmoid(b))
        torch.testing.assert_close(r.cpu(), a.sum(dim=1))
        self.assertEqual(p.fallbacks, 0, p.ops)
        for op in ("aten::add.Tensor", "aten::mul.Tensor", "aten::mm", "aten::exp",
                   "aten::sigmoid", "aten::sum.dim_IntList", "aten::relu"):
            row = p.op(op, "float32")
            self.assertEqual(row["chip_calls"], 1, (op, p.ops))
            self.assertGreater(row["cycles"], 0, (op, p.ops))
            self.assertGreater(row["launches"], 0, (op, p.ops))
        self.assertGreater(p.cycles, 0)
        self.assertTrue(any(k.endswith("instret") and v > 0 for k, v in p.counters.items()),
                        list(p.counters)[:20])

    def test_16_bit_floats_run_on_the_chip(self):
        a, b = torch.randn(8, 8), torch.randn(8, 8)
        for dtype in (torch.bfloat16, torch.float16):
            x, y = a.to(dtype), b.to(dtype)
            with opforge.profile() as p:
                s = x.to("opforge") + y.to("opforge")
                m = x.to("opforge") @ y.to("opforge")
            torch.testing.assert_close(s.cpu(), x + y)
            torch.testing.assert_close(m.cpu(), x @ y)
            self.assertEqual(p.fallbacks, 0, p.ops)
            self.assertEqual(p.op("aten::mm", str(dtype).split(".")[1])["chip_calls"], 1, p.ops)

    def test_in_place_op_writes_the_device_tensor(self):
        a, b = torch.randn(8), torch.randn(8)
        da = a.to("opforge")
        ptr = da.untyped_storage().data_ptr()
        with opforge.profile() as p:
            da.add_(b.to("opforge"), alpha=2)
        a.add_(b, alpha=2)
        self.assertEqual(da.untyped_storage().data_ptr(), ptr)
        torch.testing.assert_close(da.cpu(), a)
        # add_ reaches the backend as add.out(self, other, out=self): add.Tensor's
        # kernel runs on the chip and its result is copied into self on the device.
        self.assertEqual(p.fallbacks, 0, p.ops)
        self.assertEqual(p.op("aten::add.out")["chip_calls"], 1, p.ops)

    def test_out_variant_resizes_its_output(self):
        a = torch.randn(5, 7)
        out = torch.empty(0, device="opforge")
        with opforge.profile() as p:
            torch.exp(a.to("opforge"), out=out)
        self.assertEqual(tuple(out.shape), (5, 7))
        torch.testing.assert_close(out.cpu(), torch.exp(a))
        self.assertEqual(p.op("aten::exp.out")["chip_calls"], 1, p.ops)

    def test_python_numbers_go_to_the_wrapper_as_scalars(self):
        a = torch.randn(6, 6)
        d = a.to("opforge")
        with opforge.profile() as p:
            m = d * 2.5
            s = d + 3
        torch.testing.assert_close(m.cpu(), a * 2.5)
        torch.testing.assert_close(s.cpu(), a + 3)
        self.assertEqual(m.dtype, torch.float32)
        self.assertEqual(p.fallbacks, 0, p.ops)
        self.assertEqual(p.op("aten::mul.Tensor")["chip_calls"], 1, p.ops)

    def test_strided_inputs_are_used_in_place(self):
        a = torch.randn(12, 10)
        da = a.to("opforge")
        with opforge.profile() as p:
            out = da.t() + da.t()
        torch.testing.assert_close(out.cpu(), a.t() + a.t())
        self.assertEqual(p.op("aten::add.Tensor")["chip_calls"], 1)

    def test_op_without_kernel_falls_back_warns_once_and_counts(self):
        x = torch.randn(6, 6)
        d = x.to("opforge")
        with opforge.profile() as p, warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            c1 = torch.cos(d)
            c2 = torch.cos(d)
        torch.testing.assert_close(c1.cpu(), torch.cos(x))
        torch.testing.assert_close(c2.cpu(), torch.cos(x))
        self.assertEqual(c1.device.type, "opforge")
        # torch.cos reaches the backend as aten::cos.out (ATen's composite cos for a
        # backend without its own kernel).
        rows = [o for o in p.ops if o["op"].startswith("aten::cos") and o["dtype"] == "float32"]
        self.assertEqual(len(rows), 1, p.ops)
        self.assertEqual(rows[0]["fallbacks"], 2, p.ops)
        self.assertEqual(rows[0]["chip_calls"], 0)
        msgs = [str(m.message) for m in w if "aten::cos" in str(m.message)]
        self.assertEqual(len(msgs), 1, msgs)  # once per op and dtype in the process
        self.assertIn("float32", msgs[0])
        stats = opforge.stats()
        cos = [o for o in stats["ops"] if o["op"] == rows[0]["op"] and o["dtype"] == "float32"]
        self.assertEqual(cos[0]["fallbacks"], 2)
        self.assertIn("no kernel", cos[0]["fallback_reason"])

    def test_complex_falls_back_naming_op_and_dtype(self):
        x = torch.randn(4, dtype=torch.complex64)
        d = x.to("opforge")
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            s = d + d
        torch.testing.assert_close(s.cpu(), x + x)
        msgs = [str(m.message) for m in w]
        self.assertTrue(any("aten::add.Tensor" in m and "complex64" in m for m in msgs), msgs)
        row = [o for o in opforge.stats()["ops"]
               if o["op"] == "aten::add.Tensor" and o["dtype"] == "complex64"]
        self.assertEqual(row[0]["fallbacks"], 1)


if __name__ == "__main__":
    unittest.main()
