#!/usr/bin/env python3
"""plot-results.py - matplotlib figures of an opforge sweep results file.

usage: plot-results.py RESULTS.h5 --out DIR   (run by `opforge plot`)

Reads the file with h5py (layout in docs/results.md) and writes PNGs:
  roofline.png          instruction roofline per kernel (workload): instructions per
                        cycle against instructions per DRAM byte, with the issue roof
                        (one instruction per PE per cycle) and the DRAM roof of each
                        configuration
  sweep_<field>.png     cycles against a single swept field, a line per workload
  heatmap_<a>_x_<b>.png cycles over two swept fields, a panel per workload
  timeline_point<N>.png sampled counters (increments per interval) of point N
  ops_point<N>.png      per-op cycles and status of aten/corpus/trace workloads
Prints the files written.
"""
import argparse
import json
import math
import os
import re
import sys

import h5py
import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

plt.rcParams.update({"font.size": 9, "axes.titlesize": 10, "figure.dpi": 130})


def s(x):
    return x.decode() if isinstance(x, bytes) else str(x)


class Malformed(Exception):
    """A results file h5py reads whose contents are not what a sweep writes."""

    def __init__(self, obj, cause):
        super().__init__("%s: %s: %s" % (obj, type(cause).__name__, cause))


def load(path):
    f = h5py.File(path, "r")
    pts = []
    for key in sorted(f["points"].keys(), key=int):
        try:
            pts.append(load_point(f["points"][key]))
        except Exception as e:  # anything a damaged or foreign point raises
            raise Malformed("/points/%s" % key, e) from e
    try:
        name = s(f["meta"].attrs["scenario_name"])
    except Exception as e:
        raise Malformed("/meta", e) from e
    return name, pts


def load_point(g):
    a = g.attrs
    p = {"index": int(a["index"]), "workload": s(a["workload"]), "status": s(a["status"]),
         "reason": s(a["reason"]), "cycles": int(a["cycles"]),
         "instructions": int(a["instructions"]),
         "config": json.loads(s(a["config"])) if s(a["config"]) not in ("", "null") else {},
         "axes": json.loads(s(a["axis_values"])) if s(a["axis_values"]) else {},
         "counters": {}}
    if "counters" in g:
        for n, v in g["counters"][:]:
            p["counters"][s(n)] = int(v)
    if "trace" in g:
        names = g["trace"].attrs["names"]
        p["trace_names"] = json.loads(s(names)) if isinstance(names, (str, bytes)) else [s(n) for n in names]
        p["trace_cycles"] = g["trace"]["cycles"][:]
        p["trace_values"] = g["trace"]["values"][:]
    if "ops" in g:
        p["ops"] = [(s(r["op"]), s(r["status"]), int(r["cycles"])) for r in g["ops"][:]]
    return p


def cfg(c, path, default):
    for k in path.split("."):
        if not isinstance(c, dict) or k not in c:
            return default
        c = c[k]
    return c if isinstance(c, (int, float)) else default


def total(counters, prefix, suffix):
    return sum(v for n, v in counters.items() if n.startswith(prefix) and n.endswith(suffix))


def label_of(axes):
    return ", ".join("%s=%s" % (k.split(".")[-1] if len(axes) > 2 else k, v) for k, v in axes.items()) or "base"


def roofline(name, pts, out):
    # Points that ran: ok ones and failed ones with cycles (e.g. a wrong result) - drawn hollow.
    ok = [p for p in pts if p["cycles"] > 0 and p["instructions"] > 0]
    if not ok:
        return None
    kernels = sorted({p["workload"] for p in ok}, key=lambda w: [q["workload"] for q in ok].index(w))
    n = len(kernels)
    cols = min(3, n)
    rows = math.ceil(n / cols)
    fig, axs = plt.subplots(rows, cols, figsize=(max(6.4, 5.2 * cols), 4.4 * rows + 0.4), squeeze=False)
    for i, w in enumerate(kernels):
        ax = axs[i // cols][i % cols]
        roofs = {}
        mine = [q for q in ok if q["workload"] == w]
        xs_pts, ys_pts = [], []
        for k, p in enumerate(mine):
            c = p["config"]
            pes = cfg(c, "pe_grid.rows", 1) * cfg(c, "pe_grid.cols", 1)
            bpc = cfg(c, "dram.bandwidth_gbps", 0) / cfg(c, "clock_ghz", 1)
            dram = total(p["counters"], "dram.ch[", ".bytes_read") + total(p["counters"], "dram.ch[", ".bytes_written")
            ipc = p["instructions"] / p["cycles"]
            ai = p["instructions"] / dram if dram else None
            roofs[(pes, round(bpc, 3))] = True
            x = ai if ai else 1e3
            xs_pts.append(x)
            ys_pts.append(ipc)
            color = "C%d" % (k % 10)
            failed = p["status"] != "ok"
            # Earlier points larger, so points at the same place stay visible as rings.
            size = 30 + 90 * (len(mine) - k) / max(1, len(mine))
            ax.scatter([x], [ipc], s=size, zorder=3 + k, marker="o" if ai else ">",
                       facecolors="none" if failed else color, edgecolors=color, linewidths=1.5,
                       label=label_of(p["axes"]) + (" (failed)" if failed else "") +
                       ("" if ai else " (no DRAM traffic)"))
        xs = np.logspace(-4, 4, 200)
        for (pes, bpc) in list(roofs)[:6]:
            ax.plot(xs, np.minimum(pes, xs * bpc) if bpc else np.full_like(xs, pes), "--", lw=1,
                    color="gray", zorder=1)
            ax.text(9e3, pes * 1.12, "issue roof: %d PEs x 1 instr/cycle" % pes, fontsize=7,
                    color="dimgray", ha="right")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(1e-4, 1e4)
        top = max(pes for pes, _ in roofs) if roofs else 1
        ax.set_ylim(min(min(ys_pts) / 5, top / 1e3), top * 3)
        fig.canvas.draw()
        labelled = set()
        for (pes, bpc) in list(roofs)[:6]:
            if not bpc or bpc in labelled:
                continue
            labelled.add(bpc)
            # Label along the sloped part, at the angle the line has on screen.
            xt = max(ax.get_ylim()[0] * 3 / bpc, pes / bpc / 100)
            (x0, y0), (x1, y1) = ax.transData.transform([(xt, xt * bpc), (xt * 10, xt * bpc * 10)])
            angle = math.degrees(math.atan2(y1 - y0, x1 - x0))
            ax.text(xt * 1.3, xt * bpc * 2.2, "DRAM roof %.0f B/cycle" % bpc, fontsize=7,
                    color="dimgray", rotation=angle, rotation_mode="anchor")
        ax.set_xlabel("arithmetic intensity: instructions per DRAM byte (log)")
        ax.set_ylabel("instructions per cycle, whole chip (log)")
        ax.set_title("roofline: %s" % w)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=7, loc="lower right", title="point (hollow: point failed)",
                  title_fontsize=7)
    for j in range(n, rows * cols):
        axs[j // cols][j % cols].axis("off")
    fig.suptitle("%s: instruction roofline per workload\ndashed: issue and DRAM roofs; "
                 "a point below them is limited by latency, SRAM or NoC" % name,
                 fontsize=9 if cols == 1 else 10)
    fig.tight_layout()
    path = os.path.join(out, "roofline.png")
    fig.savefig(path)
    plt.close(fig)
    return path


def sweeps(name, pts, out):
    files = []
    fields = []
    for p in pts:
        for k in p["axes"]:
            if k not in fields:
                fields.append(k)
    workloads = []
    for p in pts:
        if p["workload"] not in workloads:
            workloads.append(p["workload"])
    varying = [f for f in fields if len({json.dumps(p["axes"].get(f)) for p in pts}) > 1]
    # Zipped fields move together; keep the first of each group of identical orderings.
    distinct = []
    for f in varying:
        key = [json.dumps(p["axes"].get(f)) for p in pts]
        if not any(key == [json.dumps(p["axes"].get(g)) for p in pts] for g in distinct):
            distinct.append(f)
    if len(distinct) == 1:
        f = distinct[0]
        fig, ax = plt.subplots(figsize=(7.2, 4.4))
        zipped = [g for g in varying if [json.dumps(p["axes"].get(g)) for p in pts] ==
                  [json.dumps(p["axes"].get(f)) for p in pts]]
        order = []
        for p in pts:
            lab = " / ".join(str(p["axes"][g]) for g in zipped)
            if lab not in order:
                order.append(lab)
        allc = []
        any_failed = False
        for k, w in enumerate(workloads):
            sel = [p for p in pts if p["workload"] == w and p["cycles"] > 0]
            xs = [order.index(" / ".join(str(p["axes"][g]) for g in zipped)) for p in sel]
            ys = [p["cycles"] for p in sel]
            allc += ys
            line, = ax.plot(xs, ys, "-", color="C%d" % (k % 10), label=w, lw=1.4)
            for x, y, p in zip(xs, ys, sel):
                bad = p["status"] != "ok"
                any_failed |= bad
                ax.plot([x], [y], "x" if bad else "o", color=line.get_color(), ms=8 if bad else 5,
                        mew=2 if bad else 1)
        ax.set_xticks(range(len(order)))
        ax.set_xticklabels(order)
        ax.set_xlabel(" / ".join(zipped) + ("  (zipped)" if len(zipped) > 1 else ""))
        ax.set_ylabel("kernel cycles")
        if allc and max(allc) / max(1, min(allc)) > 20:
            ax.set_yscale("log")
            ax.set_ylabel("kernel cycles (log)")
        else:
            ax.set_ylim(0, max(allc) * 1.08 if allc else 1)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8, title="o ok, x failed its check" if any_failed else None,
                  title_fontsize=8, loc="best")
        ax.set_title("%s: cycles per workload against %s" % (name, zipped[0]))
        fig.tight_layout()
        path = os.path.join(out, "sweep_%s.png" % re.sub(r"[^A-Za-z0-9_]+", "_", f))
        fig.savefig(path)
        plt.close(fig)
        files.append(path)
    for ia in range(len(distinct)):
        for ib in range(ia + 1, len(distinct)):
            a, b = distinct[ia], distinct[ib]
            av = sorted({json.dumps(p["axes"][a]) for p in pts}, key=lambda v: (isinstance(json.loads(v), str), json.loads(v)))
            bv = sorted({json.dumps(p["axes"][b]) for p in pts}, key=lambda v: (isinstance(json.loads(v), str), json.loads(v)))
            cols = min(3, len(workloads))
            rows = math.ceil(len(workloads) / cols)
            fig, axs = plt.subplots(rows, cols, figsize=(1.2 + 0.9 * len(av) * cols + 1.5 * cols, 1.2 + 0.6 * len(bv) * rows + 1.2 * rows), squeeze=False)
            for i, w in enumerate(workloads):
                ax = axs[i // cols][i % cols]
                grid = np.full((len(bv), len(av)), np.nan)
                # Mean over the other axes (one value when these are the only two).
                acc = {}
                for p in pts:
                    if p["workload"] != w or p["cycles"] <= 0:
                        continue
                    key = (bv.index(json.dumps(p["axes"][b])), av.index(json.dumps(p["axes"][a])))
                    acc.setdefault(key, []).append(p["cycles"])
                for (r, c), v in acc.items():
                    grid[r, c] = float(np.mean(v))
                if not np.isfinite(grid).any():
                    ax.text(0.5, 0.5, "no successful point", ha="center", va="center",
                            transform=ax.transAxes, color="gray")
                    ax.set_title(w)
                    ax.set_xticks([])
                    ax.set_yticks([])
                    continue
                im = ax.imshow(grid, cmap="viridis_r", aspect="auto", origin="lower")
                ax.set_xticks(range(len(av)))
                ax.set_xticklabels([json.loads(v) for v in av], rotation=30, ha="right", fontsize=8)
                ax.set_yticks(range(len(bv)))
                ax.set_yticklabels([json.loads(v) for v in bv], fontsize=8)
                ax.set_xlabel(a)
                ax.set_ylabel(b)
                ax.set_title(w)
                finite = grid[np.isfinite(grid)]
                mid = (finite.min() + finite.max()) / 2 if finite.size else 0
                for r in range(len(bv)):
                    for c in range(len(av)):
                        if np.isfinite(grid[r, c]):
                            ax.text(c, r, "%.3g" % grid[r, c], ha="center", va="center", fontsize=7,
                                    color="white" if grid[r, c] > mid else "black")
                fig.colorbar(im, ax=ax, label="cycles" + (" (mean over other axes)" if len(distinct) > 2 else ""))
            for j in range(len(workloads), rows * cols):
                axs[j // cols][j % cols].axis("off")
            fig.suptitle("%s: cycles over %s x %s" % (name, a, b))
            fig.tight_layout()
            path = os.path.join(out, "heatmap_%s_x_%s.png" % (re.sub(r"[^A-Za-z0-9_]+", "_", a),
                                                               re.sub(r"[^A-Za-z0-9_]+", "_", b)))
            fig.savefig(path)
            plt.close(fig)
            files.append(path)
    return files


def group_name(n):
    # pe[3][5].dma.bytes_read -> pe[*].dma.bytes_read
    return re.sub(r"\[\d+\]", "[*]", n)


def timelines(name, pts, out, limit=6):
    files = []
    for p in [q for q in pts if "trace_names" in q and len(q["trace_cycles"]) > 1][:limit]:
        cyc = np.asarray(p["trace_cycles"], dtype=float)
        vals = np.asarray(p["trace_values"], dtype=float)
        inc = np.diff(vals, axis=0)
        groups = {}
        for k, n in enumerate(p["trace_names"]):
            groups.setdefault(group_name(n), []).append(k)
        g = list(groups.items())[:8]
        fig, axs = plt.subplots(len(g), 1, figsize=(7.5, 1.9 * len(g) + 0.6), sharex=True, squeeze=False)
        for ax, (gn, ks) in zip(axs[:, 0], g):
            for k in ks[:16]:
                ax.plot(cyc[1:], inc[:, k], lw=1, alpha=0.8)
            if len(ks) > 1:
                ax.plot(cyc[1:], inc[:, ks].sum(axis=1), color="black", lw=1.6, label="sum of %d" % len(ks))
                ax.legend(fontsize=7, loc="upper right")
            ax.set_ylabel("per interval", fontsize=8)
            ax.set_title(gn, fontsize=9, loc="left")
            ax.grid(True, alpha=0.3)
        axs[-1, 0].set_xlabel("chip cycle")
        fig.suptitle("%s point %d (%s, %s): sampled counters" % (name, p["index"], p["workload"], label_of(p["axes"])))
        fig.tight_layout()
        path = os.path.join(out, "timeline_point%d.png" % p["index"])
        fig.savefig(path)
        plt.close(fig)
        files.append(path)
    return files


def ops(name, pts, out, limit=6):
    files = []
    colors = {"ok": "tab:green", "failed": "tab:red", "unsupported": "tab:gray"}
    for p in [q for q in pts if len(q.get("ops") or []) > 1][:limit]:
        rows = p["ops"]
        # Aggregate by op (a trace repeats ops); keep call order of first appearance.
        agg = {}
        for op, st, c in rows:
            a = agg.setdefault(op, {"cycles": 0, "calls": 0, "status": set()})
            a["cycles"] += c
            a["calls"] += 1
            a["status"].add(st)
        # Most cycles first; ops without cycles (views, no kernel) after, in call order.
        names = sorted(agg, key=lambda n: -agg[n]["cycles"])[:40]
        for n in agg:
            agg[n]["by"] = {}
        for op, st, c in rows:
            agg[op]["by"][st] = agg[op]["by"].get(st, 0) + 1
        fig, ax = plt.subplots(figsize=(8.5, 0.3 * len(names) + 1.8))
        ys = np.arange(len(names))
        cyc = [max(agg[n]["cycles"], 0) for n in names]
        col = [colors["failed"] if "failed" in agg[n]["status"] else
               colors["unsupported"] if "unsupported" in agg[n]["status"] else colors["ok"] for n in names]
        ax.barh(ys, cyc, color=col)
        ax.set_yticks(ys)
        ax.set_yticklabels(["%s x%d" % (n.replace("aten::", ""), agg[n]["calls"]) for n in names], fontsize=8)
        ax.invert_yaxis()
        top = max(cyc) if cyc and max(cyc) > 0 else 1
        ax.set_xlim(0, top * 1.45)
        words = {"ok": "ok", "failed": "failed", "unsupported": "no kernel"}
        for y, n, c in zip(ys, names, cyc):
            parts = ["%d %s" % (k, words.get(st, st)) for st, k in sorted(agg[n]["by"].items())]
            note = ", ".join(parts)
            if c == 0 and agg[n]["by"].get("ok"):
                note += " (no launch: view)" if not agg[n]["by"].get("failed") else ""
            ax.text(c + top * 0.01, y, "%s  %s" % ("{:,}".format(c) if c else "0", note), va="center",
                    fontsize=7, color=colors["failed"] if "failed" in agg[n]["status"] else
                    "dimgray" if "unsupported" in agg[n]["status"] else "black")
        ax.set_xlabel("kernel cycles on the chip, summed over the op's calls")
        okc = sum(c for _, st, c in rows if st == "ok")
        allc = sum(c for _, _, c in rows)
        clock = cfg(p["config"], "clock_ghz", 1)
        by = {}
        for _, st, _ in rows:
            by[st] = by.get(st, 0) + 1
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: "{:,.0f}".format(v)))
        ax.set_title("%s point %d (%s): %d calls - %d ok, %d failed, %d without kernel\n"
                     "total %s cycles = %.1f us at %g GHz (ok calls: %s cycles)\n"
                     "bars: green ok, red failed, gray no kernel"
                     % (name, p["index"], p["workload"], len(rows), by.get("ok", 0), by.get("failed", 0),
                        by.get("unsupported", 0), "{:,}".format(allc), allc / (clock * 1e3), clock,
                        "{:,}".format(okc)), fontsize=9)
        ax.grid(True, axis="x", alpha=0.3)
        fig.tight_layout()
        path = os.path.join(out, "ops_point%d.png" % p["index"])
        fig.savefig(path)
        plt.close(fig)
        files.append(path)
    return files


def main():
    ap = argparse.ArgumentParser(description="matplotlib figures of an opforge sweep results file")
    ap.add_argument("results")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    # Exit status 1 always comes with exactly one error line (opforge plot adds none).
    try:
        name, pts = load(a.results)
    except Malformed as e:
        return fail("%s: %s" % (a.results, e))
    except (OSError, KeyError) as e:
        return fail("%s: not a readable sweep results file (%s)" % (a.results, e))
    try:
        os.makedirs(a.out, exist_ok=True)
        files = []
        r = roofline(name, pts, a.out)
        if r:
            files.append(r)
        files += sweeps(name, pts, a.out)
        files += timelines(name, pts, a.out)
        files += ops(name, pts, a.out)
    except Exception as e:  # a value the figures cannot use
        return fail("%s: cannot plot it: %s: %s" % (a.results, type(e).__name__, e))
    for f in files:
        print(f)
    if not files:
        return fail("%s: no successful point to plot" % a.results)
    return 0


def fail(message):
    print("opforge plot: error: " + " ".join(str(message).split()), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
