"""opforge: the simulated MTIA-class chip as a PyTorch device named "opforge".

    import opforge, torch
    opforge.init(arch="mtia-2i", timing="lt")
    x = torch.randn(64, 64).to("opforge")      # storage in the chip model's DRAM
    with opforge.profile() as p:
        y = torch.relu(x @ x + x)                # mm and add run on the chip
    print(y.cpu(), p.cycles, p.fallbacks)
    p.save("profile.h5")                         # `opforge report profile.h5`

Every ATen op on opforge tensors runs the kernel library's wrapper for its
overload on the chip (the harness's call path), or, when the library has no
kernel for it or the chip does not run its dtype, on the CPU: copied out, run,
copied back, warned once per op and dtype and counted (opforge.stats()).
docs/pytorch-device.md describes it.
"""

import json
import os
import pathlib

import torch
import torch._dynamo

__all__ = ["init", "is_initialized", "stats", "profile", "Profile", "device"]

_SOURCE = pathlib.Path(__file__).resolve().parents[2]


def _extension_path():
    env = os.environ.get("OPFORGE_TORCH_EXT")
    if env:
        return env
    return str(_SOURCE / "build" / "python" / "libopforge_torch.so")


def _load_extension():
    path = _extension_path()
    if not os.path.exists(path):
        raise ImportError(
            f"opforge: the torch extension {path} is not built; build it with "
            "`cmake --build build --target opforge_torch` (make demo builds it), "
            "or point OPFORGE_TORCH_EXT at it")
    torch.ops.load_library(path)


class _DeviceModule:
    """What torch looks up as torch.opforge (torch._register_device_module)."""

    @staticmethod
    def is_available():
        return True

    @staticmethod
    def device_count():
        return 1

    @staticmethod
    def current_device():
        return 0

    @staticmethod
    def is_initialized():
        return _initialized

    @staticmethod
    def _is_in_bad_fork():
        return False

    @staticmethod
    def set_device(device):
        del device

    @staticmethod
    def synchronize(device=None):
        del device

    @staticmethod
    def current_stream(device=None):
        del device
        return 0

    class _DeviceGuard:
        # What Inductor's output module enters around a kernel sequence: the chip is one
        # device, so the guard changes nothing.
        def __init__(self, index):
            self.index = index

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    @staticmethod
    def manual_seed_all(seed):
        # Random ops run on the CPU (fallback) and use its generator.
        del seed

    @staticmethod
    def get_rng_state(device="opforge"):
        del device
        return torch.get_rng_state()

    @staticmethod
    def set_rng_state(state, device="opforge"):
        del device
        torch.set_rng_state(state)


_load_extension()
if torch._C._get_privateuse1_backend_name() != "opforge":
    torch.utils.rename_privateuse1_backend("opforge")
    torch._register_device_module("opforge", _DeviceModule())
    torch.utils.generate_methods_for_privateuse1_backend(
        for_tensor=True, for_module=True, for_packed_sequence=True, for_storage=True)
device = torch.device("opforge", 0)
_initialized = False


@torch._dynamo.register_backend(name="opforge")
def _compile_backend(gm, example_inputs, **kwargs):
    # torch.compile(model, backend="opforge"): TorchInductor's Triton kernels on the chip.
    from . import inductor
    return inductor.backend(gm, example_inputs, **kwargs)


def _setting(key, value):
    if isinstance(value, str):
        text = value
    else:
        text = json.dumps(value)
    return f"{key}={text}"


DEFAULT_INDUCTOR_KERNELS = str(_SOURCE / "scenarios" / "traces" / "kernels.json")
# The kernels the models of opforge.models need beyond the trace set (convolution,
# batch norm, the training steps' backward ops).
DEVICE_INDUCTOR_KERNELS = str(pathlib.Path(__file__).resolve().parent / "device_kernels.json")


def init(arch="mtia-2i", timing="lt", set=None, library=None, inductor_kernels=None):
    """Makes this process's chip: an architecture preset (tiny, mtia-2i, mtia-v1)
    or JSON file, its timing mode (functional or lt), parameter overrides
    ({"dram.channels": 8}) and the kernel library directory (None: the shipped
    one). `inductor_kernels`: manifests of kernels rendered from the inductor
    lowering table, searched after the library (None: scenarios/traces/kernels.json
    and python/opforge/device_kernels.json with the shipped library, none with a `library` of your own; [] none).
    Calling it again with the same arguments does nothing; with others it raises
    RuntimeError (SystemC makes one chip per process)."""
    global _initialized
    sets = [_setting(k, v) for k, v in (set or {}).items()]
    if inductor_kernels is None:
        inductor_kernels = [] if library else [DEFAULT_INDUCTOR_KERNELS, DEVICE_INDUCTOR_KERNELS]
    elif isinstance(inductor_kernels, (str, os.PathLike)):
        inductor_kernels = [inductor_kernels]
    torch.ops.opforge.init(str(arch), str(timing), sets, str(library or ""),
                           [str(k) for k in inductor_kernels])
    _initialized = True


def is_initialized():
    return _initialized


def stats():
    """Calls since init: {"calls", "chip_calls", "fallbacks", "ops": [per op and dtype]}."""
    return json.loads(torch.ops.opforge.stats())


class Profile:
    """What ran between __enter__ and __exit__: per op and dtype (`ops`), per call
    (`calls`), kernel cycles, launches, instructions, on-chip calls, fallbacks and
    the chip's counters summed over the kernel launches."""

    def __init__(self):
        self.ops = []
        self.calls = []
        self.cycles = 0
        self.instructions = 0
        self.launches = 0
        self.chip_calls = 0
        self.fallbacks = 0
        self.counters = {}
        self._done = False

    def __enter__(self):
        torch.ops.opforge.profile_start()
        return self

    def __exit__(self, *exc):
        data = json.loads(torch.ops.opforge.profile_stop())
        for key, value in data.items():
            setattr(self, key, value)
        self._done = True
        return False

    def op(self, name, dtype=None):
        """The row of `name` ("aten::mm"), summed over dtypes unless one is given."""
        rows = [o for o in self.ops if o["op"] == name and (dtype is None or o["dtype"] == dtype)]
        total = {"op": name, "calls": 0, "chip_calls": 0, "fallbacks": 0, "cycles": 0,
                 "launches": 0}
        for r in rows:
            for k in ("calls", "chip_calls", "fallbacks", "cycles", "launches"):
                total[k] += r[k]
        return total

    def save(self, path):
        """Writes the profile as a results file (docs/results.md): `opforge report
        PATH` (plot, trace, triage) read it."""
        if not self._done:
            raise RuntimeError("opforge.profile: save() after the `with` block ends")
        torch.ops.opforge.profile_save(str(path))


def profile():
    return Profile()
