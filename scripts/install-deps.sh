#!/usr/bin/env bash
# install-deps.sh - idempotently install every Debian package opforge uses.
#
# Fast path: when every package is already installed (checked with one
# dpkg-query call) the script returns at once without touching apt.
# Otherwise it runs apt-get update once and installs only what is missing.
# Needs root (or sudo) only when something is missing.
set -euo pipefail

PACKAGES=(
  # build tools
  build-essential cmake ninja-build ccache pkg-config git
  # libraries
  libsystemc-dev verilator libcurl4-openssl-dev nlohmann-json3-dev
  libboost-program-options-dev libhdf5-dev hdf5-tools zlib1g-dev
  libgtest-dev libgmock-dev libcpp-httplib-dev llvm-16-dev libtorch-dev
  # python side (corpus export, plots, h5py readers in tests)
  python3 python3-torch python3-h5py python3-numpy python3-matplotlib
  # RISC-V references
  binutils-riscv64-unknown-elf gcc-riscv64-unknown-elf qemu-user
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

if [ ${#missing[@]} -eq 0 ]; then
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
