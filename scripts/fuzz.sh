#!/usr/bin/env bash
# fuzz.sh - `make fuzz`: build the libFuzzer targets (the `fuzz` preset, clang, ASan +
# UBSan, build-fuzz/) and run each for FUZZ_SECONDS (default 60) over a scratch copy of
# its seed inputs (tests/fuzz/corpus/<name>/, the tree files named in
# tests/fuzz/CMakeLists.txt, tests/fuzz/regressions/<name>/). One line per target:
#   fuzz NAME: EXECS execs in S s, R execs/s, corpus A -> B, N crashes
# Crash, timeout and out-of-memory inputs are kept in build-fuzz/fuzz-artifacts/NAME/;
# the exit status is 1 when any target found one. docs/fuzzing.md.
#   FUZZ_SECONDS=N   seconds per target      FUZZ_TARGETS="asm lint"   a subset
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER=${FUZZ_SECONDS:-60}
JOBS=${JOBS:-$(nproc)}
BUILD=build-fuzz

cmake --preset fuzz >/dev/null || exit 2
cmake --build "$BUILD" -j "$JOBS" --target fuzz_all || exit 2

known=$(cd "$BUILD/tests/fuzz" && ls fuzz_*.seeds | sed 's/^fuzz_//; s/\.seeds$//' | tr '\n' ' ')
targets=${FUZZ_TARGETS:-$known}
for t in $targets; do
  case " $known" in
    *" $t "*) ;;
    *) echo "fuzz: error: FUZZ_TARGETS: no target '$t' (targets: ${known% })" >&2; exit 2 ;;
  esac
done
case "$SECONDS_PER" in
  '' | *[!0-9]* | 0) echo "fuzz: error: FUZZ_SECONDS: '$SECONDS_PER' is not a positive whole number of seconds" >&2; exit 2 ;;
esac
work="$BUILD/fuzz-work"
failed=0
summary=()
for t in $targets; do
  exe="$BUILD/tests/fuzz/fuzz_$t"
  [ -x "$exe" ] || { echo "fuzz $t: no binary $exe" >&2; failed=1; continue; }
  corpus="$work/$t"
  artifacts="$BUILD/fuzz-artifacts/$t"
  rm -rf "$corpus"
  mkdir -p "$corpus" "$artifacts"
  # The scratch corpus starts from the seeds (files, or the files in seed folders).
  while IFS= read -r seed; do
    [ -n "$seed" ] || continue
    if [ -d "$seed" ]; then
      find "$seed" -type f ! -name '.gitkeep' -exec cp -t "$corpus" {} +
    elif [ -f "$seed" ]; then
      cp "$seed" "$corpus/"
    fi
  done < "$BUILD/tests/fuzz/fuzz_$t.seeds"
  before=$(find "$corpus" -type f | wc -l)
  log="$BUILD/fuzz-artifacts/$t.log"
  start=$(date +%s.%N)
  "$exe" "$corpus" -max_total_time="$SECONDS_PER" -rss_limit_mb=2048 -timeout=10 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1
  rc=$?
  end=$(date +%s.%N)
  after=$(find "$corpus" -type f | wc -l)
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  execs=${execs:-0}
  secs=$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.0f", b-a}')
  rate=$(awk -v e="$execs" -v s="$secs" 'BEGIN{r = (s>0? e/s : 0); printf (r < 10 ? "%.1f" : "%.0f"), r}')
  crashes=$(find "$artifacts" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)
  line="fuzz $t: $execs execs in $secs s, $rate execs/s, corpus $before -> $after, $crashes crashes"
  if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    line="$line (exit $rc; inputs in $artifacts/, log $log)"
    failed=1
  fi
  echo "$line"
  summary+=("$line")
done
echo "fuzz: ${#summary[@]} targets, $SECONDS_PER s each: $([ $failed -eq 0 ] && echo 'no crashes' || echo 'FINDINGS (see above)')"
exit $failed
