"""bench_models: the models of opforge.models on the opforge PyTorch device.

    build/bench/models/bench_models [--models resnet18,gpt2] [--image N] [--batch N]
        [--seq N] [--vocab N] [--layers N] [--dtypes float32,bfloat16] [--train]
        [--arch mtia-2i] [--timing lt|functional] [--library DIR]

Per model and dtype, one forward pass (and with --train one SGD step) on the chip model
with random weights, against the same pass on the CPU. Prints wall time, simulated kernel
cycles, guest instructions per host second, the on-chip share of ATen calls and of kernel
launches' time, the max error against the CPU, and the ATen overloads that ran on the CPU
(fallbacks) with their call counts. The kernels are the device's default library (the shipped
one, then the inductor kernels) or --library DIR.

The defaults are scaled-down shapes that simulate in a minute or two each on a 2-core
machine (6-40 M guest instructions per second in lt timing, 2026-12-05); the published shapes are
--image 224 (ResNet-18, MobileNetV3-Small) and --d 768 --heads 12 --seq 256 --vocab 50257
(GPT-2 small's width, two layers), which take hours of simulation.
"""
import argparse
import copy
import pathlib
import sys
import time
import warnings

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
import opforge  # noqa: E402
from opforge import models  # noqa: E402


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--models", default=",".join(models.MODELS))
    p.add_argument("--dtypes", default="float32,bfloat16")
    # Defaults: shapes whose passes simulate in a minute or two each on this project's
    # 2-core machine (the published shapes take hours: see the docstring).
    p.add_argument("--batch", type=int, default=2)
    p.add_argument("--image", type=int, default=32)
    p.add_argument("--seq", type=int, default=64)
    p.add_argument("--vocab", type=int, default=512)
    p.add_argument("--d", type=int, default=128)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--train", action="store_true", help="also one SGD step (gpt2, dlrm)")
    p.add_argument("--arch", default="mtia-2i")
    p.add_argument("--timing", default="lt")
    p.add_argument("--library", default=None, help="kernel library (default: the device's)")
    p.add_argument("--per-op", action="store_true",
                   help="print each model's coverage table: calls on the chip and the CPU and "
                        "kernel cycles per ATen overload")
    return p.parse_args()


def run(fn):
    t = time.monotonic()
    with opforge.profile() as p:
        out = fn()
    return out, p, time.monotonic() - t


def report(label, p, wall, err):
    calls = p.chip_calls + p.fallbacks
    fallback = {}
    for r in p.ops:
        if r["fallbacks"]:
            key = f"{r['op']}:{r['dtype']}"
            fallback[key] = fallback.get(key, 0) + r["fallbacks"]
    ips = p.instructions / wall if wall > 0 else 0.0
    print(f"{label:<34} {wall:8.1f} {p.cycles:>14,} {ips / 1e6:9.2f} "
          f"{100.0 * p.chip_calls / max(calls, 1):6.1f}% ({p.chip_calls}/{calls}) {err:10.3g}")
    if fallback:
        print("    on the CPU: " + ", ".join(f"{k} x{v}" for k, v in sorted(fallback.items())))
    if PER_OP:
        # The coverage table: per ATen overload and dtype, calls on the chip and on the CPU
        # and the kernel cycles of those on the chip (a fallback has no simulated cycles).
        for r in sorted(p.ops, key=lambda r: (-r["cycles"], r["op"])):
            print(f"    {r['op'] + ' ' + r['dtype']:<52} calls {r['calls']:>5}  chip {r['chip_calls']:>5}"
                  f"  cpu {r['fallbacks']:>4}  cycles {r['cycles']:>12,} "
                  f"({100.0 * r['cycles'] / max(p.cycles, 1):5.1f}%)")
    sys.stdout.flush()


PER_OP = False


def main():
    global PER_OP
    a = parse()
    PER_OP = a.per_op
    warnings.simplefilter("ignore")
    library = a.library
    opforge.init(arch=a.arch, timing=a.timing, library=library)
    shape = dict(batch=a.batch, image=a.image, seq=a.seq, vocab=a.vocab, d=a.d, heads=a.heads,
                 layers=a.layers)
    print(f"bench_models: {a.arch}, timing {a.timing}, library {library or 'default'}; "
          f"batch {a.batch}, images {a.image}x{a.image}, decoder d {a.d} heads {a.heads} "
          f"layers {a.layers} seq {a.seq} vocab {a.vocab}")
    print(f"{'model':<34} {'wall s':>8} {'sim cycles':>14} {'Minstr/s':>9} "
          f"{'on-chip calls':>20} {'max err':>10}")
    for name in a.models.split(","):
        for dtname in a.dtypes.split(","):
            try:
                one(a, shape, name, dtname)
            except Exception as e:  # noqa: BLE001 - a model that does not run is a row, not the end
                print(f"{name + ' ' + dtname:<34} failed: {type(e).__name__}: {str(e).splitlines()[0][:200]}")


def one(a, shape, name, dtname):
    dtype = getattr(torch, dtname)
    net, example = models.build(name, **shape)
    net = net.to(dtype)
    example = tuple(e.to(dtype) if e.is_floating_point() else e for e in example)
    with torch.no_grad():
        ref = net(*example)
        dev = copy.deepcopy(net).to("opforge")
        inputs = tuple(e.to("opforge") for e in example)
        out, p, wall = run(lambda: dev(*inputs).cpu())
    err = (out.float() - ref.float()).abs().max().item()
    report(f"{name} {dtname} forward", p, wall, err)
    if not (a.train and name in ("gpt2", "dlrm") and dtype == torch.float32):
        return
    net.train()
    dev = copy.deepcopy(net).to("opforge")
    steps = []
    for model, x in ((net, example), (dev, tuple(e.to("opforge") for e in example))):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)

        def step():
            loss = models.loss(name, model, x)
            loss.backward()
            opt.step()
            return loss.detach().cpu()
        steps.append(run(step))
    (ref_loss, _, _), (loss, p, wall) = steps
    err = max((q.detach().cpu() - r.detach()).abs().max().item()
              for q, r in zip(dev.parameters(), net.parameters()))
    report(f"{name} {dtname} training step", p, wall, max(err, abs(loss - ref_loss).item()))


if __name__ == "__main__":
    main()
