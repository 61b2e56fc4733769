#!/usr/bin/env python3
"""doc-figures.py - the figures the docs quote, regenerated from fresh sweeps.

usage: doc-figures.py [--check] [--list] [--docs DIR] [--opforge BIN] [--jobs N]
                      [--results SCENARIO=FILE.h5]...

Docs carry generated blocks between markers:

    <!-- figures SCENARIO [SCENARIO...] -->
    ...generated table, never edited by hand...
    <!-- /figures -->

For every marker in DIR/*.md and DIR/**/*.md (default: docs/ and README.md of
the repository), each named scenario (scenarios/SCENARIO.json) is swept fresh
with `opforge sweep --fresh` into a temporary directory and the block is
rewritten with one table row per scenario: points and their status, and per
workload the cycles (min..max over the sweep, with the axis values where they
occur) or, for traces, the total cycles, simulated time, calls and the ops
with most cycles. Host wall times are machine-dependent and not generated.

  --check     regenerate and compare; exit 1 naming every stale block (nothing
              is written)
  --list      print each marker (file and scenarios) and exit; no sweeps
  --results   use an existing results file for a scenario instead of sweeping
  --opforge   the binary (default: build/harness/opforge of the repository)
Exit status: 0 done (or --check: up to date), 1 stale blocks or a failed sweep,
2 bad usage or a marker naming no shipped scenario.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

import h5py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARKER = re.compile(r"<!-- figures ([A-Za-z0-9_ -]+?) -->\n(.*?)<!-- /figures -->", re.S)


def s(x):
    return x.decode() if isinstance(x, bytes) else str(x)


def doc_files(args):
    if args.docs:
        return sorted(glob.glob(os.path.join(args.docs, "**", "*.md"), recursive=True))
    return sorted(glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True)) + [
        os.path.join(ROOT, "README.md")]


def markers(files):
    """(file, scenarios, span of the block's body) for every marker."""
    out = []
    for f in files:
        text = open(f).read()
        for m in MARKER.finditer(text):
            out.append((f, m.group(1).split(), m.span(2)))
    return out


def kilo(c):
    if c >= 1e6:
        return "%.2f M" % (c / 1e6)
    if c >= 1e4:
        return "%.1fk" % (c / 1e3)
    return "{:,}".format(c)


def fmt_value(v):
    if isinstance(v, float) and v == int(v):
        v = int(v)
    if isinstance(v, int) and v >= 65536 and v % 1024 == 0:
        return "%dK" % (v // 1024) if v % (1 << 20) else "%dM" % (v >> 20)
    return str(v)


def summarize(name, path):
    """One table row: | scenario | points | figures |."""
    f = h5py.File(path, "r")
    pts = []
    for key in sorted(f["points"].keys(), key=int):
        a = f["points"][key].attrs
        p = {"workload": s(a["workload"]), "status": s(a["status"]), "cycles": int(a["cycles"]),
             "axes": json.loads(s(a["axis_values"])) if s(a["axis_values"]) else {},
             "config": json.loads(s(a["config"])) if s(a["config"]) not in ("", "null") else {}}
        g = f["points"][key]
        if "ops" in g:
            p["ops"] = [(s(r["op"]), s(r["status"]), int(r["cycles"])) for r in g["ops"][:]]
        pts.append(p)
    by = {}
    for p in pts:
        by[p["status"]] = by.get(p["status"], 0) + 1
    status = "%d: %s" % (len(pts), ", ".join("%d %s" % (n, st) for st, n in sorted(by.items())))
    figs = []
    workloads = []
    for p in pts:
        if p["workload"] not in workloads:
            workloads.append(p["workload"])
    for w in workloads:
        mine = [p for p in pts if p["workload"] == w and p["cycles"] > 0]
        if not mine:
            figs.append("%s: no point ran" % w)
            continue
        if len(mine) == 1 and mine[0].get("ops"):
            p = mine[0]
            ops = p["ops"]
            total = sum(c for _, _, c in ops)
            clock = p["config"].get("clock_ghz", 1) or 1
            agg = {}
            for op, _, c in ops:
                agg[op] = agg.get(op, 0) + c
            top = sorted(agg, key=lambda o: -agg[o])[:3]
            ok = sum(1 for _, st, _ in ops if st == "ok")
            figs.append("%s: %s cycles = %.0f us at %g GHz, %d calls (%d ok); most cycles: %s" % (
                w, kilo(total), total / (clock * 1e3), clock, len(ops), ok,
                ", ".join("%s %.0f%%" % (o.replace("aten::", ""), 100.0 * agg[o] / total) for o in top)))
            continue
        where = lambda p: "/".join(fmt_value(v) for v in p["axes"].values())
        failed = [where(p) for p in pts if p["workload"] == w and p["status"] != "ok"]
        failed = " (failed its check at %s)" % ", ".join(failed) if failed else ""
        lo = min(mine, key=lambda p: p["cycles"])
        hi = max(mine, key=lambda p: p["cycles"])
        if lo is hi or lo["cycles"] == hi["cycles"]:
            figs.append("%s: %s" % (w, kilo(lo["cycles"])) + (" (every point)" if len(mine) > 1 else "") + failed)
        else:
            figs.append("%s: %s (%s) .. %s (%s)%s" % (w, kilo(lo["cycles"]), where(lo), kilo(hi["cycles"]),
                                                      where(hi), failed))
    fields = []
    for p in pts:
        for k in p["axes"]:
            if k not in fields:
                fields.append(k)
    axes = " (values: %s)" % "/".join(fields) if fields else ""
    return "| `%s` | %s | %s%s |" % (name, status, "; ".join(figs), axes)


def render(scenarios, results):
    rows = ["| scenario | points | cycles per workload: fastest .. slowest point (its axis values) |",
            "|---|---|---|"]
    rows += [summarize(n, results[n]) for n in scenarios]
    return "\n".join(rows) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--docs")
    ap.add_argument("--opforge", default=os.path.join(ROOT, "build", "harness", "opforge"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--results", action="append", default=[])
    a = ap.parse_args()
    found = markers(doc_files(a))
    bad = [(f, n) for f, names, _ in found for n in names
           if not os.path.exists(os.path.join(ROOT, "scenarios", n + ".json"))]
    for f, n in bad:
        print("doc-figures: error: %s: marker names '%s', which is not a shipped scenario "
              "(scenarios/%s.json)" % (f, n, n), file=sys.stderr)
    if bad:
        return 2
    if a.list:
        for f, names, _ in found:
            print("%s: %s" % (os.path.relpath(f, ROOT) if f.startswith(ROOT) else f, " ".join(names)))
        return 0
    results = {}
    for r in a.results:
        if "=" not in r:
            print("doc-figures: error: --results needs SCENARIO=FILE.h5, got '%s'" % r, file=sys.stderr)
            return 2
        k, v = r.split("=", 1)
        results[k] = v
    wanted = []
    for _, names, _ in found:
        wanted += [n for n in names if n not in wanted and n not in results]
    tmp = tempfile.mkdtemp(prefix="doc-figures-")
    for n in wanted:
        out = os.path.join(tmp, n + ".h5")
        cmd = [a.opforge, "sweep", os.path.join(ROOT, "scenarios", n + ".json"), "--fresh", "--quiet",
               "--jobs", str(a.jobs), "--out", out]
        print("doc-figures: sweeping %s" % n, file=sys.stderr)
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if not os.path.exists(out):
            print("doc-figures: error: `%s` wrote no results (exit %d): %s"
                  % (" ".join(cmd), r.returncode, r.stderr.strip()[-400:]), file=sys.stderr)
            return 1
        results[n] = out
    stale = []
    for f in sorted({f for f, _, _ in found}):
        text = open(f).read()
        new = MARKER.sub(lambda m: "<!-- figures %s -->\n%s<!-- /figures -->" % (
            m.group(1), render(m.group(1).split(), results)), text)
        if new != text:
            stale.append(f)
            if not a.check:
                with open(f, "w") as fp:
                    fp.write(new)
    for f in stale:
        print("%s %s" % ("stale:" if a.check else "updated:", f))
    if a.check and stale:
        print("doc-figures: %d file(s) quote figures that differ from a fresh run; "
              "run `make doc-figures` to regenerate them" % len(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
