"""bench_torch_compile: the models of opforge.models compiled with torch.compile(backend=
"opforge") on the opforge PyTorch device, against the same models run eagerly on the device.

    build/bench/models/bench_torch_compile [--models resnet18,gpt2] [--image N] [--batch N]
        [--seq N] [--vocab N] [--d N] [--heads N] [--layers N] [--dtypes float32,bfloat16]
        [--train] [--arch mtia-2i] [--timing lt|functional]

Per model and dtype, one forward pass (with --train also a float32 training step: loss and
backward, for every model, its gradients compared with the same step in float64 on the CPU)
eagerly and compiled (TorchInductor's Triton kernels compiled by
opforge; GEMM and convolution through the kernel library). Prints, for each: wall time of
the compiled run (its first call: Inductor's compile plus the simulation) and of a second
call (simulation only), simulated cycles eager and compiled, the compiled speedup on the
chip (eager cycles / compiled cycles), the max error of the compiled output against the
CPU, and the coverage shares: ATen nodes and simulated cycles in Inductor's Triton kernels,
in library kernels and on the CPU, and the Triton kernels' share of non-GEMM time, beside
Triton for MTIA's 50% of layers and 47% of non-GEMM time.

The defaults are the scaled-down shapes of bench_models; the published shapes are --image
224 (ResNet-18, MobileNetV3-Small) and --d 768 --heads 12 --seq 256 --vocab 50257 (GPT-2
small's width), which take hours of simulation on a 2-core machine.
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
from opforge import inductor, models  # noqa: E402

CONVNETS = ("resnet18", "mobilenet_v3_small")


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--models", default=",".join(models.MODELS))
    p.add_argument("--dtypes", default="float32,bfloat16")
    p.add_argument("--batch", type=int, default=2)
    p.add_argument("--image", type=int, default=32)
    p.add_argument("--seq", type=int, default=64)
    p.add_argument("--vocab", type=int, default=512)
    p.add_argument("--d", type=int, default=128)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--train", action="store_true", help="also a training step of each model")
    p.add_argument("--arch", default="mtia-2i")
    p.add_argument("--timing", default="lt")
    return p.parse_args()


def timed(fn):
    t = time.monotonic()
    with opforge.profile() as p:
        out = fn()
    return out, p, time.monotonic() - t


def row(label, eager, first, second, err, cov):
    (_, pe, we), (_, pc1, wc1), (_, pc2, wc2) = eager, first, second
    speedup = pe.cycles / pc2.cycles if pc2.cycles else float("nan")
    print(f"{label:<30} {we:8.1f} {wc1:8.1f} {wc2:8.1f} {pe.cycles:>13,} {pc2.cycles:>13,} "
          f"{speedup:6.2f}x {err:9.3g}")
    n, c = cov["node_share"], cov["cycle_share"]
    print(f"    nodes: Triton {n['triton']:.1%}, library {n['library']:.1%}, CPU {n['cpu']:.1%}; "
          f"cycles: Triton {c['triton']:.1%}, library {c['library']:.1%}, CPU {c['cpu']:.1%}; "
          f"Triton share of non-GEMM time {cov['triton_share_of_non_gemm_time']:.1%}; "
          f"{cov['triton_kernels']} Triton kernels"
          f"{'; eager graphs: ' + str(len(cov['eager_graphs'])) if cov['eager_graphs'] else ''}")
    sys.stdout.flush()
    return cov


def one(a, shape, name, dtname, totals):
    dtype = getattr(torch, dtname)
    net, example = models.build(name, **shape)
    net = net.to(dtype)
    example = tuple(e.to(dtype) if e.is_floating_point() else e for e in example)
    with torch.no_grad():
        ref = net(*example)
    dev = copy.deepcopy(net).to("opforge")
    inputs = tuple(e.to("opforge") for e in example)
    torch._dynamo.reset()
    fn = torch.compile(dev, backend="opforge")
    with torch.no_grad():
        eager = timed(lambda: dev(*inputs).cpu())
        inductor.reset_coverage()
        first = timed(lambda: fn(*inputs).cpu())
        inductor.reset_coverage()
        second = timed(lambda: fn(*inputs).cpu())
    err = (second[0].float() - ref.float()).abs().max().item()
    totals.append(row(f"{name} {dtname} forward", eager, first, second, err, inductor.coverage()))
    if not (a.train and dtype == torch.float32):
        return
    # The training step: batch norm in training mode over a batch of 2 amplifies every
    # rounding (the CPU's own step is ~1% off float64 there), so the convnets train on a
    # batch of at least 4, as test_training does.
    tshape = dict(shape, batch=max(4, shape["batch"])) if name in CONVNETS else shape
    net, example = models.build(name, **tshape)
    net.train()
    for m in net.modules():
        if isinstance(m, torch.nn.Dropout):  # random masks differ between generators
            m.p = 0.0
    inputs = tuple(e.to("opforge") for e in example)
    grads = {}
    runs = {}
    for kind in ("cpu", "float64", "eager", "compiled"):
        model = copy.deepcopy(net)
        x = example
        if kind == "float64":
            model = model.double()
            x = tuple(e.double() if e.is_floating_point() else e for e in example)
        elif kind != "cpu":
            model = model.to("opforge")
            x = inputs
        torch._dynamo.reset()
        loss_fn = lambda *b, m=model: models.loss(name, m, b)  # noqa: E731
        if kind == "compiled":
            loss_fn = torch.compile(loss_fn, backend="opforge")
            inductor.reset_coverage()

        def step(m=model, f=loss_fn, x=x):
            m.zero_grad()
            f(*x).backward()
            return [q.grad.detach().cpu().double() for q in m.parameters()]
        runs[kind] = timed(step)
        grads[kind] = runs[kind][0]
    cov = inductor.coverage()

    def err(kind):
        return max((g - w).abs().max().item() for g, w in zip(grads[kind], grads["float64"]))
    # The error column: the compiled step's gradients against the float64 step's; the
    # eager device step's and the CPU step's own errors against it are printed beside.
    totals.append(row(f"{name} {dtname} training step", runs["eager"], runs["compiled"],
                      runs["compiled"], err("compiled"), cov))
    print(f"    gradients vs the float64 step: compiled {err('compiled'):.3g}, eager on the chip "
          f"{err('eager'):.3g}, CPU float32 {err('cpu'):.3g}")


def main():
    a = parse()
    warnings.simplefilter("ignore")
    opforge.init(arch=a.arch, timing=a.timing)
    shape = dict(batch=a.batch, image=a.image, seq=a.seq, vocab=a.vocab, d=a.d, heads=a.heads,
                 layers=a.layers)
    print(f"bench_torch_compile: {a.arch}, timing {a.timing}; batch {a.batch}, images "
          f"{a.image}x{a.image}, decoder d {a.d} heads {a.heads} layers {a.layers} seq {a.seq} "
          f"vocab {a.vocab}")
    print(f"{'model':<30} {'eager s':>8} {'comp1 s':>8} {'comp2 s':>8} {'eager cycles':>13} "
          f"{'comp cycles':>13} {'speedup':>7} {'max err':>9}")
    totals = []
    for name in a.models.split(","):
        for dtname in a.dtypes.split(","):
            try:
                one(a, shape, name, dtname, totals)
            except Exception as e:  # noqa: BLE001 - a model that does not run is a row
                print(f"{name + ' ' + dtname:<30} failed: {type(e).__name__}: "
                      f"{str(e).splitlines()[0][:300]}")
    if totals:
        nodes = {k: sum(t["nodes"][k] for t in totals) for k in ("triton", "library", "cpu")}
        cycles = {k: sum(t["cycles"][k] for t in totals) for k in ("triton", "library", "cpu")}
        non_gemm = sum(t["non_gemm_cycles"] for t in totals)
        all_nodes = max(1, sum(nodes.values()))
        print(f"all rows: Triton kernels hold {nodes['triton'] / all_nodes:.1%} of ATen nodes "
              f"(Triton for MTIA: {inductor.PAPER_LAYER_SHARE:.0%} of layers) and "
              f"{cycles['triton'] / max(1, non_gemm):.1%} of non-GEMM time (Triton for MTIA: "
              f"{inductor.PAPER_NON_GEMM_TIME_SHARE:.0%}); CPU fallback {nodes['cpu']} nodes")


if __name__ == "__main__":
    main()
