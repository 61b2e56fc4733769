#!/usr/bin/env python3
"""bench_tutorials.py - the Triton tutorials 01-06 on the chip: compiled, checked, cycles, roofline.

One row per tutorial kernel (per wrapper call: a row whose call launches several kernels names
them all and sums their cycles) of tests/compiler/tutorials/NN_*.py, at the tutorials' own
shapes (or the largest that simulates in a few minutes; the shape column says which, a note
says why), on the chip model (`opforge run`, default preset mtia-2i):

  compiled   every kernel of the call compiled (a trap or a wrong result still counts as yes)
  checked    the outputs agree with ATen (`opforge run --check OVERLOAD`) or, where no ATen
             overload has the semantics (seeded dropout), with real Triton's interpreter on
             the same inputs (`opforge run-calls`, bit-exact)
  cycles     simulated cycles of the call's launches
  roofline   the largest lower bound: DRAM bytes the launches moved / DRAM bytes per cycle,
             the bytes the kernels must read and write / SRAM bytes per cycle, FLOPs / the DPE
             peak of the inputs' dtype (whole chip); % = roofline / cycles

--tutorials DIR runs a user's upstream checkout instead (DIR/python/tutorials or DIR holding
01-vector-add.py ... 06-fused-attention.py): the upstream kernels unchanged (every
@triton.jit function a launch reaches, with its decorators and the module-level names they
use; GPU target queries such as is_cuda() answered for this target), launched by our
wrappers of the same names and signatures (the tutorials' host code is GPU-specific: driver
queries, autograd.Function). Files or kernels that cannot be mapped are listed as such.
Usage: bench_tutorials.py [--opforge PATH] [--arch PRESET] [--only GLOB] [--small]
                          [--tutorials DIR]
"""
import argparse
import ast
import fnmatch
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("TRITON_INTERPRET", "1")  # real Triton only as the CPU reference

ROOT = pathlib.Path(__file__).resolve().parents[2]
TUTORIALS = ROOT / "tests/compiler/tutorials"
F16 = "dtype=torch.float16"


def qkv(z, h, n, d):
    return f"randn({z}, {h}, {n}, {d}, {F16})"


class Row:
    """One bench row: the kernels one wrapper call launches, its full-shape and small-shape
    calls, the reference (an ATen overload, or "triton:" for real Triton's interpreter), the
    bytes the kernels must move and the FLOPs at the full shape (dtype of the DPE peak)."""

    def __init__(self, tut, file, kernels, call, shape, small, small_shape, check, nbytes,
                 flops=0.0, flop_dtype=None):
        self.tut, self.file, self.kernels, self.check = tut, file, kernels, check
        self.call, self.shape, self.small, self.small_shape = call, shape, small, small_shape
        self.nbytes, self.flops, self.flop_dtype = nbytes, flops, flop_dtype


def rows():
    n01, s01 = 98432, 4096
    m02, n02 = 1823, 781
    n03, s03 = 512, 128
    m05, n05, sm05, sn05 = 1151, 8192, 64, 1024
    z, h, n06, d, sn06 = 1, 2, 1024, 64, 128
    attn_flops = 4.0 * z * h * n06 * n06 * d * 0.5  # two matmuls, causal half

    def ln_fwd(m, n):
        return (f"native_layer_norm_default(randn({m}, {n}, {F16}), [{n}], rand({n}, {F16}), "
                f"rand({n}, {F16}), 1e-5)")

    def ln_bwd(m, n):
        return (f"native_layer_norm_backward_default(randn({m}, {n}, {F16}), "
                f"randn({m}, {n}, {F16}), [{n}], randn({m}, 1, {F16}), rand({m}, 1, {F16}), "
                f"rand({n}, {F16}), rand({n}, {F16}), [True, True, True])")

    def sdpa(n):
        return (f"scaled_dot_product_attention_default({qkv(z, h, n, d)}, {qkv(z, h, n, d)}, "
                f"{qkv(z, h, n, d)}, is_causal=True, scale=0.125)")

    def sdpa_bwd(n):
        t = qkv(z, h, n, d)
        return (f"_scaled_dot_product_flash_attention_for_cpu_backward_default({t}, {t}, {t}, "
                f"{t}, {t}, full(({z}, {h}, {n}), 6.0), 0.0, True, scale=0.125)")

    return [
        Row("01", "01_vector_add.py", "add_kernel", f"add_Tensor(rand({n01}), rand({n01}))",
            f"f32[{n01}] (tutorial's)", f"add_Tensor(rand({s01}), rand({s01}))", f"f32[{s01}]",
            "aten::add.Tensor", 3 * n01 * 4),
        Row("02", "02_fused_softmax.py", "softmax_kernel",
            f"_softmax_default(randn({m02}, {n02}), 1, False)", f"f32[{m02}, {n02}] (tutorial's)",
            f"_softmax_default(randn(64, {n02}), 1, False)", f"f32[64, {n02}]", "aten::_softmax",
            2 * m02 * n02 * 4),
        Row("03", "03_matmul.py", "matmul_kernel",
            f"mm_default(randn({n03}, {n03}, {F16}), randn({n03}, {n03}, {F16}))",
            f"f16 {n03}x{n03}x{n03} (tutorial's)",
            f"mm_default(randn({s03}, {s03}, {F16}), randn({s03}, {s03}, {F16}))",
            f"f16 {s03}x{s03}x{s03}", "aten::mm", 3 * n03 * n03 * 2, 2.0 * n03 ** 3, "fp16"),
        Row("04", "04_dropout.py", "_dropout",
            f"dropout(randn({n01}), randint(0, 2, ({n01},), dtype=torch.int32), 0.5)",
            f"f32[{n01}] (tutorial's: 10)",
            f"dropout(randn({s01}), randint(0, 2, ({s01},), dtype=torch.int32), 0.5)",
            f"f32[{s01}]", "triton:", 3 * n01 * 4),
        Row("04", "04_dropout.py", "_seeded_dropout", f"seeded_dropout(randn({n01}), 0.5, 123)",
            f"f32[{n01}] (tutorial's: 10)", f"seeded_dropout(randn({s01}), 0.5, 123)",
            f"f32[{s01}]", "triton:", 2 * n01 * 4),
        Row("05", "05_layer_norm.py", "_layer_norm_fwd_fused", ln_fwd(m05, n05),
            f"f16[{m05}, {n05}] (tutorial's)", ln_fwd(sm05, sn05), f"f16[{sm05}, {sn05}]",
            "aten::native_layer_norm", 2 * m05 * n05 * 2),
        Row("05", "05_layer_norm.py", "_layer_norm_bwd_dx_fused + _layer_norm_bwd_dwdb",
            ln_bwd(m05, n05), f"f16[{m05}, {n05}] (tutorial's)", ln_bwd(sm05, sn05),
            f"f16[{sm05}, {sn05}]", "aten::native_layer_norm_backward", 3 * m05 * n05 * 2),
        Row("06", "06_fused_attention.py", "_attn_fwd", sdpa(n06),
            f"f16[{z}, {h}, {n06}, {d}] causal (tutorial's)", sdpa(sn06),
            f"f16[{z}, {h}, {sn06}, {d}] causal", "aten::scaled_dot_product_attention",
            4 * z * h * n06 * d * 2, attn_flops, "fp16"),
        Row("06", "06_fused_attention.py", "_scale + _attn_bwd_preprocess + _attn_bwd",
            sdpa_bwd(n06), f"f16[{z}, {h}, {n06}, {d}] causal (tutorial's)", sdpa_bwd(sn06),
            f"f16[{z}, {h}, {sn06}, {d}] causal",
            "aten::_scaled_dot_product_flash_attention_for_cpu_backward",
            8 * z * h * n06 * d * 2, 2.5 * attn_flops, "fp16"),
    ]


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opforge", default=str(ROOT / "build/harness/opforge"))
    ap.add_argument("--arch", default="mtia-2i")
    ap.add_argument("--only", default="", help="fnmatch pattern on 'NN kernel'")
    ap.add_argument("--small", action="store_true", help="small shapes (a quick look)")
    ap.add_argument("--tutorials", default="", help="an upstream triton checkout to run")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per row")
    ap.add_argument("--json", default="", help="also write the rows as JSON to this file")
    return ap.parse_args()


ARGS = None


# --- the preset's peaks ---------------------------------------------------------------------

def quantity(v):
    """A config quantity (number or '204.8GB/s', '2.7TB/s') as a number in its base unit."""
    if isinstance(v, (int, float)):
        return float(v)
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([KMGT]?)(B/s|B)?\s*", str(v))
    if not m:
        raise ValueError(f"cannot read quantity {v!r}")
    scale = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[m.group(2)]
    return float(m.group(1)) * scale / (1e9 if m.group(3) == "B/s" else 1)


def peaks(arch):
    out = subprocess.run([ARGS.opforge, "config", "show", "--arch", arch], capture_output=True,
                         text=True, check=True).stdout
    c = json.loads(out)
    clock = quantity(c["clock_ghz"])
    pes = c["pe_grid"]["rows"] * c["pe_grid"]["cols"]
    return {
        "dram_bpc": quantity(c["dram"]["bandwidth_gbps"]) / clock,
        "sram_bpc": quantity(c["sram"]["bandwidth_gbps"]) / clock,
        "flops_pc": {k: 2.0 * quantity(v) * pes for k, v in c["pe"]["dpe"]["macs_per_cycle"].items()},
        "pes": pes,
    }


# --- one row through `opforge run` -----------------------------------------------------------

def run_row(path, call, check):
    cmd = [ARGS.opforge, "run", str(path), "--call", call, "--arch", ARGS.arch,
           "--counters", "100000"]
    if check.startswith("aten::"):
        cmd += ["--check", check]
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=ARGS.timeout)
        out, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired:
        return dict(compiled="?", checked="no", cycles=None, dram_bytes=0,
                    why=f"timed out after {ARGS.timeout:g} s", seconds=ARGS.timeout)
    except OSError as e:
        sys.exit(f"bench_tutorials: cannot run {ARGS.opforge}: {e}")
    r = dict(seconds=time.time() - t0, dram_bytes=0, cycles=None, why="")
    m = re.search(r"^cycles (\d+)$", out, re.M)
    if m:
        r["cycles"] = int(m.group(1))
        r["dram_bytes"] = sum(int(v) for v in re.findall(
            r"^\s+dram\.ch\[\d+\]\.bytes_(?:read|written) (\d+)$", out, re.M))
    errors = [ln for ln in out.splitlines() if "error:" in ln]
    trapped = any("trap" in ln or "fault" in ln for ln in errors)
    r["compiled"] = "yes" if (m or trapped) else "no"
    if check.startswith("aten::"):
        r["checked"] = "yes" if (rc == 0 and f"check {check}: ok" in out) else "no"
    else:
        r["checked"] = "-"
    if errors:
        r["why"] = errors[0].split("error:", 1)[1].strip()[:160]
    elif r["checked"] == "no":
        r["why"] = next((ln.strip() for ln in out.splitlines() if ln.startswith("check ")),
                        f"exit status {rc}")[:160]
    return r


# --- real Triton as the reference (rows without an ATen overload) -----------------------------

def encode(v, tensors):
    import torch
    if isinstance(v, torch.Tensor):
        t = v.contiguous()
        tensors.append({"dtype": str(t.dtype).replace("torch.", ""), "sizes": list(t.shape),
                        "strides": list(t.stride()), "offset": 0,
                        "hex": t.view(torch.uint8).numpy().tobytes().hex()
                        if t.dtype != torch.bool else t.numpy().tobytes().hex()})
        return {"t": len(tensors) - 1}
    if isinstance(v, float):
        return {"float": v}
    if isinstance(v, (list, tuple)):
        return [encode(x, tensors) for x in v]
    return v


def decode(v, tensors):
    import torch
    if isinstance(v, dict) and "t" in v:
        t = tensors[v["t"]]
        dtype = getattr(torch, t["dtype"])
        data = bytearray.fromhex(t["hex"])
        flat = torch.frombuffer(data, dtype=dtype) if data else torch.empty(0, dtype=dtype)
        return torch.as_strided(flat, t["sizes"], t["strides"], t["offset"])
    if isinstance(v, list):
        return [decode(x, tensors) for x in v]
    return v


def torch_inputs(call):
    """The call's arguments as CPU tensors from a seeded generator (the same expression
    syntax as `opforge run --call`, but torch's generator, so both sides get these values)."""
    import torch
    g = torch.Generator().manual_seed(0)
    env = {
        "torch": torch,
        "randn": lambda *s, dtype=torch.float32: torch.randn(*s, generator=g).to(dtype),
        "rand": lambda *s, dtype=torch.float32: torch.rand(*s, generator=g).to(dtype),
        "randint": lambda lo, hi, s, dtype=torch.int64: torch.randint(lo, hi, s, generator=g)
        .to(dtype),
    }
    tree = ast.parse(call, mode="eval").body
    args = [eval(compile(ast.Expression(a), "<call>", "eval"), env) for a in tree.args]
    return tree.func.id, args


def check_with_triton(path, call):
    import importlib.util
    import warnings
    import torch
    warnings.simplefilter("ignore")  # real Triton's deprecation notes
    wrapper, args = torch_inputs(call)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        tensors = []
        line = {"file": str(path), "wrapper": wrapper, "args": [encode(a, tensors) for a in args],
                "kwargs": {}, "tensors": tensors}
        (tmp / "calls.jsonl").write_text(json.dumps(line) + "\n")
        p = subprocess.run([ARGS.opforge, "run-calls", str(tmp / "calls.jsonl"), "--out",
                            str(tmp / "out.jsonl"), "--executor", "chip", "--arch", ARGS.arch],
                           capture_output=True, text=True, timeout=ARGS.timeout)
        if not (tmp / "out.jsonl").exists():
            return False, f"opforge run-calls failed: {p.stderr.strip()[-160:]}"
        r = json.loads((tmp / "out.jsonl").read_text().splitlines()[0])
        if "error" in r:
            return False, r["error"][:160]
        got = decode(r["out"], r["tensors"])
    spec = importlib.util.spec_from_file_location("bench_ref_" + path.stem.replace("-", "_"),
                                                  path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    want = getattr(mod, wrapper)(*args)
    if torch.equal(want.view(torch.int32) if want.dtype == torch.float32 else want,
                   got.view(torch.int32) if got.dtype == torch.float32 else got):
        return True, ""
    bad = int((want != got).sum())
    return False, f"{bad} of {want.numel()} elements differ from real Triton's interpreter"


# --- an upstream checkout's tutorials, mapped onto our wrappers -----------------------------

UPSTREAM = {
    "01_vector_add.py": "01-vector-add.py",
    "02_fused_softmax.py": "02-fused-softmax.py",
    "03_matmul.py": "03-matrix-multiplication.py",
    "04_dropout.py": "04-low-memory-dropout.py",
    "05_layer_norm.py": "05-layer-norm.py",
    "06_fused_attention.py": "06-fused-attention.py",
}

# GPU target queries of the tutorials' module level, answered for this target: the CUDA
# configuration lists, no HIP/TMA/Blackwell paths.
TARGET_QUERIES = {"is_cuda": True, "is_hip": False, "is_cdna": False, "is_hip_cdna2": False,
                  "is_hip_cdna3": False, "is_hip_cdna4": False, "supports_tma": False,
                  "supports_host_descriptor": False, "is_blackwell": False,
                  "is_hopper": False, "is_hip_mi200": False, "is_hip_mi350": False}


def is_jit(node):
    def name(d):
        d = d.func if isinstance(d, ast.Call) else d
        return ast.unparse(d)
    return isinstance(node, ast.FunctionDef) and any(
        name(d) in ("triton.jit", "jit") for d in node.decorator_list)


def names_in(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def map_upstream(ours, upstream):
    """Our file's wrappers over the upstream file's kernels: the text of a kernel file, or
    raises ValueError naming what cannot be mapped."""
    mine = ast.parse(ours.read_text())
    theirs_text = upstream.read_text()
    theirs = ast.parse(theirs_text)
    top = {}  # name -> node of the upstream module level
    for node in theirs.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top[node.name] = node
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        top[n.id] = node
    kernels_mine = {n.name for n in mine.body if is_jit(n)}
    wrappers = [n for n in mine.body if isinstance(n, ast.FunctionDef) and not is_jit(n)]
    launched = set()
    for w in wrappers:
        launched |= names_in(w) & kernels_mine
    missing = sorted(k for k in launched if k not in top and k != "_scale")
    if missing:
        raise ValueError(f"{upstream.name} has no kernel {', '.join(missing)}")
    # the upstream kernels the launches reach, their decorators' names, transitively
    needed, todo = [], sorted(k for k in launched if k in top)
    seen = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in top:
            continue
        seen.add(name)
        node = top[name]
        needed.append(node)
        todo += sorted(names_in(node) - seen)
    order = {id(n): i for i, n in enumerate(theirs.body)}
    parts = ["import math\n\nimport torch\nimport triton\nimport triton.language as tl\n"]
    for name, answer in TARGET_QUERIES.items():
        if name in seen:
            parts.append(f"def {name}():\n    return {answer}\n")
    for node in sorted({id(n): n for n in needed}.values(), key=lambda n: order[id(n)]):
        if isinstance(node, ast.FunctionDef) and node.name in TARGET_QUERIES:
            continue
        first = node.decorator_list[0].lineno if getattr(node, "decorator_list", None) \
            else node.lineno
        parts.append("\n".join(theirs_text.splitlines()[first - 1:node.end_lineno]))
    ours_text = ours.read_text()
    for node in mine.body:  # our host side: wrappers, constants, our own helper kernels
        # ours unless the upstream definition of the name was taken (their kernels and
        # what those use win; their GPU host functions are replaced by ours)
        keep = (isinstance(node, ast.FunctionDef) and node.name not in seen) or (
            isinstance(node, ast.Assign) and not any(
                isinstance(t, ast.Name) and t.id in seen for t in node.targets))
        if keep:
            seg = ast.get_source_segment(ours_text, node)
            if isinstance(node, ast.FunctionDef) and node.decorator_list:
                seg = "\n".join(ours_text.splitlines()[node.decorator_list[0].lineno - 1:
                                                       node.end_lineno])
            parts.append(seg)
    return "\n\n\n".join(parts) + "\n"


def upstream_dir(d):
    d = pathlib.Path(d)
    for cand in (d / "python/tutorials", d):
        if (cand / "01-vector-add.py").exists():
            return cand
    sys.exit(f"bench_tutorials: no 01-vector-add.py under {d} or {d}/python/tutorials")


# --- main --------------------------------------------------------------------------------------

def main():
    global ARGS
    ARGS = parse_args()
    pk = peaks(ARGS.arch)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="bench-tutorials-"))
    source = {}
    if ARGS.tutorials:
        up = upstream_dir(ARGS.tutorials)
        print(f"upstream tutorials: {up} (kernels unchanged, our wrappers)")
        for ours, theirs in UPSTREAM.items():
            try:
                text = map_upstream(TUTORIALS / ours, up / theirs)
                (tmp / ours).write_text(text)
                source[ours] = (tmp / ours, "")
            except (ValueError, OSError, SyntaxError) as e:
                source[ours] = (None, f"not mapped: {e}")
    print(f"Triton tutorials on {ARGS.arch} ({pk['pes']} PEs; roofline: DRAM "
          f"{pk['dram_bpc']:.1f} B/cycle, SRAM {pk['sram_bpc']:.0f} B/cycle, DPE fp16 "
          f"{pk['flops_pc'].get('fp16', 0):.0f} FLOP/cycle)")
    head = (f"{'tut':3} {'kernel':48} {'shape':40} {'compiled':8} {'checked':7} "
            f"{'cycles':>11} {'roofline':>10} {'bound':5} {'%roof':>6}")
    print(head)
    print("-" * len(head))
    results = []
    for row in rows():
        tut, kernel, check = row.tut, row.kernels, row.check
        if ARGS.only and not fnmatch.fnmatch(f"{tut} {kernel}", ARGS.only):
            continue
        path, why_not = source.get(row.file, (TUTORIALS / row.file, ""))
        call, shape, nbytes, flops = row.call, row.shape, row.nbytes, row.flops
        if ARGS.small:
            call, shape = row.small, row.small_shape
            nbytes = None  # the roofline is for the full shapes
        if path is None:
            r = dict(compiled="no", checked="no", cycles=None, dram_bytes=0, why=why_not)
        else:
            r = run_row(path, call, check)
            if check.startswith("triton:") and r["compiled"] == "yes" and r["cycles"]:
                ok, why = check_with_triton(path, call)
                r["checked"] = "yes" if ok else "no"
                r["why"] = r["why"] or why
            elif check.startswith("triton:"):
                r["checked"] = "no"
        roof, bound = 0.0, "-"
        if r["cycles"] and nbytes is not None:
            bounds = {"dram": r["dram_bytes"] / pk["dram_bpc"], "sram": nbytes / pk["sram_bpc"],
                      "dpe": flops / pk["flops_pc"][row.flop_dtype] if flops else 0.0}
            bound = max(bounds, key=bounds.get)
            roof = bounds[bound]
        pct = f"{100.0 * roof / r['cycles']:.1f}" if r["cycles"] and roof else "-"
        cyc = f"{r['cycles']:,}" if r["cycles"] else "-"
        print(f"{tut:3} {kernel:48} {shape:40} {r['compiled']:8} {r['checked']:7} {cyc:>11} "
              f"{(f'{roof:,.0f}' if roof else '-'):>10} {bound:5} {pct:>6}", flush=True)
        if r["why"]:
            print(f"    {r['why']}")
        results.append(dict(tutorial=tut, kernel=kernel, shape=shape, call=call, check=check,
                            roofline_cycles=roof, bound=bound, **r))
    n_ok = sum(1 for r in results if r["compiled"] == "yes" and r["checked"] == "yes")
    print(f"{n_ok} of {len(results)} rows compiled and checked")
    if ARGS.json:
        pathlib.Path(ARGS.json).write_text(json.dumps(results, indent=1))
    import shutil
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
