# export-opinfo.py - record every ATen call PyTorch's OpInfo samples make into an HDF5 corpus.
#
# Runs with the project venv's python (.venv, made by scripts/install-deps.sh from
# requirements.txt: the pinned torch and its OpInfo database). For each OpInfo, dtype
# and sample, the sample runs under a TorchDispatchMode that records each ATen overload
# called: arguments (tensors with dtype/sizes/strides/storage offset/data, scalars,
# lists, None, dtypes, layouts, memory formats, devices), outputs, and the values of
# inputs the call mutates. The file layout is documented in docs/corpus.md.
#
#   .venv/bin/python scripts/export-opinfo.py --out corpus/opinfo.h5 \
#       [--ops add,sum] [--dtypes float32,int64] [--max-samples N] [--jobs N]
import argparse
import json
import math
import os
import random
import re
import sys
import time
import warnings

# Some sample generators iterate over sets of strings: fix the hash seed (re-exec once).
if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable] + sys.argv)

HERE = os.path.dirname(os.path.abspath(__file__))
# The stand-in for the `expecttest` package goes first on the path, for this script only.
sys.path.insert(0, os.path.join(HERE, "opinfo_stub"))

FORMAT_VERSION = 1
SEED = 0
MAX_SAMPLES_PER_OPINFO = 900
# An OpInfo whose samples record more tensor bytes than this for one dtype is excluded
# (grid_sampler_3d's samples alone would be ~250 MB of the corpus).
MAX_TENSOR_BYTES_PER_OPINFO = 16 << 20
ALL_DTYPES = ["float32", "bfloat16", "float16", "int32", "int64", "bool"]
FLOATING_DTYPES = ["float32", "bfloat16", "float16"]
# Dtype codes of tensors stored in the corpus (docs/corpus.md, "Dtype codes").
DTYPE_CODES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16",
               "bfloat16", "float32", "float64", "complex64", "complex128"]
# OpInfos whose results are random or uninitialized memory, matched on the last
# dotted part of the OpInfo name ("nn.functional.dropout" -> "dropout").
NONDETERMINISTIC_NAME = re.compile(
    r"^(rand|randn|randint|randperm|rand_like|randn_like|randint_like|bernoulli|normal|"
    r"uniform|multinomial|poisson|exponential|geometric|cauchy|log_normal|rrelu|empty|"
    r"empty_like|empty_strided|empty_permuted|new_empty|new_empty_strided|.*dropout.*)$")
# ATen overload base names whose results are random: an OpInfo that calls one is excluded.
RANDOM_OVERLOADS = {
    "bernoulli", "bernoulli_", "normal", "normal_", "uniform_", "rand", "rand_like", "randn",
    "randn_like", "randint", "randint_like", "randperm", "multinomial", "native_dropout",
    "exponential_", "geometric_", "cauchy_", "log_normal_", "poisson", "random_",
    "rrelu_with_noise", "_fused_dropout", "_standard_gamma", "_sample_dirichlet",
    "binomial",
}
# OpInfos whose recorded results differ from run to run (found with --check-determinism).
KNOWN_NONDETERMINISTIC = {
    "nn.functional.ctc_loss": "the log_alpha output holds uninitialized memory",
}
# Overloads that address self's storage directly (an explicit storage offset): self is
# recorded with its whole storage, not just the span its sizes and strides cover.
WHOLE_STORAGE_OVERLOADS = {"as_strided", "as_strided_", "as_strided_copy", "as_strided_scatter"}
# Overloads whose outputs are uninitialized memory; the recorder zero-fills them.
UNINITIALIZED_OVERLOADS = {"empty", "empty_like", "empty_strided", "empty_permuted", "new_empty",
                           "new_empty_strided", "resize_", "resize_as_"}


def parse_args(argv):
    p = argparse.ArgumentParser(description="Export PyTorch OpInfo ATen calls to an HDF5 corpus.")
    p.add_argument("--out", default=None,
                   help="output file (default corpus/opinfo.h5, with --backward corpus/opinfo_backward.h5)")
    p.add_argument("--ops", default="", help="comma-separated OpInfo names (default: all)")
    p.add_argument("--dtypes", default=None,
                   help="comma-separated dtypes (default all six; with --backward the floating ones)")
    p.add_argument("--max-samples", type=int, default=0,
                   help="record at most N samples per OpInfo and dtype (0: all)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--check-determinism", action="store_true",
                   help="run every OpInfo twice; exclude those whose recordings differ")
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--backward", action="store_true",
                   help="record the ATen calls of each sample's backward pass instead of its "
                        "forward (default --out corpus/opinfo_backward.h5, floating dtypes)")
    args = p.parse_args(argv)
    if args.dtypes is None:
        args.dtypes = ",".join(FLOATING_DTYPES if args.backward else ALL_DTYPES)
    if args.out is None:
        args.out = os.path.join(os.path.dirname(HERE), "corpus",
                                "opinfo_backward.h5" if args.backward else "opinfo.h5")
    return args


ARGS = parse_args(sys.argv[1:])
for _d in ARGS.dtypes.split(","):
    if _d.strip() and _d.strip() not in ALL_DTYPES:
        sys.exit("export-opinfo: error: --dtypes: '%s' is not one of %s" % (_d.strip(), ",".join(ALL_DTYPES)))
# common_utils parses sys.argv when imported: give it nothing of ours.
sys.argv = sys.argv[:1]
# One BLAS/OpenMP thread: threaded LAPACK calls round differently from run to run.
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"

# torch.utils.cpp_extension (imported by torch's testing internals) logs a warning
# when it finds no CUDA runtime; the exporter runs on CPU only.
import logging  # noqa: E402
logging.getLogger("torch.utils.cpp_extension").setLevel(logging.ERROR)

try:
    import numpy as np  # noqa: E402
    import torch  # noqa: E402
except ImportError:
    sys.exit("export-opinfo: error: %s cannot import torch; run this script with the project venv's "
             "python: .venv/bin/python scripts/export-opinfo.py (make deps creates .venv)" % sys.executable)
from torch.utils._python_dispatch import TorchDispatchMode  # noqa: E402
from torch.testing._internal.common_methods_invocations import op_db  # noqa: E402
from torch.testing._internal.opinfo.core import DecorateInfo  # noqa: E402
from torch.testing._internal.common_device_type import toleranceOverride  # noqa: E402


def pinned_torch_version():
    """The torch release requirements.txt pins ("2.15.0"), or None."""
    try:
        with open(os.path.join(os.path.dirname(HERE), "requirements.txt")) as f:
            for line in f:
                m = re.match(r"^torch==([^\s#]+)", line)
                if m:
                    return m.group(1)
    except OSError:
        pass
    return None


_PIN = pinned_torch_version()
if _PIN and torch.__version__.split("+")[0] != _PIN:
    print("export-opinfo: warning: torch %s is not the pinned %s (requirements.txt): opforge will "
          "reject this corpus" % (torch.__version__, _PIN), file=sys.stderr)

TORCH_DTYPES = {
    "bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16,
    "int32": torch.int32, "int64": torch.int64, "float16": torch.float16,
    "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
    "complex64": torch.complex64, "complex128": torch.complex128,
}
DTYPE_NAME = {v: k for k, v in TORCH_DTYPES.items()}
DTYPE_CODE = {TORCH_DTYPES[n]: i for i, n in enumerate(DTYPE_CODES)}
# Element types used to view a tensor's bytes (numpy has no bfloat16).
BYTE_VIEW = {torch.bfloat16: torch.int16, torch.complex64: torch.float32,
             torch.complex128: torch.float64}


class Unrecordable(Exception):
    """A value the corpus format cannot hold (sparse tensor, generator, ...)."""


class NonAtenOperator(Exception):
    """A sample called an operator outside the aten namespace whose ATen calls cannot be
    recorded: the OpInfo is excluded for that dtype."""


class TensorTable:
    """Tensors of one dtype group: metadata rows and one data blob, deduplicated."""

    def __init__(self):
        self.rows = []        # (dtype code, ndim, dims offset, storage offset, span start, data offset, nbytes)
        self.dims = []        # sizes then strides of each tensor
        self.blobs = []
        self.data_bytes = 0
        self.index = {}

    def add(self, t, whole_storage=False):
        """Row index of tensor t; whole_storage records its entire storage, not just its span."""
        if t.layout != torch.strided:
            raise Unrecordable("tensor with layout %s" % t.layout)
        if t.dtype not in DTYPE_CODE:
            raise Unrecordable("tensor of dtype %s" % t.dtype)
        if t.device.type != "cpu":
            raise Unrecordable("tensor on device %s" % t.device)
        # Conjugate/negative views: store the values they denote.
        t = t.detach().resolve_conj().resolve_neg()
        sizes = tuple(t.shape)
        strides = tuple(t.stride())
        offset = t.storage_offset()
        lo = hi = offset
        numel = 1
        for s, st in zip(sizes, strides):
            numel *= s
            if s > 0:
                ext = (s - 1) * st
                if ext < 0:
                    lo += ext
                else:
                    hi += ext
        if numel == 0:
            data = b""
            lo = offset
        else:
            if whole_storage:
                lo = 0
                hi = max(hi, t.untyped_storage().nbytes() // t.element_size() - 1)
            span = torch.as_strided(t, (hi - lo + 1,), (1,), lo).contiguous()
            if t.dtype in BYTE_VIEW:
                span = span.view(BYTE_VIEW[t.dtype])
            data = span.numpy().tobytes()
        key = (t.dtype, sizes, strides, offset, lo, data)
        found = self.index.get(key)
        if found is not None:
            return found
        idx = len(self.rows)
        self.rows.append((DTYPE_CODE[t.dtype], len(sizes), len(self.dims), offset, lo,
                          self.data_bytes, len(data)))
        self.dims.extend(sizes)
        self.dims.extend(strides)
        self.blobs.append(data)
        self.data_bytes += len(data)
        self.index[key] = idx
        return idx


def encode_float(v):
    if math.isnan(v):
        return {"float": "nan"}
    if math.isinf(v):
        return {"float": "inf" if v > 0 else "-inf"}
    return {"float": v}


def encode(v, tensors):
    """A JSON-able value; tensors become {"t": index} into the tensor table."""
    if v is None:
        return None
    if isinstance(v, torch.Tensor):
        return {"t": tensors.add(v)}
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return encode_float(v)
    if isinstance(v, complex):
        return {"complex": [encode_float(v.real)["float"], encode_float(v.imag)["float"]]}
    if isinstance(v, str):
        return {"str": v}
    if isinstance(v, (list, tuple)):
        return [encode(x, tensors) for x in v]
    if isinstance(v, torch.dtype):
        return {"dtype": DTYPE_NAME.get(v, str(v).replace("torch.", ""))}
    if isinstance(v, torch.layout):
        return {"layout": str(v).replace("torch.", "")}
    if isinstance(v, torch.memory_format):
        return {"memory_format": str(v).replace("torch.", "")}
    if isinstance(v, torch.device):
        return {"device": str(v)}
    if isinstance(v, torch.SymInt) if hasattr(torch, "SymInt") else False:
        return int(v)
    raise Unrecordable("value of type %s" % type(v).__name__)


def is_random(func):
    return func.overloadpacket.__name__ in RANDOM_OVERLOADS


class Recorder(TorchDispatchMode):
    """Records each ATen call made while active into self.calls (encoded)."""

    def __init__(self, tensors):
        super().__init__()
        self.tensors = tensors
        self.calls = []
        self.random_overload = None
        # The dispatch key state a sample starts with (outside any mode), restored for the
        # ATen calls beneath a non-ATen operator (record_beneath).
        self.dispatch_tls = (torch._C._dispatch_tls_local_include_set(),
                             torch._C._dispatch_tls_local_exclude_set())

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func.namespace != "aten":
            return self.record_beneath(func, args, kwargs)
        if is_random(func) and self.random_overload is None:
            self.random_overload = func.name()
        base = func.overloadpacket.__name__
        if base in WHOLE_STORAGE_OVERLOADS and args and isinstance(args[0], torch.Tensor):
            enc_args = [{"t": self.tensors.add(args[0], whole_storage=True)}] + encode(list(args[1:]), self.tensors)
        else:
            enc_args = encode(list(args), self.tensors)
        enc_kwargs = {k: encode(v, self.tensors) for k, v in kwargs.items()}
        out = func(*args, **kwargs)
        uninit = base in UNINITIALIZED_OVERLOADS
        if uninit:
            # Uninitialized memory: fill with zeros so the corpus is deterministic.
            for o in (out if isinstance(out, (list, tuple)) else [out]):
                if isinstance(o, torch.Tensor) and o.layout == torch.strided:
                    o.detach().zero_()
        mutated = {}
        schema = func._schema
        for i, a in enumerate(schema.arguments):
            if a.alias_info is None or not a.alias_info.is_write:
                continue
            if a.kwarg_only or i >= len(args):
                val = kwargs.get(a.name)
            else:
                val = args[i]
            if val is not None:
                mutated[a.name] = encode(val, self.tensors)
        call = {"args": enc_args, "kwargs": enc_kwargs, "out": encode(out, self.tensors)}
        if mutated:
            call["mutated"] = mutated
        if uninit:
            call["uninitialized"] = True
        self.calls.append((func, call))
        return out

    def record_beneath(self, func, args, kwargs):
        """Run a non-ATen operator (torch 2.15's F.linear_cross_entropy calls the
        torch.library custom operators torch_nn::_linear_cross_entropy_batch_chunked*) and
        record the ATen calls its implementation makes instead of the operator itself: the
        libtorch oracle replays calls by ATen overload and kernels are generated per ATen
        overload. The operator is redispatched to its CPU kernel (for a torch.library custom
        op, the CompositeExplicitAutograd kernel that runs its Python function) with this
        mode pushed again, so the ATen calls beneath it reach __torch_dispatch__; dispatching
        below the Python key does not come back here, so there is no recursion. The kernel
        runs with the dispatch key state the sample started with: here, below the Python key
        (and below the operator's autograd kernel), autograd and other keys are excluded, and
        the ATen calls beneath would reach this mode undecomposed (aten::narrow, aten::to.dtype,
        CompositeImplicitAutograd operators that an ordinary call decomposes into aten::slice,
        aten::_to_copy, ...); restored, they are recorded as any other sample's calls are."""
        name = func.name()
        if not any(torch._C._dispatch_has_kernel_for_dispatch_key(name, k)
                   for k in ("CPU", "CompositeExplicitAutograd")):
            raise NonAtenOperator("calls %s, which is not an ATen operator and has no CPU "
                                  "kernel whose ATen calls could be recorded" % name)
        before = len(self.calls)
        with torch._C._ForceDispatchKeyGuard(*self.dispatch_tls), self:
            out = func.redispatch(torch._C.DispatchKeySet(torch._C.DispatchKey.CPU), *args, **kwargs)
        if len(self.calls) == before:
            raise NonAtenOperator("calls %s, which is not an ATen operator, and its kernel made no "
                                  "ATen call that could be recorded instead" % name)
        return out


def tolerance_overrides(op):
    """{dtype name: (atol, rtol)}: the loosest toleranceOverride an OpInfo declares (CPU)."""
    result = {}
    for d in op.decorators or ():
        if not isinstance(d, DecorateInfo):
            continue
        if d.device_type not in (None, "cpu"):
            continue
        for dec in d.decorators:
            if not isinstance(dec, toleranceOverride):
                continue
            for dt, tol in dec.d.items():
                name = DTYPE_NAME.get(dt)
                if name is None:
                    continue
                atol, rtol = result.get(name, (0.0, 0.0))
                result[name] = (max(atol, tol.atol), max(rtol, tol.rtol))
    return result


def resolve(path):
    """torch attribute at a dotted path ("nn.functional.relu"), or None."""
    obj = torch
    for part in path.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def docstring(op):
    """The docstring of the public function an OpInfo tests ("" when none has one)."""
    last = op.name.split(".")[-1]
    candidates = [op.op, resolve(op.name), resolve("nn.functional." + last), resolve("Tensor." + last),
                  resolve(op.aten_name or ""), resolve("special." + last), resolve("linalg." + last),
                  op.method_variant]
    for fn in candidates:
        doc = getattr(fn, "__doc__", None) if fn is not None else None
        if doc and not doc.startswith("Built-in method") and not doc.startswith("<lambda>"):
            return doc
    return ""


def opinfo_label(op):
    return op.name + ("." + op.variant_test_name if op.variant_test_name else "")


def name_is_nondeterministic(op):
    return NONDETERMINISTIC_NAME.match(op.name.split(".")[-1]) is not None


def seed_all():
    """Sample generators draw from torch, Python's random and numpy's global generators."""
    torch.manual_seed(SEED)
    random.seed(SEED)
    np.random.seed(SEED)


def export_checked(job):
    """export_one, run twice when checking determinism: differing runs exclude the OpInfo."""
    first = export_one(job)
    label = opinfo_label(op_db[job[0]])
    if label in KNOWN_NONDETERMINISTIC:
        first.update(excluded="nondeterministic: " + KNOWN_NONDETERMINISTIC[label],
                     calls=[], tensors=None)
        return first
    if not ARGS.check_determinism or first["excluded"]:
        return first
    second = export_one(job)
    if first["calls"] != second["calls"] or first["tensors"] != second["tensors"]:
        first.update(excluded="nondeterministic: two runs recorded different calls or data",
                     calls=[], tensors=None)
    return first


def tensors_in(v):
    """The tensors of a value (a sample's input, args, kwargs or an op's output), in order."""
    if isinstance(v, torch.Tensor):
        return [v]
    if isinstance(v, (list, tuple)):
        return [t for x in v for t in tensors_in(x)]
    if isinstance(v, dict):
        return [t for x in v.values() for t in tensors_in(x)]
    return []


def run_backward_sample(op, s, rec):
    """--backward: runs the sample's forward unrecorded, then the backward pass of its
    differentiable outputs under `rec`: torch.autograd.grad with seeded random gradients of
    the outputs' shapes, for every input that requires grad. What reaches the recorder is
    what autograd's backward formulas call (threshold_backward, mm, sum.dim_IntList, ...).
    Returns an error string for a sample with nothing to differentiate."""
    out = op(s.input, *s.args, **s.kwargs)
    inputs = [t for t in tensors_in([s.input, list(s.args), s.kwargs]) if t.requires_grad]
    outs = [t for t in tensors_in(out) if t.requires_grad and t.grad_fn is not None]
    if not inputs or not outs:
        return "no differentiable output"
    grads = [torch.randn_like(t) if t.dtype.is_floating_point else torch.ones_like(t) for t in outs]
    with rec:
        torch.autograd.grad(outs, inputs, grads, allow_unused=True)
    return None


def export_one(job):
    """Record one (OpInfo index, dtype): returns a plain-data result for the writer."""
    op_index, dtype_name = job
    op = op_db[op_index]
    dtype = TORCH_DTYPES[dtype_name]
    res = {"op": op_index, "dtype": dtype_name, "excluded": None, "samples": 0,
           "sample_errors": [], "calls": [], "tensors": None}
    seed_all()
    if ARGS.backward and not op.supports_autograd:
        res["excluded"] = "backward: the OpInfo does not support autograd"
        return res
    try:
        samples = list(op.sample_inputs("cpu", dtype, requires_grad=ARGS.backward))
    except Exception as e:  # noqa: BLE001 - OpInfo generators raise anything
        res["excluded"] = "sample generation failed: %s: %s" % (type(e).__name__, str(e)[:200])
        return res
    if len(samples) > MAX_SAMPLES_PER_OPINFO:
        res["excluded"] = "%d samples (more than %d)" % (len(samples), MAX_SAMPLES_PER_OPINFO)
        return res
    if ARGS.max_samples > 0:
        samples = samples[:ARGS.max_samples]
    tensors = TensorTable()
    calls = []
    for si, s in enumerate(samples):
        rec = Recorder(tensors)
        seed_all()
        try:
            if ARGS.backward:
                err = run_backward_sample(op, s, rec)
                if err:
                    res["sample_errors"].append((si, err))
                    continue
            else:
                with rec:
                    op(s.input, *s.args, **s.kwargs)
        except Unrecordable as e:
            res["sample_errors"].append((si, "unrecordable %s" % e))
            continue
        except NonAtenOperator as e:
            res["excluded"] = "non-ATen operator: %s" % e
            res["calls"] = []
            res["tensors"] = None
            return res
        except Exception as e:  # noqa: BLE001 - a sample the op rejects on CPU
            res["sample_errors"].append((si, "%s: %s" % (type(e).__name__, str(e)[:200])))
            continue
        if rec.random_overload is not None:
            res["excluded"] = "random: calls %s" % rec.random_overload
            res["calls"] = []
            res["tensors"] = None
            return res
        for func, call in rec.calls:
            calls.append((si, func.name(), str(func._schema),
                          json.dumps(call, separators=(",", ":"), allow_nan=False)))
        res["samples"] += 1
    if tensors.data_bytes > MAX_TENSOR_BYTES_PER_OPINFO:
        res["excluded"] = "%.1f MB of tensor data (more than %d MB)" % (
            tensors.data_bytes / 1e6, MAX_TENSOR_BYTES_PER_OPINFO >> 20)
        return res
    res["calls"] = calls
    res["tensors"] = (tensors.rows, tensors.dims, b"".join(tensors.blobs))
    return res


def select_jobs(op_filter, dtypes):
    jobs, exclusions = [], []
    for i, op in enumerate(op_db):
        if op_filter and op.name not in op_filter and opinfo_label(op) not in op_filter:
            continue
        if name_is_nondeterministic(op):
            exclusions.append((i, "*", "nondeterministic: random or uninitialized results"))
            continue
        supported = op.supported_dtypes("cpu")
        for dt in dtypes:
            if TORCH_DTYPES[dt] in supported:
                jobs.append((i, dt))
    return jobs, exclusions


def write_strings(group, name, values):
    import h5py
    group.create_dataset(name, data=np.array(values, dtype=object),
                         dtype=h5py.string_dtype("utf-8"), track_times=False)


def write_corpus(path, dtypes, results, exclusions, wall_s):
    import h5py
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    # Overload table: every overload seen, sorted by name.
    schemas = {}
    for r in results:
        for _, name, schema, _ in r["calls"]:
            schemas[name] = schema
    overload_names = sorted(schemas)
    # The corpus holds ATen overloads only (the oracle replays them through libtorch's
    # dispatcher; kernels are generated per ATen overload): Recorder.record_beneath records
    # the ATen calls beneath any other operator, or the OpInfo is excluded.
    non_aten = [n for n in overload_names if not n.startswith("aten::")]
    if non_aten:
        sys.exit("export-opinfo: error: recorded overloads outside the aten namespace: %s"
                 % ", ".join(non_aten))
    overload_index = {n: i for i, n in enumerate(overload_names)}
    used_ops = sorted({r["op"] for r in results})
    op_row = {op: i for i, op in enumerate(used_ops)}
    with h5py.File(tmp, "w", track_order=False) as f:
        f.attrs["format_version"] = FORMAT_VERSION
        f.attrs["torch_version"] = str(torch.__version__)
        f.attrs["seed"] = SEED
        f.attrs["dtypes"] = ",".join(dtypes)
        f.attrs["dtype_codes"] = ",".join(DTYPE_CODES)
        f.attrs["max_samples_per_opinfo"] = MAX_SAMPLES_PER_OPINFO
        # forward: the calls a sample makes; backward: the calls of its backward pass.
        f.attrs["pass"] = "backward" if ARGS.backward else "forward"
        g = f.create_group("overloads")
        write_strings(g, "name", overload_names)
        write_strings(g, "schema", [schemas[n] for n in overload_names])
        g = f.create_group("opinfos")
        ops = [op_db[i] for i in used_ops]
        write_strings(g, "name", [opinfo_label(o) for o in ops])
        write_strings(g, "aten_name", [o.aten_name or "" for o in ops])
        write_strings(g, "docstring", [docstring(o) for o in ops])
        write_strings(g, "dtypes", [",".join(sorted(DTYPE_NAME[d] for d in o.supported_dtypes("cpu")
                                                    if d in DTYPE_NAME)) for o in ops])
        tol_rows = []
        for i, o in enumerate(ops):
            for dt, (atol, rtol) in sorted(tolerance_overrides(o).items()):
                if dt in dtypes:
                    tol_rows.append((i, dt, atol, rtol))
        g = f.create_group("tolerances")
        g.create_dataset("opinfo", data=np.array([t[0] for t in tol_rows], dtype=np.int32), track_times=False)
        write_strings(g, "dtype", [t[1] for t in tol_rows])
        g.create_dataset("atol", data=np.array([t[2] for t in tol_rows], dtype=np.float64), track_times=False)
        g.create_dataset("rtol", data=np.array([t[3] for t in tol_rows], dtype=np.float64), track_times=False)
        ex_rows = [(opinfo_label(op_db[i]), dt, reason) for i, dt, reason in exclusions]
        ex_rows += [("*", "complex64,complex128", "complex dtypes are not exported"),
                    ("*", "float64", "float64 is not exported")]
        for r in results:
            if r["excluded"]:
                ex_rows.append((opinfo_label(op_db[r["op"]]), r["dtype"], r["excluded"]))
        g = f.create_group("exclusions")
        write_strings(g, "opinfo", [e[0] for e in ex_rows])
        write_strings(g, "dtype", [e[1] for e in ex_rows])
        write_strings(g, "reason", [e[2] for e in ex_rows])
        cg = f.create_group("calls")
        for dt in dtypes:
            rs = [r for r in results if r["dtype"] == dt and not r["excluded"]]
            g = cg.create_group(dt)
            c_over, c_op, c_sample, c_json, c_toff = [], [], [], [], []
            t_rows, dims, blobs = [], [], []
            n_dims = n_data = n_tensors = 0
            err_op, err_sample, err_reason = [], [], []
            n_samples = 0
            json_bytes = bytearray()
            json_off = [0]
            for r in rs:
                rows, rdims, rdata = r["tensors"]
                for si, name, _, js in r["calls"]:
                    c_over.append(overload_index[name])
                    c_op.append(op_row[r["op"]])
                    c_sample.append(si)
                    c_toff.append(n_tensors)
                    json_bytes += js.encode()
                    json_off.append(len(json_bytes))
                for (code, ndim, doff, soff, span, dataoff, nbytes) in rows:
                    t_rows.append((code, ndim, doff + n_dims, soff, span, dataoff + n_data, nbytes))
                dims.extend(rdims)
                blobs.append(rdata)
                n_dims += len(rdims)
                n_data += len(rdata)
                n_tensors += len(rows)
                n_samples += r["samples"]
                for si, reason in r["sample_errors"]:
                    err_op.append(op_row[r["op"]])
                    err_sample.append(si)
                    err_reason.append(reason)
            g.attrs["samples"] = n_samples
            g.attrs["opinfos"] = sum(1 for r in rs if r["samples"])
            g.attrs["calls"] = len(c_over)
            kw = dict(track_times=False)
            big = dict(track_times=False, compression="gzip", compression_opts=1, shuffle=True)
            g.create_dataset("overload", data=np.array(c_over, dtype=np.int32), **kw)
            g.create_dataset("opinfo", data=np.array(c_op, dtype=np.int32), **kw)
            g.create_dataset("sample", data=np.array(c_sample, dtype=np.int32), **kw)
            g.create_dataset("tensor_base", data=np.array(c_toff, dtype=np.int64), **kw)
            g.create_dataset("json_offsets", data=np.array(json_off, dtype=np.int64), **kw)
            g.create_dataset("json", data=np.frombuffer(bytes(json_bytes), dtype=np.uint8),
                             **(big if json_bytes else kw))
            tr = np.array(t_rows, dtype=np.int64).reshape(-1, 7)
            g.create_dataset("tensors", data=tr, **kw)
            g.create_dataset("dims", data=np.array(dims, dtype=np.int64), **kw)
            blob = b"".join(blobs)
            g.create_dataset("data", data=np.frombuffer(blob, dtype=np.uint8), **(big if blob else kw))
            e = g.create_group("sample_errors")
            e.create_dataset("opinfo", data=np.array(err_op, dtype=np.int32), **kw)
            e.create_dataset("sample", data=np.array(err_sample, dtype=np.int32), **kw)
            write_strings(e, "reason", err_reason)
    os.replace(tmp, path)


def main():
    t0 = time.monotonic()
    dtypes = [d.strip() for d in ARGS.dtypes.split(",") if d.strip()]
    for d in dtypes:
        if d not in ALL_DTYPES:
            sys.exit("export-opinfo: error: --dtypes: '%s' is not one of %s" % (d, ",".join(ALL_DTYPES)))
    op_filter = {o.strip() for o in ARGS.ops.split(",") if o.strip()}
    if op_filter:
        known = {o.name for o in op_db} | {opinfo_label(o) for o in op_db}
        unknown = sorted(op_filter - known)
        if unknown:
            sys.exit("export-opinfo: error: --ops: unknown OpInfo name(s): %s" % ",".join(unknown))
    if ARGS.backward:
        integral = [d for d in dtypes if d not in FLOATING_DTYPES]
        if integral:
            sys.exit("export-opinfo: error: --backward records gradients, which need floating dtypes; "
                     "not %s" % ",".join(integral))
    jobs, exclusions = select_jobs(op_filter, dtypes)
    torch.set_num_threads(1)
    warnings.simplefilter("ignore")
    if ARGS.jobs > 1:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(ARGS.jobs) as pool:
            results = pool.map(export_checked, jobs, chunksize=4)
    else:
        results = [export_checked(j) for j in jobs]
    results.sort(key=lambda r: (r["op"], dtypes.index(r["dtype"])))
    write_corpus(ARGS.out, dtypes, results, exclusions, time.monotonic() - t0)
    if not ARGS.quiet:
        for dt in dtypes:
            rs = [r for r in results if r["dtype"] == dt and not r["excluded"] and r["samples"]]
            names = {c[1] for r in rs for c in r["calls"]}
            print("%-9s opinfos %4d  samples %6d  calls %6d  overloads %4d" % (
                dt, len(rs), sum(r["samples"] for r in rs), sum(len(r["calls"]) for r in rs), len(names)))
        print("wrote %s (torch %s) in %.1f s" % (ARGS.out, torch.__version__, time.monotonic() - t0))


if __name__ == "__main__":
    main()
