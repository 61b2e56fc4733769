#!/bin/bash
# same_code.sh BENCH_LLVM_IR "FLAGS_A" "FLAGS_B" FILE.ll...: compiles every LLVM IR file
# with bench_llvm_ir under two configurations, one fresh process per file and
# configuration (LLVM 16's register choice can depend on the process's
# history), and names the files whose objects differ.
# Example: same_code.sh build/bench/compile/bench_llvm_ir "--no-switches --no-pm-reuse" "" /tmp/ir/*.ll
set -e
bin=$1; a=$2; b=$3; shift 3
out=$(mktemp -d)
for f in "$@"; do
  "$bin" --out "$out/a" $a "$f" > /dev/null
  "$bin" --out "$out/b" $b "$f" > /dev/null
done
n=0; d=0
for o in "$out"/a/*.o; do
  n=$((n + 1))
  cmp -s "$o" "$out/b/$(basename "$o")" || { d=$((d + 1)); echo "differs: $(basename "$o" .o)"; }
done
echo "$d of $n objects differ"
rm -rf "$out"
