#!/usr/bin/env bash
# install-deps.sh - idempotently install every Debian package opforge uses.
#   and the project virtual environment .venv (git-ignored) with the pinned
#   Python packages of requirements.txt (torch, triton, numpy, h5py, matplotlib).
#
# Fast path: when every package is already installed (checked with one
# dpkg-query call) and .venv holds exactly requirements.txt (a stamp file) the
# script returns at once without touching apt or pip. Otherwise it runs
# apt-get update once and installs only what is missing, then (re)builds the venv.
# Needs root (or sudo) only when a Debian package is missing.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENV="${OPFORGE_VENV:-$ROOT/.venv}"

PACKAGES=(
  # build tools
  build-essential cmake ninja-build ccache pkg-config git
  # libraries
  libsystemc-dev verilator libcurl4-openssl-dev nlohmann-json3-dev
  libboost-program-options-dev libhdf5-dev hdf5-tools zlib1g-dev
  libgtest-dev libgmock-dev libcpp-httplib-dev llvm-16-dev
  # python side: Debian's python3 makes the venv; torch, triton, numpy, h5py and
  # matplotlib come from PyPI into it (requirements.txt)
  python3 python3-venv
  # RISC-V references
  binutils-riscv64-unknown-elf gcc-riscv64-unknown-elf qemu-user
  # make fuzz: clang with libFuzzer and the sanitizer runtimes
  clang libclang-rt-14-dev
  # single-node Slurm for the sweep runner's Slurm backend test
  slurmctld slurmd slurm-client munge
)

missing=()
status=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${PACKAGES[@]}" 2>/dev/null || true)
for p in "${PACKAGES[@]}"; do
  if ! grep -qE "^${p} ii" <<<"$status"; then
    missing+=("$p")
  fi
done

# The venv: one stamp file holds the requirements.txt it was built from.
# A venv whose python no longer runs, or that lost a package, is rebuilt (find_spec looks
# the packages up without importing them: a few tens of milliseconds).
venv_ok() {
  [ -x "$VENV/bin/python" ] && [ -f "$VENV/.opforge-requirements" ] &&
    cmp -s "$VENV/.opforge-requirements" "$ROOT/requirements.txt" &&
    "$VENV/bin/python" -c 'import importlib.util as u, sys
sys.exit(any(u.find_spec(m) is None for m in ("torch", "triton", "numpy", "h5py", "matplotlib")))' \
      2>/dev/null
}
install_venv() {
  echo "install-deps: building the project venv $VENV from requirements.txt (torch, triton, ...)" >&2
  local t0=$SECONDS
  rm -f "$VENV/.opforge-requirements"
  if [ ! -x "$VENV/bin/python" ] && ! /usr/bin/python3 -m venv "$VENV"; then
    echo "install-deps: error: '/usr/bin/python3 -m venv $VENV' failed" >&2
    exit 1
  fi
  if ! "$VENV/bin/pip" install --disable-pip-version-check -q -r "$ROOT/requirements.txt" \
      >/tmp/opforge-install-venv.log 2>&1; then
    echo "install-deps: error: 'pip install -r requirements.txt' into $VENV failed" >&2
    tail -n 20 /tmp/opforge-install-venv.log >&2
    exit 1
  fi
  if ! "$VENV/bin/python" -c 'import torch, triton, numpy, h5py, matplotlib' 2>>/tmp/opforge-install-venv.log; then
    echo "install-deps: error: the venv $VENV cannot import torch/triton/numpy/h5py/matplotlib" >&2
    tail -n 20 /tmp/opforge-install-venv.log >&2
    exit 1
  fi
  cp "$ROOT/requirements.txt" "$VENV/.opforge-requirements"
  echo "install-deps: venv ready in $((SECONDS - t0)) s ($(du -sh "$VENV" | cut -f1))" >&2
}

if [ ${#missing[@]} -eq 0 ]; then
  venv_ok || install_venv
  exit 0
fi

echo "install-deps: installing ${#missing[@]} missing package(s): ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "install-deps: error: not root and no sudo; install manually: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get update -qq; then
  echo "install-deps: error: 'apt-get update' failed; check network access to the Debian archive" >&2
  exit 1
fi
if ! $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/opforge-install-deps.log 2>&1; then
  echo "install-deps: error: 'apt-get install' failed for: ${missing[*]}" >&2
  tail -n 20 /tmp/opforge-install-deps.log >&2
  exit 1
fi
# Verify: a package apt silently skipped is an error, not a later build failure.
still=()
status=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${missing[@]}" 2>/dev/null || true)
for p in "${missing[@]}"; do
  grep -qE "^${p} ii" <<<"$status" || still+=("$p")
done
if [ ${#still[@]} -ne 0 ]; then
  echo "install-deps: error: still missing after install: ${still[*]}" >&2
  exit 1
fi
echo "install-deps: done" >&2
venv_ok || install_venv
