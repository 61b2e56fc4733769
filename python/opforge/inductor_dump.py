"""Writes TorchInductor's output modules for the models of opforge.models, compiled for
the opforge device, as files `opforge inductor-run` runs:

    python -m opforge.inductor_dump --out DIR [--models gpt2,dlrm] [--dtypes float32,bfloat16]
        [--train] [--capture-only] [--image N --seq N --vocab N --d N --heads N --layers N]

Each compiled graph becomes DIR/<model>_<dtype>[_train]_<k>.py (k: the graph's order).
Without --capture-only the graphs run on the chip (a training step needs its forward
results before Inductor compiles the backward); with it nothing runs and only the
forward graphs are written. Prints one line per file.
"""
import argparse
import pathlib
import sys

import torch

import opforge
from opforge import inductor, models

SMALL = dict(batch=2, image=32, seq=16, vocab=128, d=64, heads=4, layers=1)


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--models", default=",".join(models.MODELS))
    p.add_argument("--dtypes", default="float32")
    p.add_argument("--train", action="store_true")
    p.add_argument("--capture-only", action="store_true")
    p.add_argument("--arch", default="tiny")
    for k, v in SMALL.items():
        p.add_argument("--" + k, type=int, default=v)
    return p.parse_args(argv)


def shape_of(args, name):
    keys = {"resnet18": ("batch", "image"), "mobilenet_v3_small": ("batch", "image"),
            "gpt2": ("batch", "seq", "vocab", "d", "heads", "layers"), "dlrm": ("batch",)}
    return {k: getattr(args, k) for k in keys[name]}


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    opforge.init(arch=args.arch, timing="functional")
    inductor.register()
    context = inductor.capture_only if args.capture_only else __import__("contextlib").nullcontext
    for name in args.models.split(","):
        for dtype_name in args.dtypes.split(","):
            dtype = getattr(torch, dtype_name)
            for train in ((False, True) if args.train else (False,)):
                net, example = models.build(name, **shape_of(args, name))
                net = net.to(dtype).to("opforge")
                example = tuple(e.to(dtype).to("opforge") if e.is_floating_point() else
                                e.to("opforge") for e in example)
                first = len(inductor.captured_modules())
                torch._dynamo.reset()
                tag = f"{name}_{dtype_name}{'_train' if train else ''}"
                with context():
                    try:
                        if train:
                            net.train()
                            fn = torch.compile(lambda *a: models.loss(name, net, a),
                                               backend="opforge")
                            fn(*example).backward()
                        else:
                            with torch.no_grad():
                                torch.compile(net, backend="opforge")(*example)
                    except inductor.CaptureOnly:
                        pass
                for k, (source, _) in enumerate(inductor.captured_modules()[first:]):
                    path = out / f"{tag}_{k}.py"
                    path.write_text(source)
                    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
