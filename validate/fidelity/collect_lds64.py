"""Turns the paired 8-byte load campaign's exports into a committed probe set
and a per-form table:

    python3 validate/fidelity/collect_lds64.py RESULTS_DIR... [--write]

RESULTS_DIR: an unpacked lds64/ folder of validate/fidelity/lds64_on_gpu.sh
(lds64.cases, lds64.plan, lds64a/b.sass.csv: the plan's two parts, lds64.sass,
single.trace, single.sass.csv) or lds64cap/ of lds64_capture_on_gpu.sh
(lds64.cases, capture.plan, ncu.csv), each with environment.txt. Which
pattern each LDS.64 reads is read from the source page's own SASS
(validate/fidelity/lds64_sites.py). Prints, per launch shape and SASS form,
how many sites equal rule 3 per instruction (d0 + d1 where a paired load's
merged phase conflicts), the merged degree u and the worse half max(d0, d1)
(make_lds64_cases.py's `rules`, the generator's copy of the rule; the
committed test costs the same requests with the model itself). With --write:
validate/sm90/cases/lds64.trace (every distinct warp request once) and
measured/lds64.csv (per site: its total wavefronts, its executions, and its
requests, each with the times it ran; site names start r1-, r2-, ... by
folder). Standard library and the project's readers of traces and ncu pages (the Python module)."""
import os
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.probes.ncu_pages import instructions, read_source  # noqa: E402
from validate.fidelity.lds64_sites import orders, page_order  # noqa: E402
from validate.fidelity.make_lds64_cases import SITES, rules  # noqa: E402
from validate.sm90.case_format import line, records_of  # noqa: E402

SM90 = os.path.join(HERE, os.pardir, "sm90")
FORMS = ["rur", "imm", "reg", "pred", "loop", "dep", "u64", "mix"]  # lds64.cu's Form, in order


def data(path):
    return [l.split() for l in open(path) if l.strip() and not l.startswith("#")]


def warp_requests(patterns, threads, exit_mask, extra):
    """{offsets per lane (None inactive): warps per block issuing it}; warp w
    reads patterns[w] (one for all where there is one), plus `extra` (the imm
    form's +256) on every offset."""
    out = Counter()
    for w in range((threads + 31) // 32):
        lanes, pattern = min(32, threads - 32 * w), patterns[w if len(patterns) > 1 else 0]
        off = tuple(o + extra if l < lanes and (exit_mask >> l) & 1 and o >= 0 else None
                    for l, o in enumerate(pattern))
        if any((exit_mask >> l) & 1 for l in range(lanes)):  # a warp whose lanes all exited issues nothing
            out[off] += 1
    return out


def per_request(off):
    """rule 3 (model), merged degree, max(d0, d1) of one warp request."""
    model, merged, worst = rules([o if o is not None else -1 for o in off])
    return model, merged if merged is not None else model, worst


def layout(res):
    """(plan, source pages) of a results folder: lds64_on_gpu.sh's (lds64.plan,
    lds64a/b.sass.csv) or lds64_capture_on_gpu.sh's (capture.plan, ncu.csv)."""
    if os.path.exists(os.path.join(res, "capture.plan")):
        return "capture.plan", ["ncu.csv"]
    return "lds64.plan", ["lds64a.sass.csv", "lds64b.sass.csv"]


def launches(res):
    cases = data(os.path.join(res, "lds64.cases"))
    plan_name, pages = layout(res)
    plan = data(os.path.join(res, plan_name))
    sass = os.path.join(res, "lds64.sass")
    order = orders(open(sass).read(), SITES) if os.path.exists(sass) else {}
    blocks = [b for page in pages for b in read_source(os.path.join(res, page))]
    if len(blocks) > len(plan):
        sys.exit(f"lds64: {len(blocks)} launches in the source pages, {len(plan)} in the plan")
    if len(blocks) < len(plan):  # a part that ran out of time: the launches before it are whole
        print(f"partial: {len(blocks)} of {len(plan)} launches profiled")
    for li, ((kernel, rows), p) in enumerate(zip(blocks, plan)):
        form, nblocks, threads, exit_mask, first, iters, warp_rows = (p[0], int(p[1]), int(p[2]), int(p[3], 16),
                                                                      int(p[4]), int(p[5]), int(p[6]))
        fid = FORMS.index(form)
        plain = kernel.replace(" ", "").replace("(int)", "")
        if f"lds64_sites<{fid}>" not in plain and f"lds64_sitesILi{fid}E" not in plain:
            sys.exit(f"launch {li}: kernel {kernel}, the plan says form {form}")
        # the order from the page's own SASS, and the same from cuobjdump's where it is there
        site_of = page_order([r.get("Source", "") for r in rows], SITES, f"launch {li}")
        name = next((n for n in order if f"lds64_sitesILi{fid}E" in n), None)
        if name is not None and order[name] != site_of:
            sys.exit(f"launch {li}: the source page and cuobjdump order the sites differently")
        lds = [d for d in instructions(rows) if d["mnemonic"] == "LDS.64"]
        if len(lds) != SITES:
            sys.exit(f"launch {li}: {len(lds)} LDS.64 in the source page")
        for d, s in zip(lds, site_of):
            pats = [cases[first + w * warp_rows + s] for w in range((threads + 31) // 32 if warp_rows else 1)]
            reqs = warp_requests([[int(x) for x in p[1:]] for p in pats], threads, exit_mask, 256 if form == "imm" else 0)
            yield li, form, nblocks, threads, exit_mask, iters, warp_rows, s, pats[0][0], reqs, d


def tally(t, d, reqs, runs):
    """Counts one site against the three readings (rule 3, merged, worst half)."""
    got = {k: runs * sum(n * per_request(off)[i] for off, n in reqs.items()) for i, k in
           enumerate(("model", "merged", "worst"))}
    t["sites"] += 1
    t["executions ok"] += d["inst_executed"] == runs * sum(reqs.values())
    for k, v in got.items():
        t[k] += d["wavefronts"] == v
    t["disagree"] += got["model"] != got["merged"]
    t["disagree, = merged"] += got["model"] != got["merged"] and d["wavefronts"] == got["merged"]
    t["disagree, = worst"] += got["model"] != got["worst"] and d["wavefronts"] == got["worst"]
    t["none"] += d["wavefronts"] not in got.values()


def collect(res, tag, requests, csv):
    """Prints one results folder's table and adds its sites to csv (site names prefixed by tag)."""
    table = defaultdict(Counter)
    for li, form, nb, th, em, iters, rows, s, pname, reqs, d in launches(res):
        runs = nb * iters
        tally(table[f"{form} {nb}x{th} exit 0x{em:08x} x{iters}" + (" warps shifted" if rows else "")], d, reqs, runs)
        parts = []
        for off, n in reqs.items():
            if any(o is not None for o in off):  # a request without an active lane costs nothing
                q = requests.setdefault(off, f"q{len(requests):05d}")
                parts.append(f"{q}*{n * runs}")
        csv.append(f"{tag}-L{li:02d}-{form}-s{s:03d}-{pname.split('-')[0]},{d['wavefronts']},{d['inst_executed']},"
                   + ";".join(parts))
    for key, t in table.items():
        print(f"{key:44s} " + " ".join(f"{k}={v}" for k, v in t.items()))
    for name, off, d in single(res):
        q = requests.setdefault(off, f"q{len(requests):05d}")
        csv.append(f"{tag}-single-{name.split('-')[0]},{d['wavefronts']},{d['inst_executed']},{q}*1")


def main():
    dirs = [a for a in sys.argv[1:] if a != "--write"]
    requests, csv, env = {}, [], []  # each distinct warp request once, as q<index>
    for k, res in enumerate(dirs):
        print(f"== {res} (sites r{k + 1}-...)")
        env += [f"r{k + 1}: " + l.rstrip("\n") for l in open(os.path.join(res, "environment.txt"))]
        collect(res, f"r{k + 1}", requests, csv)
    if "--write" in sys.argv[1:]:
        head = ["# Nsight Compute per-instruction counts (SourceCounters) of validate/fidelity/lds64.cu's LDS.64 sites;",
                "# requests: the site's distinct warp requests in validate/sm90/cases/lds64.trace, each times it ran"]
        head += ["# " + l for l in env]
        head.append("site,wavefronts,executions,requests")
        open(os.path.join(SM90, "measured", "lds64.csv"), "w").write("\n".join(head + csv) + "\n")
        lines = [line(q, "ld", 8, off) for off, q in requests.items()]
        open(os.path.join(SM90, "cases", "lds64.trace"), "w").write(
            "# the distinct warp requests of validate/fidelity/lds64.cu's sites (validate/fidelity/collect_lds64.py)\n"
            "warp 32\n" + "\n".join(lines) + "\n")


def single(res):
    """The same patterns as single-instruction kernels (microbench.cu): [(name, request, measured)]."""
    path, tpath = os.path.join(res, "single.sass.csv"), os.path.join(res, "single.trace")
    tr = records_of(tpath) if os.path.exists(tpath) else []
    rows = read_source(path) if os.path.exists(path) else []
    if len(rows) != len(tr):
        print(f"single: {len(rows)} launches for {len(tr)} cases; not compared")
        return []
    t, out = Counter(), []
    for record, (_, r) in zip(tr, rows):
        d = next(x for x in instructions(r) if x["mnemonic"] == "LDS.64")
        if d["inst_executed"] != 1:
            sys.exit(f"@{record['site']}: {d['inst_executed']} executions of the single LDS.64")
        off = tuple(record["addresses"])
        tally(t, d, {off: 1}, 1)
        out.append((record["site"], off, d))
    print(f"{'single-instruction (microbench)':44s} " + " ".join(f"{k}={v}" for k, v in t.items()))
    return out


if __name__ == "__main__":
    main()
