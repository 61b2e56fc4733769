#!/usr/bin/env bash
# bench.sh BUILD_DIR - run every benchmark program that has been built.
set -euo pipefail
BUILD=${1:-build}
found=0
for b in "$BUILD"/bench/*/bench_* "$BUILD"/bench/bench_*; do
  [ -x "$b" ] || continue
  found=1
  echo "== $(basename "$b")"
  "$b"
done
if [ $found -eq 0 ]; then echo "bench: no benchmarks built yet" >&2; fi
