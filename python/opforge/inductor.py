"""TorchInductor on the opforge device: `torch.compile(model, backend="opforge")`.

Inductor generates Triton kernels for the opforge device as it does for a GPU:
the device is registered with Inductor's Triton scheduling and Python wrapper
code generation, with Dynamo's device-interface registry and, as a Triton
backend named "opforge" (target only: opforge compiles the kernels itself, not
Triton), with the Triton driver registry Inductor asks for the current target.

The output module Inductor writes (its `call()`, the kernels as
`async_compile.triton(...)` sources, `extern_kernels.mm`, ...) is never
imported by Python: the backend hands its text to the chip runtime, whose
wrapper interpreter runs `call()` over the device tensors and compiles every
kernel with opforge's Triton compiler (docs/compiler/inductor.md). The same
runtime runs a saved module: `opforge inductor-run FILE.py`.
"""

import contextlib
import json
import threading
import types

import torch

__all__ = ["register", "backend", "compile_module", "captured_modules", "coverage",
           "format_coverage", "reset_coverage"]

_lock = threading.Lock()
_registered = False
# The output modules compiled in this process, in order: (source, path).
_captured = []
# What each call() of a compiled module ran (torch.ops.opforge.inductor_last_run).
_runs = []
# GEMM-like ATen ops: Triton for MTIA's time share is of the time outside them.
_GEMM = ("aten.mm", "aten.addmm", "aten.bmm", "aten.baddbmm", "aten.convolution",
         "aten._convolution", "aten.convolution_backward", "aten.addmv", "aten.mv")
# Triton for MTIA (torch.compile over 60 model types): the share of layers in
# Inductor-generated Triton kernels and of non-GEMM time in them.
PAPER_LAYER_SHARE = 0.50
PAPER_NON_GEMM_TIME_SHARE = 0.47


def get_raw_stream(index):
    """What the output module's `get_raw_stream(0)` returns: the chip has one stream."""
    del index
    return 0


class _Properties(types.SimpleNamespace):
    pass


def _properties():
    # What Inductor reads of a device's properties when it picks block sizes: the PE
    # count stands in for the multiprocessor count, a 16-lane vector for the warp.
    return _Properties(name="opforge", multi_processor_count=64, warp_size=16,
                       max_threads_per_block=1024, total_memory=1 << 34,
                       regs_per_multiprocessor=None, max_threads_per_multi_processor=None,
                       major=None, minor=None)


def _register_triton_backend():
    import triton.backends
    from triton.backends import Backend
    from triton.backends.compiler import BaseBackend, GPUTarget
    from triton.backends.driver import DriverBase

    if "opforge" in triton.backends.backends:
        return

    class OpforgeTritonBackend(BaseBackend):
        """Only the target: Triton never compiles for opforge (the chip runtime does)."""

        @staticmethod
        def supports_target(target):
            return target.backend == "opforge"

        def hash(self):
            return "opforge-triton-frontend-1"

        def parse_options(self, options):
            return types.SimpleNamespace(**options)

        def add_stages(self, stages, options, language):
            raise RuntimeError("opforge: Triton kernels for the opforge device are compiled by "
                               "opforge, not by Triton (run them through torch.compile's "
                               "'opforge' backend or `opforge inductor-run`)")

        def load_dialects(self, context):
            pass

        def get_module_map(self):
            return {}

    class OpforgeTritonDriver(DriverBase):
        @classmethod
        def is_active(cls):
            # Never the default driver: Triton picks it only through set_active.
            return False

        def get_current_target(self):
            return GPUTarget("opforge", "mtia-2i", 16)

        def get_active_torch_device(self):
            return torch.device("opforge", 0)

        def get_current_device(self):
            return 0

        def set_current_device(self, device):
            del device

        def get_current_stream(self, device=None):
            del device
            return 0

        def map_python_to_cpp_type(self, ty):
            return ty

        def get_benchmarker(self):
            raise RuntimeError("opforge: kernels are timed in simulated cycles by the chip "
                               "runtime, not by Triton's benchmarker")

        def get_device_interface(self):
            return torch.opforge

        def get_empty_cache_for_benchmark(self):
            return None

        def clear_cache(self, cache):
            del cache

    triton.backends.backends["opforge"] = Backend(compiler=OpforgeTritonBackend,
                                                  driver=OpforgeTritonDriver)
    from triton.runtime.driver import driver
    driver.set_active(OpforgeTritonDriver())


def _register_device_interface():
    from torch._dynamo.device_interface import DeviceInterface, register_interface_for_device

    class OpforgeInterface(DeviceInterface):
        class Worker:
            @staticmethod
            def set_device(device):
                del device

            @staticmethod
            def current_device():
                return 0

            @staticmethod
            def get_device_properties(device=None):
                del device
                return _properties()

        @staticmethod
        def current_device():
            return 0

        @staticmethod
        def set_device(device):
            del device

        @staticmethod
        def maybe_exchange_device(device):
            del device
            return 0

        @staticmethod
        def exchange_device(device):
            del device
            return 0

        @staticmethod
        def device_count():
            return 1

        @staticmethod
        def is_available():
            return True

        @staticmethod
        def get_raw_stream(device_idx):
            return get_raw_stream(device_idx)

        @staticmethod
        def synchronize(device=None):
            del device

        @classmethod
        def get_device_properties(cls, device=None):
            del device
            return _properties()

        @staticmethod
        def get_compute_capability(device=None):
            del device
            return "mtia-2i"

        @staticmethod
        def is_bf16_supported(including_emulation=False):
            del including_emulation
            return True

        @staticmethod
        def memory_allocated(device=None):
            del device
            return 0

        @staticmethod
        def is_triton_capable(device=None):
            del device
            return True

        @staticmethod
        def raise_if_triton_unavailable(device=None):
            del device

    register_interface_for_device("opforge", OpforgeInterface)


def _register_codegen():
    from torch._inductor.codegen.common import (DeviceOpOverrides, register_backend_for_device,
                                                register_device_op_overrides)
    from torch._inductor.codegen.triton import TritonScheduling
    from torch._inductor.codegen.wrapper import PythonWrapperCodegen

    class OpforgeOpOverrides(DeviceOpOverrides):
        # What the output module says for the device's stream, guard and sync; the chip
        # runtime's interpreter gives them meaning (torch.opforge has them too).
        def import_get_raw_stream_as(self, name):
            return f"from opforge.inductor import get_raw_stream as {name}"

        def set_device(self, device_idx):
            return f"torch.opforge.set_device({device_idx})"

        def synchronize(self):
            return "torch.opforge.synchronize()"

        def device_guard(self, device_idx):
            return f"torch.opforge._DeviceGuard({device_idx})"

        def current_stream(self):
            return "torch.opforge.current_stream()"

    register_backend_for_device("opforge", TritonScheduling, PythonWrapperCodegen)
    register_device_op_overrides("opforge", OpforgeOpOverrides())


def register():
    """Registers the opforge device with Inductor (idempotent); torch.compile's
    "opforge" backend calls it."""
    global _registered
    with _lock:
        if _registered:
            return
        _register_triton_backend()
        _register_device_interface()
        _register_codegen()
        _install_loader()
        _registered = True


def captured_modules():
    """The output modules Inductor wrote in this process: [(source, path)]."""
    return list(_captured)


class CompiledModule(types.ModuleType):
    """Stands where Inductor expects its imported output module: `call(args)` runs
    the module's `call()` on the chip through the runtime's wrapper interpreter."""

    def __init__(self, source, path):
        super().__init__("opforge_inductor_module")
        self.__file__ = path
        self.source = source
        self._handle = torch.ops.opforge.inductor_load(source, path)

    def call(self, args):
        # Symbolic sizes and lifted Python numbers travel as 0-d CPU tensors.
        tensors = [a if isinstance(a, torch.Tensor) or a is None else torch.tensor(a)
                   for a in args]
        args.clear()
        out = tuple(torch.ops.opforge.inductor_call(self._handle, tensors))
        _runs.append(json.loads(torch.ops.opforge.inductor_last_run()))
        return out


class CaptureOnly(RuntimeError):
    """Raised by a module compiled under capture_only() when it is called."""


class _CapturedModule(types.ModuleType):
    def __init__(self, path):
        super().__init__("opforge_inductor_captured")
        self.__file__ = path

    def call(self, args):
        raise CaptureOnly(f"opforge: {self.__file__} was only captured (capture_only())")


_capture_only = False
# Tests: a function applied to each output module's text before the chip loads it.
_source_filter = None


@contextlib.contextmanager
def capture_only():
    """Inductor's output modules are written (captured_modules()) but not loaded on the
    chip: calling a compiled graph raises CaptureOnly. For writing modules to study
    elsewhere (opforge.inductor_dump) without running them."""
    global _capture_only
    was, _capture_only = _capture_only, True
    try:
        yield
    finally:
        _capture_only = was


def _is_opforge_module(source):
    return "device_str='opforge'" in source or "device='opforge'" in source


def _install_loader():
    """From registration on, an output module Inductor loads for the opforge device (a
    forward graph, a backward graph AOTAutograd compiles during .backward(), or one
    reloaded from Inductor's FX graph cache) becomes a CompiledModule instead of a Python
    import; every other module loads as before."""
    from torch._inductor.codecache import PyCodeCache

    original = PyCodeCache.load_by_key_path
    if getattr(original, "_opforge", False):
        return

    def load_by_key_path(key, path, linemap=None, attrs=None):
        with open(path, encoding="utf-8") as f:
            source = f.read()
        if not _is_opforge_module(source):
            return original(key, path, linemap, attrs)
        if _source_filter is not None:
            source = _source_filter(source)
        _captured.append((source, path))
        if _capture_only:
            module = _CapturedModule(path)
        else:
            module = CompiledModule(source, path)
        for name, value in (attrs or {}).items():
            setattr(module, name, value)
        return module

    load_by_key_path._opforge = True
    PyCodeCache.load_by_key_path = staticmethod(load_by_key_path)


def _embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                   per_sample_weights=None, include_last_offset=False, padding_idx=-1):
    """aten._embedding_bag (sum and mean of 1-d bags) as gathers and index_add, so
    Inductor writes Triton kernels for it instead of calling ATen's op, whose CPU kernel
    leaves offset2bag empty where the shapes Inductor asserts (the meta function's)
    have one bag per index. Max bags and 2-d indices keep ATen's op."""
    if mode == 2 or indices.dim() != 1 or scale_grad_by_freq or sparse:
        return NotImplemented
    n = indices.shape[0]
    bags = offsets.shape[0] - (1 if include_last_offset else 0)
    starts = offsets[:bags]
    pos = torch.arange(n, device=indices.device, dtype=offsets.dtype)
    offset2bag = (pos[:, None] >= starts[None, :]).sum(1) - 1
    keep = (indices != padding_idx) if padding_idx >= 0 else torch.ones_like(indices, dtype=torch.bool)
    rows = weight[indices]
    if per_sample_weights is not None:
        rows = rows * per_sample_weights[:, None].to(rows.dtype)
    rows = torch.where(keep[:, None], rows, torch.zeros_like(rows))
    out = weight.new_zeros(bags, weight.shape[1]).index_add(0, offset2bag, rows)
    bag_size = offsets.new_zeros(bags).index_add(0, offset2bag, keep.to(offsets.dtype))
    if mode == 1:
        out = out / bag_size.clamp(min=1)[:, None].to(out.dtype)
    return out, offset2bag, bag_size, bag_size.new_zeros(bags if mode == 2 else 0)


def _decompositions():
    from torch._inductor.decomposition import select_decomp_table

    table = dict(select_decomp_table())
    table[torch.ops.aten._embedding_bag.default] = _embedding_bag
    return table


# Graphs that run eagerly on the device because opforge could not compile Inductor's
# output for them: [{"graph", "reason"}] (coverage() counts them).
_eager_graphs = []


def _opforge_error(e):
    """The opforge error inside Inductor's wrapping, or None for other errors."""
    while e is not None:
        text = str(e)
        if "opforge: Inductor module" in text:
            return text[text.index("opforge: Inductor module"):]
        e = e.__cause__ or e.__context__
    return None


def _eager(gm, reason):
    import warnings

    _eager_graphs.append({"graph": f"graph {len(_eager_graphs)}", "reason": reason})
    warnings.warn(f"{reason}\nopforge: this graph runs eagerly on the opforge device "
                  "(each ATen op through the kernel library, or the CPU)", stacklevel=3)
    return gm.forward


def backend(gm, example_inputs, **kwargs):
    """torch.compile's backend "opforge": Inductor for the opforge device. A graph whose
    output module opforge cannot load or whose kernel does not compile runs eagerly
    instead, with a warning naming the construct, the kernel and the line (counted in
    coverage()["eager_graphs"])."""
    from torch._inductor.compile_fx import compile_fx

    register()
    # torch.compile(..., mode=, options=) reach a named backend as keyword arguments:
    # Inductor's config patches, as torch.compile makes them for its own backend.
    patches = {}
    mode = kwargs.pop("mode", None)
    if mode:
        import torch._inductor as _inductor

        patches.update(_inductor.list_mode_options(mode))
    patches.update(kwargs.pop("options", None) or {})
    patches.update(kwargs.get("config_patches") or {})
    kwargs["config_patches"] = patches
    try:
        kwargs.setdefault("decompositions", _decompositions())
        # Inductor's FX graph cache keys a graph without the decomposition table, so an
        # entry written with another table would come back; opforge compiles afresh.
        # Convolutions keep ATen's contiguous layout: Inductor's layout optimization makes
        # them channels-last, which the library's convolution kernels read strided (6x the
        # cycles of ResNet-18's forward at 32x32).
        kwargs["config_patches"] = {"fx_graph_cache": False, "layout_optimization": False,
                                    **kwargs["config_patches"]}
        compiled = compile_fx(gm, example_inputs, **kwargs)
    except Exception as e:  # noqa: BLE001 - only opforge's own errors are caught
        reason = _opforge_error(e)
        if reason is None:
            raise
        return _eager(gm, reason)
    state = {"eager": None, "ran": False}

    def run(*args):
        if state["eager"] is not None:
            return state["eager"](*args)
        try:
            out = compiled(*args)
        except RuntimeError as e:
            reason = _opforge_error(e)
            # Only before the first complete run: a graph that ran once is known good,
            # and a failure part way through a later run is an error to report.
            if reason is None or state["ran"]:
                raise
            state["eager"] = _eager(gm, reason)
            return state["eager"](*args)
        state["ran"] = True
        return out

    return run


def compile_module(source, path="<module>"):
    """A saved output module's text as a CompiledModule (what `opforge
    inductor-run` does from the command line)."""
    return CompiledModule(source, path)


def reset_coverage():
    """Forgets the calls and eager graphs coverage() sums."""
    _runs.clear()
    _eager_graphs.clear()


def _is_gemm(step):
    if step["kind"] != "aten":
        return False
    names = list(step["aten_nodes"]) + ["aten." + step["name"].split("::")[-1].split(".")[0]]
    return any(".".join(n.split(".")[:2]) in _GEMM for n in names)


def coverage(runs=None):
    """Where the compiled modules' work ran since reset_coverage(): ATen graph nodes and
    simulated cycles in Inductor's Triton kernels, in library kernels (extern kernels and
    ATen calls the module makes, on the chip) and on the CPU (fallbacks); the time share
    of Triton kernels outside GEMM/convolution, as Triton for MTIA reports it."""
    runs = _runs if runs is None else runs
    nodes = {"triton": 0, "library": 0, "cpu": 0}
    cycles = {"triton": 0, "library": 0, "cpu": 0}
    gemm_cycles = 0
    kernels = set()
    for run in runs:
        for s in run["steps"]:
            where = "triton" if s["kind"] == "triton" else ("library" if s["on_chip"] else "cpu")
            n = max(1, len(s["aten_nodes"]))
            nodes[where] += n
            cycles[where] += s["cycles"]
            if s["kind"] == "triton":
                kernels.add(s["name"])
            elif _is_gemm(s) and s["on_chip"]:
                gemm_cycles += s["cycles"]
    total_nodes = sum(nodes.values())
    total_cycles = sum(cycles.values())
    non_gemm = total_cycles - gemm_cycles
    share = lambda a, b: (a / b) if b else 0.0  # noqa: E731
    return {
        "calls": len(runs),
        "triton_kernels": len(kernels),
        "nodes": nodes,
        "cycles": cycles,
        "node_share": {k: share(v, total_nodes) for k, v in nodes.items()},
        "cycle_share": {k: share(v, total_cycles) for k, v in cycles.items()},
        "non_gemm_cycles": non_gemm,
        "triton_share_of_non_gemm_time": share(cycles["triton"], non_gemm),
        "eager_graphs": list(_eager_graphs),
    }


def format_coverage(cov, title="torch.compile on opforge"):
    """The coverage as a table beside Triton for MTIA's figures."""
    lines = [f"{title}: {cov['calls']} call(s) of compiled graphs, "
             f"{cov['triton_kernels']} distinct Triton kernels",
             f"{'where':<28}{'ATen nodes':>12}{'share':>8}{'cycles':>14}{'share':>8}"]
    names = {"triton": "Inductor Triton kernels", "library": "library kernels (chip)",
             "cpu": "CPU fallback"}
    for k in ("triton", "library", "cpu"):
        lines.append(f"{names[k]:<28}{cov['nodes'][k]:>12}{cov['node_share'][k]:>8.1%}"
                     f"{cov['cycles'][k]:>14}{cov['cycle_share'][k]:>8.1%}")
    lines.append(f"Triton kernels' share of ATen nodes: {cov['node_share']['triton']:.1%} "
                 f"(Triton for MTIA: {PAPER_LAYER_SHARE:.0%} of layers); of non-GEMM time: "
                 f"{cov['triton_share_of_non_gemm_time']:.1%} (Triton for MTIA: "
                 f"{PAPER_NON_GEMM_TIME_SHARE:.0%})")
    for g in cov["eager_graphs"]:
        lines.append(f"ran eagerly: {g['graph']}: {g['reason'].splitlines()[0]}")
    return "\n".join(lines)
