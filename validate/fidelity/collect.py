"""Turns the campaign's Nsight Compute exports (validate/fidelity/run_on_gpu.sh)
into the committed probe sets that tests/model re-runs against the model:

    python3 validate/fidelity/collect.py RESULTS_DIR

RESULTS_DIR: the unpacked fidelity/ folder (ldst8.trace, ldst8.sass.csv,
atom64.cases, atom64.ranks.txt, atom64.sass.csv, environment.txt). Writes
validate/sm90/cases/fid8.trace + measured/fid8.csv (one 8-byte LDS.64 or
STS.64 per case: per-instruction "L1 Wavefronts Shared" and its ideal) and
cases/fid64.trace + measured/fid64.csv: each atomicAdd case's loop as its
executions, the ATOMS.CAST.SPIN.64 as `atom.cast` and the loop's LDS.64 as
`ld`, with the totals Nsight Compute measured per instruction and the
executions it counted. Which lanes each execution holds is not measured; it
is rebuilt by `serve` below, and a case is written only where that gives
Nsight Compute's number of executions and every lane's rank (the value its
atomicAdd returned: the order in which the lanes of an address succeeded).
Standard library and the project's readers of traces and ncu pages (the Python module)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.probes.ncu_pages import instructions, read_source  # noqa: E402
from validate.sm90.case_format import line, records_of  # noqa: E402

SM90 = os.path.join(HERE, os.pardir, "sm90")


def memory_rows(sass_csv, mnemonics):
    """Per launch: {mnemonic: instruction dict} of the wanted instructions."""
    out = []
    for _, rows in read_source(sass_csv):
        found = {}
        for d in instructions(rows):
            if d["mnemonic"] in mnemonics and not d["predicate"]:
                found[d["mnemonic"]] = d
        out.append(found)
    return out


def header(env, what):
    lines = [f"# Nsight Compute per-instruction counts (SourceCounters) of {what}"]
    lines += ["# " + l for l in env]
    return lines


def collect_ldst8(res, env):
    trace = records_of(os.path.join(res, "ldst8.trace"))
    rows = memory_rows(os.path.join(res, "ldst8.sass.csv"), {"LDS.64", "STS.64"})
    if len(rows) != len(trace):
        sys.exit(f"ldst8: {len(rows)} launches in the source page, {len(trace)} cases")
    csv = header(env, "validate/sm90/cases/fid8.trace, one single-instruction kernel per case")
    csv.append("site,wavefronts,ideal,executions")
    for record, found in zip(trace, rows):
        site, op = record["site"], record["op"]
        d = found.get("LDS.64" if op == "ld" else "STS.64")
        if d is None or d["inst_executed"] != 1:
            sys.exit(f"{site}: no single {op} 8 instruction in its launch")
        csv.append(f"{site},{d['wavefronts']},{d['wavefronts_ideal']},{d['inst_executed']}")
    src = open(os.path.join(res, "ldst8.trace")).read()
    open(os.path.join(SM90, "cases", "fid8.trace"), "w").write(src)
    open(os.path.join(SM90, "measured", "fid8.csv"), "w").write("\n".join(csv) + "\n")
    return len(trace)


def serve(slots):
    """The executions of the CAS loop, each its active lanes, and each lane's
    rank: in every execution, per half warp (lanes 0-15, then 16-31) and per
    bank pair, the lowest waiting lane succeeds, unless its address already
    succeeded in this execution (then no lane of that bank pair in this half
    does); the others fail and go round the loop again."""
    waiting = [l for l in range(32) if slots[l] >= 0]
    execs, rank, done = [], {}, {}
    while waiting:
        execs.append(list(waiting))
        claimed, won = set(), []
        for half in (range(0, 16), range(16, 32)):
            first = {}
            for l in waiting:
                if l in half:
                    first.setdefault(2 * slots[l] % 32, l)  # 8-byte slots: bank pairs, lowest lane first
            for l in first.values():
                if slots[l] not in claimed:
                    claimed.add(slots[l])
                    won.append(l)
        for l in won:
            rank[l] = done.get(slots[l], 0)
            done[slots[l]] = rank[l] + 1
        waiting = [l for l in waiting if l not in won]
    return execs, [rank.get(l, -1) for l in range(32)]


def collect_atom64(res, env):
    cases = [l.split() for l in open(os.path.join(res, "atom64.cases")) if l.strip() and not l.startswith("#")]
    ranks = [l.split() for l in open(os.path.join(res, "atom64.ranks.txt"))]
    rows = memory_rows(os.path.join(res, "atom64.sass.csv"), {"ATOMS.CAST.SPIN.64", "LDS.64"})
    if not (len(cases) == len(ranks) == len(rows)):
        sys.exit(f"atom64: {len(cases)} cases, {len(ranks)} rank rows, {len(rows)} launches")
    trace = ["# validate/fidelity/atom64.cu's cases (validate/fidelity/make_cases.py), each loop as its executions,",
             "# their lanes rebuilt by validate/fidelity/collect.py (serve), which gives the measured executions and ranks",
             "warp 32"]
    csv = header(env, "validate/sm90/cases/fid64.trace: the ATOMS.CAST.SPIN.64 and the LDS.64 of each case's loop")
    csv.append("case,atom_wavefronts,atom_executions,ld_wavefronts,ld_executions")
    for c, r, found in zip(cases, ranks, rows):
        name, slots, rk = c[0], [int(x) for x in c[1:]], r[2:]
        if r[0] != name or r[1] != "ok":
            sys.exit(f"{name}: ranks row {r[:2]}")
        a, ld = found["ATOMS.CAST.SPIN.64"], found["LDS.64"]
        execs, served = serve(slots)
        if served != [int(x) for x in rk] or len(execs) != a["inst_executed"]:
            sys.exit(f"{name}: the serving order does not give the measured ranks and executions")
        for e, lanes in enumerate(execs):
            addrs = [8 * slots[l] if l in lanes else None for l in range(32)]
            trace.append(line(f"{name}/atom/e{e}", "atom.cast", 8, addrs))
            trace.append(line(f"{name}/ld/e{e}", "ld", 8, addrs))
        csv.append(f"{name},{a['wavefronts']},{a['inst_executed']},{ld['wavefronts']},{ld['inst_executed']}")
    open(os.path.join(SM90, "cases", "fid64.trace"), "w").write("\n".join(trace) + "\n")
    open(os.path.join(SM90, "measured", "fid64.csv"), "w").write("\n".join(csv) + "\n")
    return len(cases)


def main():
    res = sys.argv[1]
    env = [l.rstrip("\n") for l in open(os.path.join(res, "environment.txt"))]
    print(f"fid8: {collect_ldst8(res, env)} cases; fid64: {collect_atom64(res, env)} cases")


if __name__ == "__main__":
    main()
