#!/usr/bin/env python3
"""triton_interp_diff.py - opforge against real Triton on the same kernel files and inputs.

Real Triton (the pinned triton in the project venv, its interpreter: TRITON_INTERPRET=1, CPU
torch tensors) is the semantic reference for the Triton language. This driver runs kernel
files' host wrappers on a few inputs through real Triton and through opforge
(`opforge run-calls`: the IR interpreter and the chip model) and requires agreement:
bit-exact for integer, bool and copy kernels, torch.testing.assert_close's default
tolerances per dtype for float results. Sources (--source):

  kernels    tests/compiler/kernels/*.py, inputs from the case table triton_interp_cases.py
  tutorials  tests/compiler/tutorials/NN_*.py (the Triton tutorials 01-06 as test kernel files),
             inputs from tests/compiler/tutorials/tutorial_cases.py
  library    generator/library/aten/*.py, the first recorded corpus calls per dtype
  inductor   every rendered row of the inductor lowering table (`opforge inductor render
             --out`), the first recorded corpus calls per dtype (--family narrows it,
             --other-families takes every family but the listed ones)

Differences listed in triton_interp_known.json (file, dtype, executor and the reason; also in
docs/compiler/semantics.md "Deliberate differences from Triton") are reported, not failed.
Exit status 1 on any other disagreement, on a call that fails in one implementation only,
and on a kernel file that cannot run in real Triton.

--device cuda runs real Triton compiled on a CUDA GPU instead of its interpreter (the old
scripts/triton-crosscheck.py); the default is the interpreter on the CPU.
"""
import argparse
import fnmatch
import importlib.util
import json
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import time
import traceback

ROOT = pathlib.Path(__file__).resolve().parents[2]
HERE = pathlib.Path(__file__).resolve().parent


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", required=True,
                    choices=["kernels", "tutorials", "library", "inductor"])
    ap.add_argument("--opforge", default=str(ROOT / "build/harness/opforge"))
    ap.add_argument("--corpus", default=str(ROOT / "corpus/opinfo.h5"))
    ap.add_argument("--executors", default="interp,chip", help="opforge executors (comma list)")
    ap.add_argument("--chip-arch", default="tiny")
    ap.add_argument("--chip-dtypes", default="",
                    help="library/inductor: dtypes also run on the chip (default: all)")
    ap.add_argument("--family", default="", help="inductor: comma-separated families")
    ap.add_argument("--other-families", default="",
                    help="inductor: every family of the lowering table except these (comma "
                         "list), so that a split into tests leaves no family out")
    ap.add_argument("--calls", type=int, default=1, help="corpus calls per overload and dtype")
    ap.add_argument("--max-elements", type=int, default=2048,
                    help="corpus calls with more tensor elements (all arguments) are skipped")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per real-Triton call")
    ap.add_argument("--only", default="", help="fnmatch pattern on file names or overloads")
    ap.add_argument("--known", default=str(HERE / "triton_interp_known.json"))
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every comparison")
    return ap.parse_args()


ARGS = parse_args()
if ARGS.device == "cpu":
    os.environ["TRITON_INTERPRET"] = "1"  # before triton is imported (by the kernel files)
import torch  # noqa: E402


if ARGS.device == "cpu":
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    import triton_interp_patches  # noqa: E402
    triton_interp_patches.apply()

DTYPES = {
    "bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16,
    "int32": torch.int32, "int64": torch.int64, "float16": torch.float16,
    "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
}
DTYPE_NAMES = {v: k for k, v in DTYPES.items()}
MEMORY_FORMATS = {"contiguous_format": torch.contiguous_format,
                  "channels_last": torch.channels_last,
                  "channels_last_3d": torch.channels_last_3d,
                  "preserve_format": torch.preserve_format}


class Skip(Exception):
    """A value this comparison cannot carry (complex tensors, ...)."""


# --- kernel files as Python modules ------------------------------------------------------

def load_module(path, extra_source=""):
    """A kernel file (plus optional appended source) imported as a module."""
    path = pathlib.Path(path)
    name = "opforge_kernel_" + "".join(c if c.isalnum() else "_" for c in str(path))
    spec = importlib.util.spec_from_loader(name, loader=None, origin=str(path))
    mod = importlib.util.module_from_spec(spec)
    mod.__file__ = str(path)
    sys.modules[name] = mod  # triton.jit looks its function's module up (globals, source)
    code = compile(path.read_text() + extra_source, str(path), "exec")
    exec(code, mod.__dict__)
    return mod


# --- the OpInfo corpus (docs/corpus.md) --------------------------------------------------

class Corpus:
    def __init__(self, path):
        import h5py
        self.f = h5py.File(path, "r")
        self.overloads = [s.decode() if isinstance(s, bytes) else s
                          for s in self.f["overloads/name"][:]]
        self.index = {n: i for i, n in enumerate(self.overloads)}
        codes = self.f.attrs["dtype_codes"]
        self.codes = (codes.decode() if isinstance(codes, bytes) else codes).split(",")
        self.groups = [g for g in self.f["calls"].keys()]
        self._by_overload = {}

    def call_indices(self, group, overload):
        """Indices of an overload's calls within a dtype group, in recording order."""
        import numpy as np
        if group not in self._by_overload:
            col = self.f[f"calls/{group}/overload"][:]
            order = np.argsort(col, kind="stable")
            bounds = np.searchsorted(col[order], np.arange(len(self.overloads) + 1))
            self._by_overload[group] = (order, bounds)
        order, bounds = self._by_overload[group]
        i = self.index.get(overload)
        return [] if i is None else order[bounds[i]:bounds[i + 1]].tolist()

    def record(self, group, i):
        g = self.f[f"calls/{group}"]
        o = g["json_offsets"]
        return json.loads(bytes(g["json"][int(o[i]):int(o[i + 1])]))

    def tensor(self, group, call, t):
        g = self.f[f"calls/{group}"]
        row = g["tensors"][int(g["tensor_base"][call]) + t]
        code, ndim, dims_at, offset, span_start, byte_at, nbytes = (int(x) for x in row)
        name = self.codes[code]
        if name not in DTYPES:
            raise Skip(f"{name} tensor")
        dims = g["dims"][dims_at:dims_at + 2 * ndim]
        sizes, strides = [int(x) for x in dims[:ndim]], [int(x) for x in dims[ndim:]]
        dtype = DTYPES[name]
        itemsize = torch.empty((), dtype=dtype).element_size()
        raw = bytes(g["data"][byte_at:byte_at + nbytes]) if nbytes else b""
        storage = torch.zeros(span_start + nbytes // itemsize, dtype=dtype)
        if nbytes:
            storage[span_start:] = torch.frombuffer(bytearray(raw), dtype=dtype)
        return torch.as_strided(storage, sizes, strides, offset)

    def value(self, group, call, v):
        if v is None or isinstance(v, (bool, int)):
            return v
        if isinstance(v, list):
            return [self.value(group, call, x) for x in v]
        (key, x), = v.items()
        if key == "t":
            return self.tensor(group, call, x)
        if key == "float":
            return float(x)
        if key == "str":
            return x
        if key == "dtype":
            if x not in DTYPES:
                raise Skip(f"dtype {x}")
            return DTYPES[x]
        if key == "layout":
            return torch.strided
        if key == "memory_format":
            return MEMORY_FORMATS[x]
        if key == "device":
            return torch.device("cpu")
        raise Skip(f"{key} value")


def tensor_elements(v):
    if isinstance(v, torch.Tensor):
        return v.numel()
    if isinstance(v, (list, tuple)):
        return sum(tensor_elements(x) for x in v)
    return 0


def corpus_cases(corpus, overload, path, wrapper):
    """The first --calls recorded calls per dtype group of an overload, small ones only."""
    cases = []
    for group in corpus.groups:
        taken = 0
        for i in corpus.call_indices(group, overload):
            if taken >= ARGS.calls:
                break
            rec = corpus.record(group, i)
            if rec.get("uninitialized"):
                continue
            try:
                args = [corpus.value(group, i, a) for a in rec["args"]]
                kwargs = {k: corpus.value(group, i, v) for k, v in rec.get("kwargs", {}).items()}
                corpus.value(group, i, rec["out"])  # complex outputs cannot be compared
            except Skip:
                continue
            n = tensor_elements(args) + tensor_elements(list(kwargs.values()))
            if n > ARGS.max_elements:
                continue
            cases.append(Case(path, wrapper, group, args, kwargs, f"{group}#{i}"))
            taken += 1
    return cases


# --- cases -------------------------------------------------------------------------------

class Case:
    def __init__(self, path, wrapper, dtype, args, kwargs, label, exact=False, extra=""):
        self.path, self.wrapper, self.dtype = str(path), wrapper, dtype
        self.args, self.kwargs, self.label = args, kwargs, label
        self.exact, self.extra = exact, extra
        self.file_key = pathlib.Path(path).name

    def name(self):
        return f"{self.file_key}:{self.wrapper}[{self.dtype} {self.label}]"


def library_cases(corpus):
    cases = []
    for path in sorted((ROOT / "generator/library/aten").glob("*.py")):
        overload = "aten::" + path.stem
        wrapper = wrapper_for(path, overload)
        if ARGS.only and not fnmatch.fnmatch(path.name, ARGS.only):
            continue
        got = corpus_cases(corpus, overload, path, wrapper)
        for c in got:
            c.exact = path.stem in EXACT_LIBRARY
        cases += got or [Case(path, wrapper, "-", None, None, "no corpus call")]
    return cases


EXACT_LIBRARY = {"cat", "index_select", "where.self"}
EXACT_FAMILIES = {"view", "shape", "creation"}


def wrapper_for(path, overload):
    name = overload.split("::")[-1].replace(".", "_")
    text = pathlib.Path(path).read_text()
    if f"def {name}(" not in text and "." not in overload.split("::")[-1]:
        name += "_default"
    return name


def table_families():
    """The lowering table's families: one generator/inductor/table/<family>.json each."""
    return sorted(p.stem for p in (ROOT / "generator/inductor/table").glob("*.json"))


def selected_families():
    """--family, or every family but --other-families' (None: all of them). A name the table
    does not have is an error, not an empty selection."""
    known = table_families()
    if ARGS.family and ARGS.other_families:
        sys.exit("--family and --other-families exclude each other")
    named = [f for f in (ARGS.family or ARGS.other_families).split(",") if f]
    unknown = [f for f in named if f not in known]
    if unknown:
        sys.exit(f"unknown inductor famil{'y' if len(unknown) == 1 else 'ies'} "
                 f"{','.join(unknown)} (generator/inductor/table has {','.join(known)})")
    if ARGS.other_families:
        return [f for f in known if f not in named]
    return named or None


def inductor_cases(corpus, tmp):
    out = tmp / "inductor"
    cmd = [ARGS.opforge, "inductor", "render", "--out", str(out), "--corpus", ARGS.corpus]
    families = selected_families()
    cmd += ["--all"] if families is None else []
    listing = []
    for fam in families or [None]:
        r = subprocess.run(cmd + (["--family", fam] if fam else []), capture_output=True,
                           text=True)
        if r.returncode != 0:
            sys.exit(f"opforge inductor render failed:\n{r.stderr}")
        listing += [line.split("\t") for line in r.stdout.splitlines() if line]
    cases = []
    for overload, family, path in listing:
        if ARGS.only and not (fnmatch.fnmatch(overload, ARGS.only)
                              or fnmatch.fnmatch(family, ARGS.only)):
            continue
        got = corpus_cases(corpus, overload, path, wrapper_for(path, overload))
        for c in got:
            c.exact = family in EXACT_FAMILIES
            c.file_key = f"{family}/{pathlib.Path(path).name}"
        cases += got or [Case(path, wrapper_for(path, overload), "-", None, None,
                              "no small corpus call")]
        cases[-1].file_key = f"{family}/{pathlib.Path(path).name}"
    return cases


def kernel_cases(folder="tests/compiler/kernels", table="tests/compiler/triton_interp_cases.py",
                 pattern="*.py"):
    """Cases of a folder of test kernel files from its case table (cases(torch)); a file of the
    folder without a case is a failure ("not in the case table")."""
    spec = importlib.util.spec_from_file_location(pathlib.Path(table).stem, ROOT / table)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cases = []
    for entry in module.cases(torch):
        path = ROOT / folder / entry["file"]
        if ARGS.only and not fnmatch.fnmatch(entry["file"], ARGS.only):
            continue
        cases.append(Case(path, entry["wrapper"], entry.get("dtype", "-"), entry["args"],
                          entry.get("kwargs", {}), entry.get("label", ""),
                          exact=entry.get("exact", False), extra=entry.get("extra", "")))
    covered = {c.file_key for c in cases}
    for path in sorted((ROOT / folder).glob(pattern)):
        if path.name not in covered and not ARGS.only:
            cases.append(Case(path, "-", "-", None, None,
                              f"not in {pathlib.Path(table).name}"))
    return cases


# --- values across the opforge boundary (`opforge run-calls` JSON lines) -----------------

def encode(v, tensors):
    if isinstance(v, torch.Tensor):
        t = v
        n = 0 if t.numel() == 0 else t.storage_offset() + sum(
            (s - 1) * st for s, st in zip(t.shape, t.stride())) + 1
        raw = bytes(t.untyped_storage())[: n * t.element_size()]
        tensors.append({"dtype": DTYPE_NAMES[t.dtype], "sizes": list(t.shape),
                        "strides": list(t.stride()), "offset": t.storage_offset() if n else 0,
                        "hex": raw.hex()})
        return {"t": len(tensors) - 1}
    if v is None or isinstance(v, (bool, int)):
        return v
    if isinstance(v, float):
        return {"float": v if v == v and abs(v) != float("inf") else
                ("nan" if v != v else ("inf" if v > 0 else "-inf"))}
    if isinstance(v, str):
        return {"str": v}
    if isinstance(v, torch.dtype):
        return {"dtype": DTYPE_NAMES[v]}
    if isinstance(v, (list, tuple, torch.Size)):
        return [encode(x, tensors) for x in v]
    if isinstance(v, torch.device):
        return {"device": "cpu"}
    if v is torch.strided:
        return {"layout": "strided"}
    for k, mf in MEMORY_FORMATS.items():
        if v is mf:
            return {"memory_format": k}
    raise Skip(f"cannot pass {type(v).__name__} to opforge")


def decode(v, tensors):
    if v is None or isinstance(v, (bool, int)):
        return v
    if isinstance(v, list):
        return [decode(x, tensors) for x in v]
    (key, x), = v.items()
    if key == "t":
        t = tensors[x]
        dtype = DTYPES[t["dtype"]]
        raw = bytearray.fromhex(t["hex"])
        flat = torch.frombuffer(raw, dtype=dtype) if raw else torch.empty(0, dtype=dtype)
        return flat.reshape(t["sizes"]).clone()
    if key == "float":
        return float(x)
    if key == "dtype":
        return DTYPES[x]
    if key == "layout":
        return torch.strided
    if key == "device":
        return torch.device("cpu")
    if key == "memory_format":
        return MEMORY_FORMATS[x]
    return x


def run_opforge(cases, tmp, executor):
    calls = tmp / f"calls-{executor}.jsonl"
    with open(calls, "w") as f:
        for c in cases:
            tensors = []
            line = {"file": c.run_path, "wrapper": c.wrapper,
                    "args": [encode(a, tensors) for a in c.args],
                    "kwargs": {k: encode(v, tensors) for k, v in c.kwargs.items()},
                    "tensors": tensors}
            f.write(json.dumps(line) + "\n")
    out = tmp / f"results-{executor}.jsonl"
    cmd = [ARGS.opforge, "run-calls", str(calls), "--out", str(out), "--executor", executor]
    if executor == "chip":
        cmd += ["--arch", ARGS.chip_arch]
    log = open(tmp / f"opforge-{executor}.log", "w")
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT), out


def read_results(proc, out, n, executor, tmp):
    proc.wait()
    results = []
    if out.exists():
        for line in out.read_text().splitlines():
            r = json.loads(line)
            if "error" in r:
                results.append(("error", r["error"]))
            else:
                ts = r["tensors"]
                results.append(("ok", (decode(r["out"], ts),
                                       [decode(a, ts) for a in r["args_after"]],
                                       {k: decode(v, ts) for k, v in r["kwargs_after"].items()})))
    if len(results) < n:
        tail = (tmp / f"opforge-{executor}.log").read_text().strip().splitlines()[-1:]
        why = (f"opforge run-calls ({executor}) exited with status {proc.returncode}"
               + (f": {tail[0]}" if tail else ""))
        results.append(("error", why))
        results += [("error", f"not run: {why}")] * (n - len(results))
    return results


# --- real Triton -------------------------------------------------------------------------

class Timeout(Exception):
    pass


def on_alarm(signum, frame):
    raise Timeout(f"real Triton took over {ARGS.timeout:g} s")


def to_device(v):
    if isinstance(v, torch.Tensor):
        t = copy_strided(v)
        return t if ARGS.device == "cpu" else t.to(ARGS.device)
    if isinstance(v, (list, tuple)):
        return type(v)(to_device(x) for x in v)
    return v


def copy_strided(t):
    """A copy of t with its own storage and the same sizes, strides and storage offset
    (the storage is copied, so expanded tensors with zero strides copy too)."""
    n = 0 if t.numel() == 0 else t.storage_offset() + sum(
        (s - 1) * st for s, st in zip(t.shape, t.stride())) + 1
    storage = torch.as_strided(t, (n,), (1,), 0).clone() if n else torch.empty(0, dtype=t.dtype)
    return torch.as_strided(storage, t.shape, t.stride(), t.storage_offset() if n else 0)


def to_cpu(v):
    if isinstance(v, torch.Tensor):
        return v.detach().cpu()
    if isinstance(v, (list, tuple)):
        return [to_cpu(x) for x in v]
    return v


MODULES = {}


def run_triton(c):
    key = (c.run_path, c.extra)
    if key not in MODULES:
        MODULES[key] = load_module(c.run_path, c.extra)
    fn = getattr(MODULES[key], c.wrapper)
    args = [to_device(a) for a in c.args]
    kwargs = {k: to_device(v) for k, v in c.kwargs.items()}
    signal.setitimer(signal.ITIMER_REAL, ARGS.timeout)
    try:
        out = fn(*args, **kwargs)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return to_cpu(out), to_cpu(args), {k: to_cpu(v) for k, v in kwargs.items()}


# --- comparison --------------------------------------------------------------------------

def compare(want, got, exact, where="out"):
    """'' when `got` (opforge) agrees with `want` (real Triton), else why not."""
    if isinstance(want, torch.Tensor):
        if not isinstance(got, torch.Tensor):
            return f"{where}: real Triton gave a tensor, opforge {type(got).__name__}"
        if want.dtype != got.dtype:
            return f"{where}: dtype {DTYPE_NAMES.get(want.dtype)} vs opforge {DTYPE_NAMES.get(got.dtype)}"
        if list(want.shape) != list(got.shape):
            return f"{where}: shape {list(want.shape)} vs opforge {list(got.shape)}"
        if want.is_floating_point() and not exact:
            try:
                torch.testing.assert_close(got, want, equal_nan=True)
                return ""
            except AssertionError as e:
                return f"{where}: " + " ".join(str(e).split())[:300]
        w, g = want.contiguous(), got.contiguous()
        if w.is_floating_point():
            both_nan = w.isnan() & g.isnan()
            w, g = w.masked_fill(both_nan, 0), g.masked_fill(both_nan, 0)
            bits = {2: torch.int16, 4: torch.int32, 8: torch.int64}[w.element_size()]
            w, g = w.view(bits), g.view(bits)
        if torch.equal(w, g):
            return ""
        bad = (w != g).nonzero()
        first = tuple(bad[0].tolist())
        return (f"{where}: {len(bad)} of {w.numel()} elements differ (bit-exact), first at "
                f"{first}: {want[first].item()!r} vs opforge {got[first].item()!r}")
    if isinstance(want, (list, tuple)):
        if not isinstance(got, (list, tuple)) or len(want) != len(got):
            return f"{where}: {len(want)} values vs opforge {got!r:.60}"
        for i, (w, g) in enumerate(zip(want, got)):
            why = compare(w, g, exact, f"{where}[{i}]")
            if why:
                return why
        return ""
    if isinstance(want, float) and isinstance(got, (int, float)):
        if want == got or (want != want and got != got) or abs(want - got) <= 1e-5 + 1.3e-6 * abs(want):
            return ""
    elif want == got or (isinstance(want, torch.dtype) and DTYPE_NAMES.get(want) == got):
        return ""
    elif isinstance(want, (torch.device, torch.layout, torch.memory_format)) and \
            str(want).replace("torch.", "") == str(got):
        return ""  # enums read back as their names
    return f"{where}: {want!r:.60} vs opforge {got!r:.60}"


# --- known differences -------------------------------------------------------------------

def load_known():
    entries = json.loads(pathlib.Path(ARGS.known).read_text())["differences"]
    for e in entries:
        for field in ("source", "file", "dtype", "executor", "reason"):
            if not e.get(field):
                sys.exit(f"{ARGS.known}: entry {e} has no '{field}'")
    return [e for e in entries if e["source"] == ARGS.source]


def known_for(known, c, executor):
    for e in known:
        if (fnmatch.fnmatch(c.file_key, e["file"]) and fnmatch.fnmatch(c.dtype, e["dtype"])
                and fnmatch.fnmatch(executor, e["executor"])
                and fnmatch.fnmatch(c.wrapper, e.get("wrapper", "*"))):
            e["used"] = True
            return e
    return None


# --- main --------------------------------------------------------------------------------

def main():
    start = time.time()
    signal.signal(signal.SIGALRM, on_alarm)
    torch.manual_seed(0)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="triton-interp-diff-"))
    corpus = None
    if ARGS.source in ("library", "inductor"):
        if not pathlib.Path(ARGS.corpus).exists():
            print(f"no corpus at {ARGS.corpus} (make corpus): skipped")
            return 77
        corpus = Corpus(ARGS.corpus)
    cases = {"kernels": kernel_cases,
             "tutorials": lambda: kernel_cases("tests/compiler/tutorials",
                                               "tests/compiler/tutorials/tutorial_cases.py",
                                               "[0-9][0-9]_*.py"),
             "library": lambda: library_cases(corpus),
             "inductor": lambda: inductor_cases(corpus, tmp)}[ARGS.source]()
    known = load_known()
    # Cases with an appended wrapper run from a copy of the file with it appended.
    for i, c in enumerate(cases):
        c.run_path = c.path
        if c.extra:
            p = tmp / "extra" / f"{i}_{pathlib.Path(c.path).name}"
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(pathlib.Path(c.path).read_text() + c.extra)
            c.run_path, c.extra = str(p), ""
    runnable = [c for c in cases if c.args is not None]
    executors = [e for e in ARGS.executors.split(",") if e]
    chip_dtypes = set(ARGS.chip_dtypes.split(",")) if ARGS.chip_dtypes else None
    per_executor = {}
    for ex in executors:
        sel = [c for c in runnable
               if ex != "chip" or chip_dtypes is None or c.dtype in chip_dtypes]
        per_executor[ex] = (sel, *run_opforge(sel, tmp, ex))

    triton_results = {}
    for c in runnable:
        try:
            triton_results[id(c)] = ("ok", run_triton(c))
        except Exception as e:  # noqa: BLE001 - every failure is a finding
            tb = traceback.extract_tb(e.__traceback__)
            at = next((f"{pathlib.Path(f.filename).name}:{f.lineno}" for f in reversed(tb)
                       if f.filename == c.run_path), "")
            triton_results[id(c)] = ("error", f"{type(e).__name__}: {' '.join(str(e).split())[:300]}"
                                     + (f" (at {at})" if at else ""))
    triton_seconds = time.time() - start

    failures, known_hits = [], []
    verdict = {}  # (file, dtype) -> ok
    compared = 0
    # A test kernel file needs a case; a corpus-driven file without a usable recorded call
    # (all uninitialized, complex or over --max-elements) is reported, not failed.
    not_compared = [c for c in cases if c.args is None]
    for c in not_compared:
        if ARGS.source in ("kernels", "tutorials"):
            failures.append((c, "-", f"no inputs: {c.label}"))
    for ex in executors:
        sel, proc, out = per_executor[ex]
        results = read_results(proc, out, len(sel), ex, tmp)
        for c, (status, value) in zip(sel, results):
            t_status, t_value = triton_results[id(c)]
            if t_status == "error" and status == "error":
                # The wrapper refusing the call (`raise NotImplementedError(...)` in the file)
                # in both is agreement; any other pair of failures is not.
                kind = t_value.split(":")[0]
                why = "" if (kind != "InterpreterError" and f"error: {kind}:" in value) else \
                    f"both fail: real Triton {t_value}; opforge {value}"
            elif t_status == "error":
                why = f"real Triton fails: {t_value}"
            elif status == "error":
                why = f"opforge fails: {value}"
            else:
                w_out, w_args, w_kwargs = t_value
                g_out, g_args, g_kwargs = value
                why = (compare(w_out, g_out, c.exact)
                       or compare(w_args, g_args, c.exact, "args after")
                       or compare(list(w_kwargs.values()),
                                  [g_kwargs.get(k) for k in w_kwargs], c.exact, "kwargs after"))
            compared += 1
            key = (c.file_key, c.wrapper, c.dtype)
            if why:
                k = known_for(known, c, ex)
                if k:
                    known_hits.append((c, ex, why, k["reason"]))
                else:
                    failures.append((c, ex, why))
                    verdict[key] = False
            verdict.setdefault(key, True)
            if ARGS.verbose:
                print(f"{'PASS' if not why else 'DIFF'} {ex:6} {c.name()} {why}")

    for c, ex, why, reason in known_hits:
        print(f"KNOWN  {ex:6} {c.name()}: {why[:200]}\n       listed: {reason}")
    for c, ex, why in failures:
        print(f"FAIL   {ex:6} {c.name()}: {why}")
    stale = [e for e in known if not e.get("used")]
    for e in stale:
        print(f"note: known difference not seen in this run: {e['file']} {e['dtype']} "
              f"{e['executor']}")
    files = {c.file_key for c in cases}
    passed = sum(1 for ok in verdict.values() if ok)
    failed = sum(1 for ok in verdict.values() if not ok) + (
        len(not_compared) if ARGS.source in ("kernels", "tutorials") else 0)
    for c in not_compared:
        if ARGS.source not in ("kernels", "tutorials"):
            print(f"note: not compared: {c.file_key}: {c.label}")
    print(f"triton-interp differential ({ARGS.source}): {len(files)} kernel files, "
          f"{len(verdict)} kernels x dtypes compared ({compared} calls x executors on "
          f"{','.join(executors)}), {passed} passed, {failed} failed, {len(known_hits)} known "
          f"differences; {time.time() - start:.0f} s ({triton_seconds:.0f} s real Triton)")
    if not ARGS.keep:
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        print(f"kept {tmp}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
