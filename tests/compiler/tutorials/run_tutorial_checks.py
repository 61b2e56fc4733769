#!/usr/bin/env python3
"""run_tutorial_checks.py - the tutorial kernel files against ATen on one executor.

Runs every ATEN_CHECKS row of tutorial_cases.py for the tutorials given (--tutorial 01,03 or
all) as `opforge run FILE --call CALL --check OVERLOAD --executor EXECUTOR` and prints one line
per call: PASS, or FAIL with the last lines opforge printed (the compile error, the trap, the
check's verdict). Exit status 1 when any call fails. ctest runs it once per tutorial and
executor (tutorial_NN_interp, tutorial_NN_chip; tests/compiler/CMakeLists.txt).
"""
import argparse
import importlib.util
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]


def load_cases():
    spec = importlib.util.spec_from_file_location("tutorial_cases", HERE / "tutorial_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ATEN_CHECKS


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opforge", default=str(ROOT / "build/harness/opforge"))
    ap.add_argument("--executor", default="chip", choices=["chip", "interp"])
    ap.add_argument("--arch", default="mtia-2i", help="chip preset (chip executor)")
    ap.add_argument("--tutorial", default="all", help="comma list of tutorial numbers, or all")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per call")
    args = ap.parse_args()
    wanted = None if args.tutorial == "all" else set(args.tutorial.split(","))
    rows = [r for r in load_cases() if wanted is None or r[0] in wanted]
    if not rows:
        print(f"no ATen checks for tutorial(s) {args.tutorial}")
        return 1
    failed = 0
    for tutorial, file, call, overload in rows:
        cmd = [args.opforge, "run", str(HERE / file), "--call", call, "--check", overload,
               "--executor", args.executor, "--counters", "0"]
        if args.executor == "chip":
            cmd += ["--arch", args.arch]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
            out, rc = p.stdout + p.stderr, p.returncode
        except subprocess.TimeoutExpired:
            out, rc = f"timed out after {args.timeout:g} s", -1
        short = call if len(call) <= 90 else call[:87] + "..."
        if rc == 0 and f"check {overload}: ok" in out:
            print(f"PASS {args.executor:6} {file} {short}")
        else:
            failed += 1
            tail = "\n       ".join(out.strip().splitlines()[-4:])
            print(f"FAIL {args.executor:6} {file} {short} (exit {rc})\n       {tail}")
    print(f"tutorial checks ({args.executor}): {len(rows) - failed} of {len(rows)} passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
