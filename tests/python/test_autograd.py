"""Autograd on opforge tensors: a training step of a small MLP (Linear + ReLU +
MSE, one SGD step) matches the same step on the CPU; backward ops dispatch like
forward ones (on the chip where the library has a kernel)."""
import copy
import unittest

import torch

import opforge


def mlp():
    torch.manual_seed(7)
    return torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))


def step(model, x, y):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    return loss


class Autograd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        opforge.init(arch="tiny", timing="functional")

    def test_mlp_training_step_matches_cpu(self):
        cpu = mlp()
        dev = copy.deepcopy(cpu).to("opforge")
        torch.manual_seed(1)
        x, y = torch.randn(5, 8), torch.randn(5, 4)
        ref_loss = step(cpu, x, y)
        with opforge.profile() as p:
            loss = step(dev, x.to("opforge"), y.to("opforge"))
        self.assertEqual(loss.device.type, "opforge")
        torch.testing.assert_close(loss.cpu(), ref_loss.detach())
        for (name, a), b in zip(dev.named_parameters(), cpu.parameters()):
            self.assertEqual(a.device.type, "opforge", name)
            torch.testing.assert_close(a.detach().cpu(), b.detach(), msg=name)
            torch.testing.assert_close(a.grad.cpu(), b.grad, msg=name)
        # The backward pass ran kernels on the chip (mm of the weight gradients).
        self.assertGreater(p.op("aten::mm")["chip_calls"], 0, p.ops)
        self.assertGreater(p.cycles, 0)
        print(f"\nMLP step: {p.chip_calls} of {p.chip_calls + p.fallbacks} calls on the chip, "
              f"{p.cycles} kernel cycles")


if __name__ == "__main__":
    unittest.main()
