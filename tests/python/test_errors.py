"""Bad input on the opforge device: device out-of-memory names the bytes requested
and free; a second opforge.init with another configuration says why it cannot be."""
import re
import unittest

import torch

import opforge


class Errors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        opforge.init(arch="tiny", timing="functional", set={"dram.capacity_bytes": "64MiB"})

    def test_out_of_memory_names_bytes_requested_and_free(self):
        small = torch.ones(1024, device="opforge")  # allocations work below the limit
        self.assertEqual(small.cpu().sum().item(), 1024)
        with self.assertRaises(RuntimeError) as cm:
            torch.empty(32 * 1024 * 1024, device="opforge")  # 128 MiB of float32
        msg = str(cm.exception)
        self.assertIn("out of device memory", msg)
        self.assertIn("134217728 bytes requested", msg)
        free = int(re.search(r"(\d+) bytes free", msg).group(1))
        self.assertGreater(free, 0)
        self.assertLess(free, 64 * 1024 * 1024)

    def test_second_init_with_another_config_is_an_error_saying_why(self):
        # The same configuration again is fine.
        opforge.init(arch="tiny", timing="functional", set={"dram.capacity_bytes": "64MiB"})
        with self.assertRaises(RuntimeError) as cm:
            opforge.init(arch="mtia-2i", timing="lt")
        msg = str(cm.exception)
        self.assertIn("arch tiny", msg)
        self.assertIn("arch mtia-2i", msg)
        self.assertIn("another process", msg)


if __name__ == "__main__":
    unittest.main()
