"""One sweep point of a scenario workload of kind "model" (docs/scenarios.md):

    python -m opforge.point --model resnet18 --dtype float32 [--train] --shape '{"image": 32}'
        --arch ARCH.json --timing lt --out PROFILE.h5 [--library DIR]

Runs the model's forward pass (and with --train one SGD step) on the opforge device with
the point's architecture, the same pass on the CPU, and writes the profile of the device
pass as a results file (PROFILE.h5) for the sweep runner; prints one JSON line: whether
the output matched the CPU (torch.testing.assert_close at the dtype's tolerances), the max
error, and the ATen calls on the chip and on the CPU. Exit status 0 when it ran (matched or
not), 2 on bad arguments."""
import argparse
import contextlib
import copy
import json
import sys
import warnings

import torch

import opforge
from opforge import models


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m opforge.point")
    p.add_argument("--model", required=True, choices=models.MODELS)
    p.add_argument("--dtype", default="float32", choices=("float32", "bfloat16", "float16"))
    p.add_argument("--train", action="store_true")
    p.add_argument("--shape", default="{}")
    p.add_argument("--arch", required=True)
    p.add_argument("--timing", default="lt")
    p.add_argument("--library", default=None)
    p.add_argument("--out", required=True)
    a = p.parse_args(argv)
    warnings.simplefilter("ignore")
    dtype = getattr(torch, a.dtype)
    opforge.init(arch=a.arch, timing=a.timing, library=a.library)
    net, example = models.build(a.model, **json.loads(a.shape))
    net = net.to(dtype)
    example = tuple(e.to(dtype) if e.is_floating_point() else e for e in example)
    dev = copy.deepcopy(net).to("opforge")
    inputs = tuple(e.to("opforge") for e in example)
    if a.train:
        net.train()
        dev.train()
        results = []
        prof = opforge.profile()
        for model, x, scope in ((net, example, contextlib.nullcontext()), (dev, inputs, prof)):
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            with scope:
                loss = models.loss(a.model, model, x)
                loss.backward()
                opt.step()
            results.append([loss.detach().cpu()] + [q.detach().cpu() for q in model.parameters()])
        ref, got = results
    else:
        with torch.no_grad():
            ref = [net(*example)]
            with opforge.profile() as prof:
                got = [dev(*inputs).cpu()]
    error, match = 0.0, True
    for g, r in zip(got, ref):
        error = max(error, (g.float() - r.float()).abs().max().item() if g.numel() else 0.0)
        try:
            torch.testing.assert_close(g, r)
        except AssertionError:
            match = False
    prof.save(a.out)
    print(json.dumps({"match": match, "max_error": error, "chip_calls": prof.chip_calls,
                      "fallbacks": prof.fallbacks, "cycles": prof.cycles}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
