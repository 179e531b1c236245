#!/usr/bin/env python3
"""Summarise validate/latency/shmem_latency.cu's raw measurements.

  analyze.py DIR

reads DIR/raw_latency.csv and DIR/raw_throughput.csv and writes
  DIR/latency.csv   one row per (kind, width, family, k):
      kind                ld, or st (the latency of a store followed by a
                          load of the same address; throughput of stores)
      width, family, k    the pattern (see shmem_latency.cu)
      wavefronts          the sm90 model's wavefronts per instruction for
                          this kind (docs/bank-model.md rules 1-3)
      wavefronts_ld       the load's wavefronts (the st latency chain also
                          loads)
      latency_min, latency_median        cycles per step, over repetitions
      tput_cpi_min, tput_cpi_median      cycles per instruction per SM
                                         (median over SMs, then min/median
                                         over repetitions)
      tput_cycles_per_wavefront          tput_cpi_min / wavefronts
  DIR/latency_fit.txt  least-squares fits latency = a + b (wavefronts - 1)
                       per kind and width, next to Karsin et al.'s form
                       L_S (1 + (k - 1) / 2) with L_S the conflict-free
                       latency; and throughput against wavefronts
  DIR/latency.png      (when matplotlib is importable) the same as a plot

The sm90 rules are re-implemented here (about twenty lines) so the script
runs where the project is not built; DIR/patterns.trace holds the same
patterns for `bankcheck replay --model sm90` to confirm the counts.
Standard library only, matplotlib optional.
"""
import csv
import os
import statistics
import sys
from collections import Counter, defaultdict

W = 32


def patterns():
    """(family, width, k) -> 32 byte offsets, as shmem_latency.cu builds them."""
    out = {}
    for w in (4, 8, 16):
        out[("cf", w, 1)] = [l * w for l in range(W)]
        out[("bcast", w, 1)] = [0] * W
        for k in range(2, 33):
            out[("spread", w, k)] = [(l % k) * 128 for l in range(W)]
        if w == 4:
            for k in range(2, 32):
                out[("solo", w, k)] = [l * 128 if l < k else 4 * l for l in range(W)]
    return out


def pairs_up(addrs, partner):
    return all(addrs[l] is None or addrs[l ^ partner] is None or addrs[l] == addrs[l ^ partner] for l in range(W))


def sm90_wavefronts(op, width, addrs):
    """docs/bank-model.md, sm90: phases of 128 bytes of lane data for 8/16-byte
    accesses (one phase for 1-4 bytes), doubled for loads whose lanes pair up
    with partner l^1 or l^2 on equal addresses; a phase costs the most
    distinct 4-byte words any bank must deliver."""
    lanes = W if width <= 4 else 128 // width
    if op == "ld" and width > 4 and (pairs_up(addrs, 1) or pairs_up(addrs, 2)):
        lanes = min(W, 2 * lanes)
    total = 0
    for first in range(0, W, lanes):
        cells = set()
        for a in addrs[first:first + lanes]:
            if a is None:
                continue
            for c in range(a // 4, a // 4 + max(1, width // 4)):
                cells.add(c)
        if cells:
            total += max(Counter(c % 32 for c in cells).values())
    return total


def fit_line(xs, ys):
    n = len(xs)
    if n < 2:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return None
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    ss_res = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
    ss_tot = sum((y - my) ** 2 for y in ys)
    return a, b, (1 - ss_res / ss_tot) if ss_tot else 1.0


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    pats = patterns()
    lat = defaultdict(list)
    for r in csv.DictReader(open(os.path.join(d, "raw_latency.csv"))):
        kind = "ld" if r["mode"] == "ld" else "st"
        lat[(kind, int(r["width"]), r["family"], int(r["k"]))].append(float(r["cycles_per_step"]))
    thr = defaultdict(list)
    tpath = os.path.join(d, "raw_throughput.csv")
    if os.path.exists(tpath):
        for r in csv.DictReader(open(tpath)):
            thr[(r["mode"], int(r["width"]), r["family"], int(r["k"]))].append(
                float(r["cycles_per_inst_per_sm_median"]))
    rows = []
    for key in sorted(set(lat) | set(thr), key=lambda k: (k[0], k[1], k[2], k[3])):
        kind, width, family, k = key
        addrs = pats.get((family, width, k))
        if addrs is None:
            continue
        wf = sm90_wavefronts(kind, width, addrs)
        wf_ld = sm90_wavefronts("ld", width, addrs)
        l = lat.get(key, [])
        t = thr.get(key, [])
        rows.append({
            "kind": kind, "width": width, "family": family, "k": k, "wavefronts": wf, "wavefronts_ld": wf_ld,
            "latency_min": f"{min(l):.2f}" if l else "", "latency_median": f"{statistics.median(l):.2f}" if l else "",
            "tput_cpi_min": f"{min(t):.4f}" if t else "", "tput_cpi_median": f"{statistics.median(t):.4f}" if t else "",
            "tput_cycles_per_wavefront": f"{min(t) / wf:.4f}" if t and wf else "",
        })
    fields = ["kind", "width", "family", "k", "wavefronts", "wavefronts_ld", "latency_min", "latency_median",
              "tput_cpi_min", "tput_cpi_median", "tput_cycles_per_wavefront"]
    with open(os.path.join(d, "latency.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)

    lines = ["# latency = a + b (wavefronts - 1), least squares over the cf, bcast, spread and solo patterns",
             "# Karsin et al.: L_S (1 + (k - 1) / 2), L_S = conflict-free (cf) latency; their b / L_S = 0.5",
             "kind width points a b r2 L_S(cf) b/L_S  tput: a b (cycles per instruction = a + b wavefronts)"]
    fits = {}
    for kind in ("ld", "st"):
        for width in (4, 8, 16):
            sel = [r for r in rows if r["kind"] == kind and r["width"] == width and r["latency_min"]]
            if not sel:
                continue
            xs = [r["wavefronts"] - 1 for r in sel]
            ys = [float(r["latency_min"]) for r in sel]
            f1 = fit_line(xs, ys)
            cf = [float(r["latency_min"]) for r in sel if r["family"] == "cf"]
            ls = cf[0] if cf else None
            tsel = [r for r in rows if r["kind"] == kind and r["width"] == width and r["tput_cpi_min"]]
            f2 = fit_line([r["wavefronts"] for r in tsel], [float(r["tput_cpi_min"]) for r in tsel])
            fits[(kind, width)] = (f1, ls, f2)
            if f1:
                a, b, r2 = f1
                lines.append(f"{kind} {width} {len(sel)} {a:.2f} {b:.3f} {r2:.4f} "
                             f"{ls if ls is not None else 'NA'} {b / ls if ls else float('nan'):.3f}  "
                             + (f"tput: {f2[0]:.3f} {f2[1]:.4f} r2={f2[2]:.4f}" if f2 else "tput: NA"))
    # the 4-byte loads, k-way, as a table: what the paper's form predicts
    sel = {(r["family"], r["k"]): r for r in rows if r["kind"] == "ld" and r["width"] == 4}
    ls = float(sel[("cf", 1)]["latency_min"]) if ("cf", 1) in sel and sel[("cf", 1)]["latency_min"] else None
    if ls:
        lines.append("")
        lines.append("# 4-byte loads, spread k-way: measured latency_min against Karsin's L_S (1 + (k-1)/2)")
        lines.append("k wavefronts measured karsin ratio")
        for k in (1, 2, 3, 4, 8, 16, 32):
            r = sel.get(("spread", k)) if k > 1 else sel.get(("cf", 1))
            if r and r["latency_min"]:
                kar = ls * (1 + (r["wavefronts"] - 1) / 2)
                lines.append(f"{k} {r['wavefronts']} {r['latency_min']} {kar:.1f} {float(r['latency_min']) / kar:.3f}")
    with open(os.path.join(d, "latency_fit.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:  # the plot is optional; the CSV and fits are not
        print(f"no plot: {e}")
        return
    fig, axes = plt.subplots(1, 3, figsize=(17, 5))
    colors = {4: "tab:blue", 8: "tab:orange", 16: "tab:green"}
    for ax, kind in ((axes[0], "ld"), (axes[1], "st")):
        for width in (4, 8, 16):
            sel = [r for r in rows if r["kind"] == kind and r["width"] == width and r["latency_min"]]
            if not sel:
                continue
            for fam, marker in (("spread", "o"), ("solo", "x"), ("cf", "s"), ("bcast", "^")):
                pts = [(r["wavefronts"], float(r["latency_min"])) for r in sel if r["family"] == fam]
                if pts:
                    ax.scatter(*zip(*pts), marker=marker, color=colors[width], s=18,
                               label=f"{width} B {fam}")
            f1, ls, _ = fits.get((kind, width), (None, None, None))
            xs = list(range(1, 33))
            if f1:
                ax.plot(xs, [f1[0] + f1[1] * (x - 1) for x in xs], color=colors[width], lw=1,
                        label=f"{width} B fit {f1[0]:.1f} + {f1[1]:.2f}(wf-1)")
            if ls and width == 4:
                ax.plot(xs, [ls * (1 + (x - 1) / 2) for x in xs], "k--", lw=1,
                        label=f"Karsin L_S(1+(k-1)/2), L_S={ls:.1f}")
        ax.set_xlabel("model wavefronts per instruction (k for 4-byte k-way)")
        ax.set_ylabel("cycles per dependent step")
        ax.set_title("load latency" if kind == "ld" else "store then load latency")
        ax.legend(fontsize=6)
    ax = axes[2]
    for kind, ls_ in (("ld", "-"), ("st", ":")):
        for width in (4, 8, 16):
            pts = [(r["wavefronts"], float(r["tput_cpi_min"])) for r in rows
                   if r["kind"] == kind and r["width"] == width and r["tput_cpi_min"]]
            if pts:
                pts.sort()
                ax.plot(*zip(*pts), ls_, marker=".", color=colors[width], label=f"{kind} {width} B")
    ax.plot([1, 32], [1, 32], "k--", lw=0.8, label="1 cycle per wavefront")
    ax.set_xlabel("model wavefronts per instruction")
    ax.set_ylabel("cycles per instruction per SM")
    ax.set_title("throughput (all SMs busy)")
    ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "latency.png"), dpi=110)
    print(f"wrote {os.path.join(d, 'latency.png')}")


if __name__ == "__main__":
    main()
