"""fp8_torch_diff.py - fp8 conversions of opforge's kernels against torch, bit for bit.

Runs tests/compiler/kernels/fp8_convert.py's wrappers through `opforge run-calls` on the IR
interpreter and on the chip and compares with torch's float8_e5m2 / float8_e4m3fn conversions
(c10's round-to-nearest-even with its overflow rules): every one of the 256 bit patterns
decoded (to float32, and to float16), and float32 values encoded: every fp8 value, the
midpoints between neighbours and one float32 ulp either side of them, the overflow and
subnormal boundaries, zeros, infinities and NaN, and random values over the whole range.
Real Triton's interpreter is not the reference here: its fp8 conversion (_convert_float)
rounds half away from zero on the truncated bits and maps out-of-range values differently from
torch and from compiled Triton. Exit status 0 when everything agrees, 1 otherwise.
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

import torch

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
KERNELS = HERE / "kernels" / "fp8_convert.py"
FORMATS = {"e5m2": torch.float8_e5m2, "e4m3": torch.float8_e4m3fn}
NAMES = {torch.uint8: "uint8", torch.float32: "float32", torch.float16: "float16"}


def tensor_arg(t, tensors):
    t = t.contiguous()
    tensors.append({"dtype": NAMES[t.dtype], "sizes": list(t.shape), "strides": list(t.stride()),
                    "offset": 0, "hex": t.numpy().tobytes().hex()})
    return {"t": len(tensors) - 1}


def read_tensor(v, tensors):
    t = tensors[v["t"]]
    dtype = {n: d for d, n in NAMES.items()}[t["dtype"]]
    return torch.frombuffer(bytearray.fromhex(t["hex"]), dtype=dtype).reshape(t["sizes"]).clone()


def encode_inputs(fmt):
    td = FORMATS[fmt]
    vals = torch.arange(256, dtype=torch.int32).to(torch.uint8).view(td).float()
    fin = torch.unique(vals[torch.isfinite(vals)])
    mids = (fin[:-1].double() + fin[1:].double()) / 2
    mids = mids.float()
    up = torch.nextafter(mids, torch.full_like(mids, float("inf")))
    down = torch.nextafter(mids, torch.full_like(mids, -float("inf")))
    g = torch.Generator().manual_seed(7)
    rnd = torch.randn(4000, generator=g) * torch.exp2(
        torch.randint(-30, 20, (4000, ), generator=g).float())
    special = torch.tensor([0.0, -0.0, float("inf"), -float("inf"), float("nan"), 57344.0,
                            61439.0, 61440.0, 65535.0, 65536.0, 1e30, 448.0, 464.0, 465.0, 479.9,
                            480.0, 2.0**-14, 2.0**-15, 2.0**-16, 2.0**-17, 3 * 2.0**-18, 2.0**-6,
                            2.0**-9, 2.0**-10, 1.5 * 2.0**-10, 1e-45, -1e-45])
    x = torch.cat([fin, -fin, mids, -mids, up, down, -up, -down, rnd, special])
    return x.float()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opforge", default=str(ROOT / "build/harness/opforge"))
    ap.add_argument("--executors", default="interp,chip")
    ap.add_argument("--chip-arch", default="tiny")
    args = ap.parse_args()
    calls, checks = [], []
    bits = torch.arange(256, dtype=torch.int32).to(torch.uint8)
    for fmt, td in FORMATS.items():
        ts = []
        calls.append({"file": str(KERNELS), "wrapper": "fp8_decode",
                      "args": [tensor_arg(bits, ts), {"str": fmt}], "kwargs": {}, "tensors": ts})
        ref = bits.view(td).float()
        checks.append((f"decode {fmt}", [ref, ref.half()]))
        x = encode_inputs(fmt)
        ts = []
        calls.append({"file": str(KERNELS), "wrapper": "fp8_encode",
                      "args": [tensor_arg(x, ts), {"str": fmt}], "kwargs": {}, "tensors": ts})
        q = x.to(td)
        checks.append((f"encode {fmt} ({x.numel()} values)", [q.view(torch.uint8), q.float()]))
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "calls.jsonl"
        path.write_text("".join(json.dumps(c) + "\n" for c in calls))
        for ex in args.executors.split(","):
            out = pathlib.Path(tmp) / f"out-{ex}.jsonl"
            cmd = [args.opforge, "run-calls", str(path), "--out", str(out), "--executor", ex]
            if ex == "chip":
                cmd += ["--arch", args.chip_arch]
            subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL)
            lines = out.read_text().splitlines() if out.exists() else []
            for i, (label, want) in enumerate(checks):
                r = json.loads(lines[i]) if i < len(lines) else {"error": "no result"}
                if "error" in r:
                    print(f"FAIL {ex:6} {label}: {r['error']}")
                    failed += 1
                    continue
                got = [read_tensor(o, r["tensors"]) for o in r["out"]]
                bad = 0
                for g, w in zip(got, want):
                    if g.dtype.is_floating_point:
                        same = (g.view(torch.int32 if g.dtype == torch.float32 else torch.int16)
                                == w.view(torch.int32 if w.dtype == torch.float32 else torch.int16))
                        same |= torch.isnan(g) & torch.isnan(w)
                    else:
                        same = g == w
                    bad += int((~same).sum())
                print(f"{'PASS' if bad == 0 else 'FAIL'} {ex:6} {label}: {bad} differing elements")
                failed += bad != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
