#!/usr/bin/env python3
"""plot-results.py - matplotlib figures of an opforge sweep results file.

usage: plot-results.py RESULTS.h5 --out DIR   (run by `opforge plot`)

Reads the file with h5py (layout in docs/results.md) and writes PNGs. Every title
names the scenario, the arch preset, timing, overrides and the fields held fixed.
  roofline.png          instruction roofline per kernel (workload): instructions per
                        cycle against instructions per DRAM byte, each configuration's
                        roof (issue, DRAM) in its own line style, listed in the legend
                        outside the data; points numbered, stacked ones drawn as rings
  sweep_<axis>.png      cycles against the sweep axis with the most values (zipped
                        fields are one axis: a line, never a diagonal heatmap), a line
                        per workload, or with more axes a line per combination of the
                        others and a panel per workload
  heatmap_<a>_x_<b>.png with exactly two axes: cycles over both, a panel per workload,
                        one colour scale (and colour bar) for the whole figure
  timeline_point<N>.png sampled counters (increments per interval) of every sampled point
  ops_point<N>.png      per-op cycles and status of aten/corpus/trace workloads (every
                        such point; more than 40 ops: the title says how many are shown)
  pareto.png            simulated time against energy and against area per point, the
                        Pareto front of each workload joined (summary columns energy_j,
                        area_mm2; skipped with a note when the results lack them)
  figures.json          what each figure is (kind, colour scales, axes) and the notes
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
import matplotlib.colors
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
    meta = {"name": name, "arch": "?", "timing": "", "overrides": {}, "groups": None}
    try:
        doc = json.loads(s(f["meta"].attrs["scenario"]))
        if isinstance(doc, dict):
            meta["arch"] = os.path.basename(str(doc.get("arch", "mtia-2i"))).replace(".json", "")
            meta["timing"] = str(doc.get("timing", ""))
            if isinstance(doc.get("overrides"), dict):
                meta["overrides"] = doc["overrides"]
            groups = []
            for ax in doc.get("sweep") or []:
                if isinstance(ax, dict) and isinstance(ax.get("zip"), dict):
                    groups.append(list(ax["zip"].keys()))
                elif isinstance(ax, dict) and "field" in ax:
                    groups.append([str(ax["field"])])
            meta["groups"] = groups
    except Exception:  # an older or foreign file: the axes are inferred from the points
        pass
    # Summary columns by point (energy, power, area when the run wrote them).
    meta["columns"] = {}
    try:
        sm = f["summary"][:]
        for col in ("energy_j", "avg_power_w", "perf_per_w", "area_mm2"):
            if col in sm.dtype.names:
                meta["columns"][col] = {int(r["point"]): float(r[col]) for r in sm}
    except Exception:
        pass
    return name, meta, pts


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


def fmt_value(v):
    if isinstance(v, float) and v == int(v) and abs(v) < 1e15:
        v = int(v)
    if isinstance(v, int) and v >= 65536 and v % 1024 == 0:
        return "%dK" % (v // 1024) if v % (1 << 20) else "%dM" % (v >> 20)
    return str(v)


# Every figure written, with what a test or a reader needs to know about it
# (kind, colour scales, axes); saved as figures.json beside the PNGs.
FIGURES = []


def save(fig, out, filename, **info):
    path = os.path.join(out, filename)
    fig.savefig(path)
    plt.close(fig)
    info["file"] = filename
    FIGURES.append(info)
    return path


def context(meta, fixed=None):
    """The configuration a figure shows: arch, timing, overrides, fixed fields."""
    parts = ["arch %s" % meta["arch"]]
    if meta["timing"]:
        parts.append("timing %s" % meta["timing"])
    for k, v in meta["overrides"].items():
        parts.append("%s=%s" % (k, fmt_value(v)))
    for k, v in (fixed or {}).items():
        parts.append("%s=%s" % (k, fmt_value(v)))
    return ", ".join(parts)


def axis_groups(meta, pts):
    """The sweep's axes as groups of fields (zipped fields together) that vary."""
    fields = []
    for p in pts:
        for k in p["axes"]:
            if k not in fields:
                fields.append(k)
    groups = meta["groups"]
    if groups is None or any(f not in fields for g in groups for f in g):
        # No scenario document: fields whose values determine each other are zipped.
        groups = []
        for f in fields:
            for g in groups:
                a = {}
                ok = True
                for p in pts:
                    key = (json.dumps(p["axes"].get(g[0])), json.dumps(p["axes"].get(f)))
                    ok &= a.setdefault(key[0], key[1]) == key[1]
                b = {}
                for p in pts:
                    key = (json.dumps(p["axes"].get(f)), json.dumps(p["axes"].get(g[0])))
                    ok &= b.setdefault(key[0], key[1]) == key[1]
                if ok:
                    g.append(f)
                    break
            else:
                groups.append([f])
    varying, fixed = [], {}
    for g in groups:
        vals = {tuple(json.dumps(p["axes"].get(f)) for f in g) for p in pts}
        if len(vals) > 1:
            varying.append(g)
        else:
            for f in g:
                if pts and f in pts[0]["axes"]:
                    fixed[f] = pts[0]["axes"][f]
    return varying, fixed


def step_of(p, g):
    return " / ".join(fmt_value(p["axes"].get(f)) for f in g)


def steps(pts, g):
    """The values of axis group g in sweep order (numeric order for a numeric single field)."""
    order = []
    for p in pts:
        v = step_of(p, g)
        if v not in order:
            order.append(v)
    if len(g) == 1 and all(isinstance(p["axes"].get(g[0]), (int, float)) for p in pts):
        first = {}
        for p in pts:
            first.setdefault(step_of(p, g), p["axes"][g[0]])
        order.sort(key=lambda v: first[v])
    return order


def group_name(g):
    return " / ".join(g) + ("  (zipped)" if len(g) > 1 else "")


def file_part(g):
    return re.sub(r"[^A-Za-z0-9_]+", "_", "+".join(g) if len(g) > 1 else g[0])


def roofline(name, meta, pts, out):
    # Points that ran: ok ones and failed ones with cycles (e.g. a wrong result) - drawn hollow.
    ran = [p for p in pts if p["cycles"] > 0 and p["instructions"] > 0]
    if not ran:
        return None
    kernels = []
    for p in ran:
        if p["workload"] not in kernels:
            kernels.append(p["workload"])
    groups, fixed = axis_groups(meta, pts)
    # One point per workload (no sweep axis): every workload in one panel, named in the legend.
    single = all(sum(1 for q in ran if q["workload"] == w) == 1 for w in kernels)
    panels = [("every workload, one point each", ran)] if single else [
        (w, [q for q in ran if q["workload"] == w]) for w in kernels]
    n = len(panels)
    cols = min(2, n)
    rows = math.ceil(n / cols)
    fig, axs = plt.subplots(rows, cols, figsize=(7.6 * cols + (1.5 if single else 0), 4.2 * rows + 0.9),
                            squeeze=False, layout="constrained")
    markers = ["o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p"]
    roof_styles = ["--", ":", "-.", (0, (5, 1)), (0, (3, 1, 1, 1)), (0, (1, 2))]
    all_roofs = {}
    for i, (w, mine) in enumerate(panels):
        ax = axs[i // cols][i % cols]
        xs_pts, ys_pts, roofs = [], [], {}
        for p in mine:
            c = p["config"]
            pes = cfg(c, "pe_grid.rows", 1) * cfg(c, "pe_grid.cols", 1)
            bpc = cfg(c, "dram.bandwidth_gbps", 0) / cfg(c, "clock_ghz", 1)
            dram = total(p["counters"], "dram.ch[", ".bytes_read") + total(p["counters"], "dram.ch[", ".bytes_written")
            p["_ipc"] = p["instructions"] / p["cycles"]
            p["_ai"] = p["instructions"] / dram if dram else None
            roofs.setdefault((pes, round(bpc, 3)), []).append(p["index"])
            all_roofs.setdefault((pes, round(bpc, 3)), None)
            ys_pts.append(p["_ipc"])
            if p["_ai"]:
                xs_pts.append(p["_ai"])
        ridge = [pes / bpc for pes, bpc in roofs if bpc]
        lo = min(xs_pts + ridge) / 4 if xs_pts + ridge else 1e-2
        hi = max(xs_pts + ridge) * 4 if xs_pts + ridge else 1e2
        top = max(pes for pes, _ in roofs)
        for p in mine:
            if not p["_ai"]:
                p["_ai_plot"] = hi / 2  # no DRAM traffic: drawn at the right edge
            else:
                p["_ai_plot"] = p["_ai"]
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(lo, hi)
        ax.set_ylim(min(ys_pts) / 3, top * 2.5)
        xs = np.logspace(math.log10(lo), math.log10(hi), 200)
        for k, (pes, bpc) in enumerate(sorted(roofs)):
            style = roof_styles[sorted(all_roofs).index((pes, bpc)) % len(roof_styles)]
            ax.plot(xs, np.minimum(pes, xs * bpc) if bpc else np.full_like(xs, pes), linestyle=style,
                    lw=1.1, color="dimgray", zorder=1,
                    label="roof %d PEs, DRAM %.3g B/cycle" % (pes, bpc))
        # Points at (nearly) the same place: drawn as shrinking rings (earlier ones larger)
        # and their numbers fanned out in screen space.
        fig.canvas.draw()
        disp = ax.transData.transform([(p["_ai_plot"], p["_ipc"]) for p in mine])
        close = lambda a, b: abs(a[0] - b[0]) < 8 and abs(a[1] - b[1]) < 8
        for k, (p, (dx, dy)) in enumerate(zip(mine, disp)):
            near = sum(1 for q in disp[:k] if close(q, (dx, dy)))
            later = sum(1 for q in disp[k + 1:] if close(q, (dx, dy)))
            color = "C%d" % (k % 10)
            failed = p["status"] != "ok"
            stacked = near or later
            ax.scatter([p["_ai_plot"]], [p["_ipc"]], s=40 + 28 * min(later, 6), zorder=4 + k,
                       marker=markers[k % len(markers)],
                       facecolors="none" if failed or stacked else color, edgecolors=color,
                       linewidths=1.5,
                       label="#%d %s%s%s" % (p["index"], p["workload"] if single else
                                             " / ".join(step_of(p, g) for g in groups) or "base",
                                             " (failed)" if failed else "",
                                             "" if p["_ai"] else " (no DRAM traffic)"))
            angle = math.radians(30 + 47 * near)
            r = 10 + 6 * near
            ax.annotate("#%d" % p["index"], (p["_ai_plot"], p["_ipc"]),
                        xytext=(r * math.cos(angle), r * math.sin(angle)), textcoords="offset points",
                        fontsize=7, color=color, ha="left", va="bottom",
                        arrowprops={"arrowstyle": "-", "color": color, "lw": 0.6} if near else None)
        ax.set_xlabel("arithmetic intensity: instructions per DRAM byte (log)")
        ax.set_ylabel("instructions per cycle, whole chip (log)")
        ax.set_title("%s (%d point%s)" % (w, len(mine), "" if len(mine) == 1 else "s"))
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0,
                  title="roofs; points: %s\n(hollow: failed or stacked)" % (
                      "workload" if single else ", ".join(group_name(g) for g in groups) or "sweep point"),
                  title_fontsize=7, frameon=False)
        for h in ax.get_legend().legend_handles:  # rings keep the plot's size, not the legend's
            if hasattr(h, "set_sizes"):
                h.set_sizes([40])
    for j in range(n, rows * cols):
        axs[j // cols][j % cols].axis("off")
    fig.suptitle("%s: instruction roofline%s (%s)\nroof = min(issue, DRAM); a point below it "
                 "is limited by latency, SRAM, NoC or a unit; #N = sweep point"
                 % (name, "" if single else " per workload", context(meta, fixed)), fontsize=10)
    return save(fig, out, "roofline.png", kind="roofline", colour_scales=0, workloads=kernels,
                roofs=len(all_roofs))


def sweeps(name, meta, pts, out):
    files = []
    groups, fixed = axis_groups(meta, pts)
    workloads = []
    for p in pts:
        if p["workload"] not in workloads:
            workloads.append(p["workload"])
    if not groups:
        return files
    # x: the axis with the most values; a line per combination of the other axes.
    xg = max(groups, key=lambda g: len(steps(pts, g)))
    others = [g for g in groups if g is not xg]
    order = steps(pts, xg)
    combos = []
    for p in pts:
        c = tuple(step_of(p, g) for g in others)
        if c not in combos:
            combos.append(c)
    one_panel = not others
    cols = 1 if one_panel else min(3, len(workloads))
    rows = 1 if one_panel else math.ceil(len(workloads) / cols)
    fig, axs = plt.subplots(rows, cols, figsize=(7.6 if one_panel else 5.0 * cols + 0.6,
                                                 4.6 if one_panel else 3.6 * rows + 1.4), squeeze=False)
    panels = [(None, workloads)] if one_panel else [(w, [w]) for w in workloads]
    any_failed = False
    for i, (title, ws) in enumerate(panels):
        ax = axs[i // cols][i % cols]
        allc = []
        series = [(w, c) for w in ws for c in combos]
        for k, (w, c) in enumerate(series):
            sel = [p for p in pts if p["workload"] == w and p["cycles"] > 0 and
                   tuple(step_of(p, g) for g in others) == c]
            sel.sort(key=lambda p: order.index(step_of(p, xg)))
            if not sel:
                continue
            xs = [order.index(step_of(p, xg)) for p in sel]
            ys = [p["cycles"] for p in sel]
            allc += ys
            lab = w if one_panel else ", ".join("%s=%s" % (g[0].split(".")[-1] if len(g) == 1 else "/".join(f.split(".")[-1] for f in g), v)
                                               for g, v in zip(others, c))
            # Series that coincide stay distinguishable: own marker, dash pattern and size.
            mk = ["o", "s", "^", "D", "v", "P", "*", "<", ">", "h"][k % 10]
            dash = ["-", "--", "-.", ":"][(k // 2) % 4]
            line, = ax.plot(xs, ys, linestyle=dash, marker=mk, ms=8 - 0.6 * (k % 6), mfc="none",
                            color="C%d" % (k % 10), label=lab, lw=1.4, zorder=3 + k)
            for x, y, p in zip(xs, ys, sel):
                if p["status"] != "ok":
                    any_failed = True
                    ax.plot([x], [y], "x", color="red", ms=10, mew=2, zorder=20)
        ax.set_xticks(range(len(order)))
        ax.set_xticklabels(order, rotation=0 if len(order) < 7 else 30)
        ax.set_xlabel(group_name(xg))
        ax.set_ylabel("kernel cycles")
        if allc and max(allc) / max(1, min(allc)) > 20:
            ax.set_yscale("log")
            ax.set_ylabel("kernel cycles (log)")
        else:
            ax.set_ylim(0, max(allc) * 1.1 if allc else 1)
        ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: "{:,.0f}".format(v)))
        ax.grid(True, alpha=0.3)
        if title:
            ax.set_title(title)
        if allc:
            ax.legend(fontsize=7, loc="best", title=(("red x: failed its check; " if any_failed else "") +
                                                      ("workload" if one_panel else "")) or None,
                      title_fontsize=7)
    for j in range(len(panels), rows * cols):
        axs[j // cols][j % cols].axis("off")
    what = "cycles against %s" % group_name(xg).replace("  (zipped)", " (zipped)")
    if others:
        what += ", a line per %s, a panel per workload" % " x ".join(g[0] if len(g) == 1 else "/".join(g) for g in others)
    else:
        what += ", a line per workload"
    fig.suptitle("%s: %s\n%s" % (name, what, context(meta, fixed)), fontsize=10)
    fig.tight_layout()
    files.append(save(fig, out, "sweep_%s.png" % file_part(xg), kind="line", colour_scales=0,
                      x_axis=xg, lines=[list(c) for c in combos] if others else workloads,
                      panels=len(panels)))
    if len(groups) == 2:
        files.append(heatmap(name, meta, pts, out, groups[0], groups[1], workloads, fixed))
    return files


def heatmap(name, meta, pts, out, a, b, workloads, fixed):
    """Cycles over two axes, a panel per workload, one colour scale for the figure."""
    av, bv = steps(pts, a), steps(pts, b)
    grids = {}
    for w in workloads:
        grid = np.full((len(bv), len(av)), np.nan)
        for p in pts:
            if p["workload"] == w and p["cycles"] > 0:
                grid[bv.index(step_of(p, b)), av.index(step_of(p, a))] = p["cycles"]
        grids[w] = grid
    finite = np.concatenate([g[np.isfinite(g)] for g in grids.values()] + [np.array([])])
    cols = min(3, len(workloads))
    rows = math.ceil(len(workloads) / cols)
    fig, axs = plt.subplots(rows, cols, figsize=(1.6 + (0.9 * len(av) + 1.2) * cols + 1.6,
                                                 1.6 + (0.55 * len(bv) + 1.1) * rows), squeeze=False,
                            layout="constrained")
    vmin = float(finite.min()) if finite.size else 1.0
    vmax = float(finite.max()) if finite.size else 1.0
    log = vmax / max(vmin, 1) > 10
    norm = matplotlib.colors.LogNorm(vmin, vmax) if log else matplotlib.colors.Normalize(vmin, vmax)
    im = None
    for i, w in enumerate(workloads):
        ax = axs[i // cols][i % cols]
        grid = grids[w]
        ax.set_title(w)
        if not np.isfinite(grid).any():
            ax.text(0.5, 0.5, "no point ran", ha="center", va="center", transform=ax.transAxes, color="gray")
            ax.set_xticks([])
            ax.set_yticks([])
            continue
        im = ax.imshow(grid, cmap="viridis_r", norm=norm, aspect="auto", origin="lower")
        ax.set_xticks(range(len(av)))
        ax.set_xticklabels(av, rotation=30 if len(av) > 4 else 0, fontsize=8)
        ax.set_yticks(range(len(bv)))
        ax.set_yticklabels(bv, fontsize=8)
        ax.set_xlabel(group_name(a))
        ax.set_ylabel(group_name(b))
        for r in range(len(bv)):
            for c in range(len(av)):
                if np.isfinite(grid[r, c]):
                    shade = norm(grid[r, c])
                    ax.text(c, r, "{:,.0f}".format(grid[r, c]), ha="center", va="center", fontsize=7,
                            color="white" if shade > 0.55 else "black")
                else:
                    ax.text(c, r, "not run", ha="center", va="center", fontsize=7, color="gray")
    for j in range(len(workloads), rows * cols):
        axs[j // cols][j % cols].axis("off")
    fig.suptitle("%s: cycles over %s x %s\n%s" % (name, group_name(a), group_name(b), context(meta, fixed)),
                 fontsize=10)
    if im is not None:
        cb = fig.colorbar(im, ax=axs.ravel().tolist(), shrink=0.9,
                          label="kernel cycles, one scale for every panel" + (" (log)" if log else ""))
        if not log:
            cb.ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: "{:,.0f}".format(v)))
    return save(fig, out, "heatmap_%s_x_%s.png" % (file_part(a), file_part(b)), kind="heatmap",
                colour_scales=1 if im is not None else 0, vmin=vmin, vmax=vmax, norm="log" if log else "linear",
                x_axis=a, y_axis=b, panels=len(workloads))


def counter_group(n):
    # pe[3][5].dma.bytes_read -> pe[*].dma.bytes_read
    return re.sub(r"\[\d+\]", "[*]", n)


def timelines(name, meta, pts, out):
    files = []
    lines_per_group = 16
    for p in [q for q in pts if "trace_names" in q and len(q["trace_cycles"]) > 1]:
        cyc = np.asarray(p["trace_cycles"], dtype=float)
        vals = np.asarray(p["trace_values"], dtype=float)
        inc = np.diff(vals, axis=0)
        groups = {}
        for k, n in enumerate(p["trace_names"]):
            groups.setdefault(counter_group(n), []).append(k)
        g = list(groups.items())
        fig, axs = plt.subplots(len(g), 1, figsize=(8.5, 1.9 * len(g) + 1.0), sharex=True, squeeze=False)
        for ax, (gn, ks) in zip(axs[:, 0], g):
            for k in ks[:lines_per_group]:
                ax.plot(cyc[1:], inc[:, k], lw=1, alpha=0.8)
            if len(ks) > 1:
                ax.plot(cyc[1:], inc[:, ks].sum(axis=1), color="black", lw=1.6, label="sum of all %d" % len(ks))
                ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
            ax.set_ylabel("per interval", fontsize=8)
            shown = "" if len(ks) <= lines_per_group else " (%d of %d instances drawn; the sum covers all)" % (
                lines_per_group, len(ks))
            ax.set_title(gn + shown, fontsize=9, loc="left")
            ax.grid(True, alpha=0.3)
        axs[-1, 0].set_xlabel("chip cycle")
        fig.suptitle("%s point %d (%s, %s): sampled counters, increments per interval\n%s"
                     % (name, p["index"], p["workload"], label_of(p["axes"]), context(meta)), fontsize=10)
        fig.tight_layout()
        files.append(save(fig, out, "timeline_point%d.png" % p["index"], kind="timeline", colour_scales=0,
                          point=p["index"]))
    return files


def ops(name, meta, pts, out, most=40):
    files = []
    colors = {"ok": "tab:green", "failed": "tab:red", "unsupported": "tab:gray"}
    for p in [q for q in pts if len(q.get("ops") or []) > 1]:
        rows = p["ops"]
        agg = {}
        for op, st, c in rows:
            a = agg.setdefault(op, {"cycles": 0, "calls": 0, "status": set(), "by": {}})
            a["cycles"] += c
            a["calls"] += 1
            a["status"].add(st)
            a["by"][st] = a["by"].get(st, 0) + 1
        # Most cycles first; ops without cycles (views, no kernel) after, in call order.
        ranked = sorted(agg, key=lambda n: -agg[n]["cycles"])
        names = ranked[:most]
        rest = ranked[most:]
        fig, ax = plt.subplots(figsize=(9.0, 0.3 * len(names) + 2.2))
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
            if c == 0 and agg[n]["by"].get("ok") and not agg[n]["by"].get("failed"):
                note += " (no launch: view)"
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
        shown = "all %d ops" % len(ranked) if not rest else "the %d ops with most cycles of %d (the other %d: %s cycles)" % (
            len(names), len(ranked), len(rest), "{:,}".format(sum(agg[n]["cycles"] for n in rest)))
        ax.set_title("%s point %d (%s; %s): %d calls - %d ok, %d failed, %d without kernel\n"
                     "total %s cycles = %.1f us at %g GHz (ok calls: %s cycles); %s\n"
                     "bars: green ok, red failed, gray no kernel"
                     % (name, p["index"], p["workload"], context(meta), len(rows), by.get("ok", 0),
                        by.get("failed", 0), by.get("unsupported", 0), "{:,}".format(allc),
                        allc / (clock * 1e3), clock, "{:,}".format(okc), shown), fontsize=9)
        ax.grid(True, axis="x", alpha=0.3)
        fig.tight_layout()
        files.append(save(fig, out, "ops_point%d.png" % p["index"], kind="ops", colour_scales=0,
                          point=p["index"], ops_shown=len(names), ops_total=len(ranked)))
    return files


def pareto_front(xy):
    """Indices of the points no other point beats on both coordinates (lower is better)."""
    front = []
    for i, (x, y) in enumerate(xy):
        if not any((x2 <= x and y2 <= y) and (x2 < x or y2 < y) for j, (x2, y2) in enumerate(xy) if j != i):
            front.append(i)
    return sorted(front, key=lambda i: xy[i][0])


def pareto(name, meta, pts, out, notes):
    """Time against energy and against area, a marker per workload, the front of each joined."""
    colsd = meta["columns"]
    missing = [c for c in ("energy_j", "area_mm2") if c not in colsd]
    if missing:
        notes.append("pareto.png not drawn: the results have no %s column%s (written by runs of an "
                     "opforge with the energy and area model; sweep again to get them)"
                     % (" or ".join(missing), "s" if len(missing) > 1 else ""))
        return None
    ran = [p for p in pts if p["status"] == "ok" and p["cycles"] > 0 and
           colsd["energy_j"].get(p["index"], 0) > 0 and colsd["area_mm2"].get(p["index"], 0) > 0]
    if len(ran) < 2:
        notes.append("pareto.png not drawn: fewer than two successful points with energy and area")
        return None
    groups, fixed = axis_groups(meta, pts)
    if not groups:
        notes.append("pareto.png not drawn: the sweep has no axis, so every point runs one "
                     "configuration and there is nothing to trade off")
        return None
    workloads = []
    for p in ran:
        if p["workload"] not in workloads:
            workloads.append(p["workload"])
    fig, axs = plt.subplots(1, 2, figsize=(13.5, 5.6), squeeze=False, layout="constrained")
    markers = ["o", "s", "^", "D", "v", "P", "X", "*"]
    for k, (ycol, ylab) in enumerate([("energy_j", "energy per run (uJ)"), ("area_mm2", "chip area (mm2)")]):
        ax = axs[0][k]
        labels = []
        for m, w in enumerate(workloads):
            mine = [p for p in ran if p["workload"] == w]
            us = [p["cycles"] / (cfg(p["config"], "clock_ghz", 1) * 1e3) for p in mine]
            ys = [colsd[ycol][p["index"]] * (1e6 if ycol == "energy_j" else 1) for p in mine]
            color = "C%d" % (m % 10)
            ax.scatter(us, ys, marker=markers[m % len(markers)], s=34, facecolors="none", edgecolors=color,
                       linewidths=1.3, label=w, zorder=3)
            front = pareto_front(list(zip(us, ys)))
            ax.plot([us[i] for i in front], [ys[i] for i in front], "-", color=color, lw=1.2, zorder=2)
            ax.scatter([us[i] for i in front], [ys[i] for i in front], marker=markers[m % len(markers)], s=34,
                       color=color, zorder=4)
            labels += [(mine[i], us[i], ys[i], color) for i in front]
        # The front points labelled with their axis values; points at the same place share
        # one label (at most three values, then "+N").
        fig.canvas.draw()
        clusters = []
        for p, x, y, color in labels:
            dx, dy = ax.transData.transform((x, y))
            text = " / ".join(step_of(p, g) for g in groups)
            for c in clusters:
                if abs(c["dx"] - dx) < 12 and abs(c["dy"] - dy) < 12:
                    if text not in c["texts"]:
                        c["texts"].append(text)
                    break
            else:
                clusters.append({"dx": dx, "dy": dy, "x": x, "y": y, "texts": [text], "color": color})
        for k, c in enumerate(clusters):
            more = len(c["texts"]) - 3
            ax.annotate("; ".join(c["texts"][:3]) + (" +%d more" % more if more > 0 else ""), (c["x"], c["y"]),
                        xytext=(6, 4 if k % 2 == 0 else -10), textcoords="offset points", fontsize=6.5,
                        color=c["color"] if len(c["texts"]) == 1 else "black")
        ax.set_xlabel("simulated time per run (us)")
        ax.set_ylabel(ylab)
        ax.grid(True, alpha=0.3)
        if max(p["cycles"] for p in ran) / max(1, min(p["cycles"] for p in ran)) > 20:
            ax.set_xscale("log")
        ax.set_title("time vs %s" % ("energy" if ycol == "energy_j" else "area"))
    handles, names = axs[0][0].get_legend_handles_labels()
    fig.legend(handles, names, loc="outside lower center", ncol=min(6, len(workloads)), fontsize=8, frameon=False,
               title="workload (hollow: every point; filled and joined: the Pareto front, labelled with its "
                     "axis values)", title_fontsize=8)
    fig.suptitle("%s: Pareto fronts, lower-left is better%s\n%s" % (
        name, "; labels: " + ", ".join(group_name(g) for g in groups) if groups else "", context(meta, fixed)),
        fontsize=10)
    return save(fig, out, "pareto.png", kind="pareto", colour_scales=0, workloads=workloads)


def main():
    ap = argparse.ArgumentParser(description="matplotlib figures of an opforge sweep results file")
    ap.add_argument("results")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    # Exit status 1 always comes with exactly one error line (opforge plot adds none).
    try:
        name, meta, pts = load(a.results)
    except Malformed as e:
        return fail("%s: %s" % (a.results, e))
    except (OSError, KeyError) as e:
        return fail("%s: not a readable sweep results file (%s)" % (a.results, e))
    notes = []
    try:
        os.makedirs(a.out, exist_ok=True)
        files = []
        r = roofline(name, meta, pts, a.out)
        if r:
            files.append(r)
        files += sweeps(name, meta, pts, a.out)
        files += timelines(name, meta, pts, a.out)
        files += ops(name, meta, pts, a.out)
        r = pareto(name, meta, pts, a.out, notes)
        if r:
            files.append(r)
        with open(os.path.join(a.out, "figures.json"), "w") as fp:
            json.dump({"results": os.path.abspath(a.results), "scenario": name, "arch": meta["arch"],
                       "figures": FIGURES, "notes": notes}, fp, indent=1)
    except Exception as e:  # a value the figures cannot use
        return fail("%s: cannot plot it: %s: %s" % (a.results, type(e).__name__, e))
    for f in files:
        print(f)
    for n in notes:
        print("note: " + n)
    if not files:
        return fail("%s: no successful point to plot" % a.results)
    return 0


def fail(message):
    print("opforge plot: error: " + " ".join(str(message).split()), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
