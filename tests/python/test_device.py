"""opforge tensors: storage in the chip model's DRAM, copies through the host link,
factories, views and printing (python/opforge, docs/pytorch-device.md)."""
import unittest

import torch

import opforge


class DeviceTensors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        opforge.init(arch="tiny", timing="functional")

    def test_round_trip_keeps_values_and_dtype(self):
        for dtype in (torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.int32,
                      torch.bool, torch.float64, torch.complex64):
            x = (torch.randn(3, 5) * 10).to(dtype)
            d = x.to("opforge")
            self.assertEqual(d.device.type, "opforge")
            self.assertEqual(d.dtype, dtype)
            torch.testing.assert_close(d.cpu(), x, rtol=0, atol=0)

    def test_factories(self):
        e = torch.empty(4, 6, device="opforge")
        self.assertEqual(e.device.type, "opforge")
        self.assertEqual(tuple(e.shape), (4, 6))
        z = torch.zeros(2, 3, device="opforge", dtype=torch.int64)
        torch.testing.assert_close(z.cpu(), torch.zeros(2, 3, dtype=torch.int64))
        torch.manual_seed(3)
        r = torch.randn(5, 7, device="opforge")
        self.assertEqual(r.device.type, "opforge")
        self.assertGreater(float(r.cpu().std()), 0.1)
        o = torch.ones(3, device="opforge", dtype=torch.float16)
        torch.testing.assert_close(o.cpu(), torch.ones(3, dtype=torch.float16))

    def test_views_share_device_storage(self):
        x = torch.arange(24, dtype=torch.float32).reshape(4, 6)
        d = x.to("opforge")
        t = d.t()
        self.assertEqual(t.untyped_storage().data_ptr(), d.untyped_storage().data_ptr())
        torch.testing.assert_close(t.cpu(), x.t())
        torch.testing.assert_close(d[1:3, ::2].cpu(), x[1:3, ::2])
        torch.testing.assert_close(d.view(6, 4).cpu(), x.view(6, 4))
        torch.testing.assert_close(d[2].cpu(), x[2])
        # Writing through a strided view writes the device storage.
        d[:, 1] = torch.full((4,), -1.0).to("opforge")
        x[:, 1] = -1.0
        torch.testing.assert_close(d.cpu(), x)

    def test_copy_between_device_tensors_converts_dtype(self):
        x = torch.randn(4, 4)
        a = x.to("opforge")
        b = torch.empty(4, 4, device="opforge", dtype=torch.float16)
        b.copy_(a)
        torch.testing.assert_close(b.cpu(), x.half())
        c = a.to(torch.bfloat16)
        self.assertEqual(c.device.type, "opforge")
        torch.testing.assert_close(c.cpu(), x.bfloat16())

    def test_print_and_item(self):
        d = torch.tensor([[1.5, -2.0], [3.25, 4.0]]).to("opforge")
        text = str(d)
        self.assertIn("device='opforge:0'", text)
        self.assertIn("3.2500", text)
        self.assertEqual(d[1, 0].item(), 3.25)

    def test_generated_methods(self):
        x = torch.ones(2)
        self.assertTrue(x.opforge().is_opforge)
        self.assertFalse(x.is_opforge)

    def test_stats_count_calls(self):
        before = opforge.stats()["calls"]
        a = torch.ones(8).to("opforge")
        (a + a).cpu()
        self.assertGreater(opforge.stats()["calls"], before)

    def test_device_memory_is_given_back(self):
        import gc
        gc.collect()
        base = opforge.stats()["device_bytes_allocated"]
        a = torch.randn(256, 256).to("opforge")
        held = opforge.stats()["device_bytes_allocated"]
        self.assertGreaterEqual(held - base, 256 * 256 * 4)
        b = a @ a + a          # kernel outputs and the wrappers' temporaries
        c = torch.cos(b)       # a CPU fallback's result copied in
        d = a.t()[3:9]         # a view: no storage of its own
        d.add_(1.0)            # an out= overload through its functional kernel
        del a, b, c, d
        gc.collect()
        self.assertEqual(opforge.stats()["device_bytes_allocated"], base)


if __name__ == "__main__":
    unittest.main()
