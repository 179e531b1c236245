#!/usr/bin/env python3
"""Per-instruction comparison: ncu's per-SASS shared-memory counters against
bankcheck's per-site prediction, for every profiled launch of one program.

  per_instruction.py --sass P.sass.csv --disasm P.gi.txt --manifest P.manifest.csv \
                     --predicted-sites P.predicted_sites.csv --repo . --csv out.csv --markdown out.md

Inputs:
  P.sass.csv   `ncu --section SourceCounters` of every launch, exported with
               `ncu -i R --page source --csv --print-source sass`: one block
               per launch, in launch order, each opened by a "Kernel Name" line
               (ncu 2025.3 prints each block twice; that is recognised)
  P.gi.txt     `nvdisasm -gi` of the program's cubin (the kernels are built
               with -lineinfo): every SASS instruction with its inline chain
  P.manifest.csv / P.predicted_sites.csv   from `kernel.P --mode profile` and
               `--mode predict` (the same inputs, hash-checked by launch_compare.py)

How an LDS/STS finds its site, stated up front:
  1. the launch's SASS (ncu's Source column) is matched, instruction by
     instruction, with one function of the disassembly;
  2. that instruction's inline chain holds a frame in an algorithm header
     sim/NAME.hpp (the accessor call `smem.load/store(SITE, ...)`), other
     than sim/algorithms/shared_accessor.hpp;
  3. the line names a site enumerator of that header's `enum Site` (an
     accessor argument first, else any identifier on the line, as when a
     wrapper such as PBS's key(smem, probe, i) passes it on); it is named by
     its `kSiteNames` entry prefixed with the struct's `kName` (the name
     BlockRecorder gives it), and must be one of the sites the program
     emitted for the launch (P.predicted_sites.csv); a frame that names two
     such sites, or none, passes the question to the next frame outwards.
     An enumerator's value is its C++ value (explicit `= N` included); an
     enum whose values are not exactly 0..N-1 for the N names of kSiteNames
     is a problem, never paired by position. Every site the program emitted
     for a launch must be a name of the header tables read, else that is a
     problem too: the header reading is checked against the program.
An instruction whose site cannot be told is listed as unmapped, never
guessed. Per site the measured side sums its SASS instructions:
  wavefronts   "L1 Wavefronts Shared" (what the model predicts): primary
  conflicts    "L1 Wavefronts Shared" - "L1 Wavefronts Shared Ideal":
               secondary, since ncu's per-instruction ideal is its own
               notion (for 8-byte PBS loads it differs from the model's ideal
               while the launch-level bank-conflict counter agrees)
  instructions "Instructions Executed": warp-level issues, which count an
               instruction all of whose threads are predicated off; the
               prediction counts instructions with an active lane, so
               instructions are reported, and compared only as information.
Exit status 0 only when every (launch, site, op) has equal wavefronts, every
executed LDS/STS maps to a site and there is no problem (launches unpaired,
SASS that matches no function, a site table that cannot be read); else 1.
Only the standard library is used.
"""
import argparse
import csv
import itertools
import os
import re
import sys
from collections import defaultdict

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness import ncu_csv, sass_text  # noqa: E402

FRAME = re.compile(r'File "([^"]+)", line (\d+)')
INSTR = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*$")
SECTION = re.compile(r"^//-+ \.text\.(\S+) -+$")
ACCESSOR_ARG = re.compile(r"\b(?:load|store)\s*(?:<[^()]*?>)?\s*\(\s*([A-Za-z_]\w*)")


def normal(sass):
    """SASS text as both tools print it, without spacing or the final ';'."""
    return " ".join(sass.replace(";", " ").split())


def op_of(sass):
    mnemonic = sass_text.mnemonic(sass)
    if mnemonic.startswith("LDS") and not mnemonic.startswith("LDSM"):
        return "ld"
    if mnemonic.startswith("STS"):
        return "st"
    return None


def read_disassembly(path):
    """{function: [(offset, sass, [(file, line), ...] inline chain, innermost first)]}."""
    functions, current, chain, pending = {}, None, [], None
    for raw in open(path, errors="replace"):
        line = raw.rstrip("\n")
        m = SECTION.match(line.strip())
        if m:
            current = functions.setdefault(m.group(1), [])
            chain, pending = [], None
            continue
        if line.lstrip().startswith("//##"):
            frames = [(f, int(n)) for f, n in FRAME.findall(line)]
            # a block of //## lines describes one location: innermost first,
            # each line adding its outer frame; a new block starts a new chain
            if pending is None:
                pending = []
            for fr in frames:
                if fr not in pending:
                    pending.append(fr)
            continue
        m = INSTR.match(line)
        if m and current is not None:
            if pending is not None:
                chain, pending = pending, None
            current.append((int(m.group(1), 16), normal(m.group(2)), chain))
    return functions


class SiteTable:
    """(header, line) -> "<kName>.<site name>", from the algorithm headers."""

    def __init__(self, repo):
        self.repo = repo
        self.cache = {}
        self.problems = []  # site tables that could not be read

    def header(self, rel):
        if rel not in self.cache:
            path = self.locate(rel)
            lines = open(path).read().split("\n") if path else []
            self.cache[rel] = (lines, self.structs(lines, rel, self.problems))
        return self.cache[rel]

    def names(self):
        """Every site name of the headers read so far."""
        return {f"{name}.{site}" for _, structs in self.cache.values() for _, name, table in structs
                for site in table.values()}

    def locate(self, rel):
        """The header a line-table path names: as given, or (line tables
        recorded before the headers moved into sim/algorithms/<name>/) the one
        header of that file name under sim/."""
        path = os.path.join(self.repo, rel)
        if os.path.exists(path):
            return path
        base = os.path.basename(rel)
        hits = [os.path.join(d, base) for d, _, files in os.walk(os.path.join(self.repo, "sim")) if base in files]
        return hits[0] if len(hits) == 1 else None

    @staticmethod
    def enumerators(body):
        """{enumerator: value} of an enum body, as C++ numbers them (implicit
        values count on from the previous one; explicit ones must be integer
        literals), or None when a value is not a literal."""
        body = re.sub(r"//[^\n]*|/\*.*?\*/", "", body, flags=re.S)
        values, nxt = {}, 0
        for e in (e.strip() for e in body.split(",")):
            if not e:
                continue
            name, _, value = (part.strip() for part in e.partition("="))
            if value:
                if not re.fullmatch(r"-?\d+", value):
                    return None
                nxt = int(value)
            values[name] = nxt
            nxt += 1
        return values

    @staticmethod
    def structs(lines, rel="", problems=None):
        """[(first line, kName, {enumerator: site name})] in file order; a
        kName chosen by a template parameter (PBS: `V == ... ? "pbs" : ...`)
        gives one entry per name it can take. An enum whose values are not
        0..N-1 for the N kSiteNames is reported in `problems` and left out."""
        text = "\n".join(lines)
        found = []
        for m in re.finditer(r"kName\s*=([^;]*);", text):
            start = text.count("\n", 0, m.start()) + 1
            rest = text[m.end():]
            enum = re.search(r"enum\s+Site\s*:\s*\w+\s*\{([^}]*)\}", rest)
            names = re.search(r"kSiteNames\[\d*\]\s*=\s*\{([^}]*)\}", rest)
            if not enum or not names:
                continue
            values = SiteTable.enumerators(enum.group(1))
            site_names = re.findall(r'"([^"]*)"', names.group(1))
            if values is None or sorted(values.values()) != list(range(len(site_names))):
                if problems is not None:
                    problems.append(f"{rel}:{start}: enum Site {values} does not number the {len(site_names)} "
                                    f"kSiteNames {site_names} as 0..{len(site_names) - 1}")
                continue
            table = {e: site_names[v] for e, v in values.items()}
            for name in re.findall(r'"([^"]+)"', m.group(1)):
                found.append((start, name, table))
        return found

    def site(self, rel, line, allowed):
        """The one site of `allowed` that the call on this line names, or None."""
        lines, structs = self.header(rel)
        if not 1 <= line <= len(lines):
            return None
        here = lines[line - 1]
        # a call's arguments may continue on the next lines
        window = " ".join(lines[line - 1:line + 2])
        for tokens in (ACCESSOR_ARG.findall(here), ACCESSOR_ARG.findall(window), re.findall(r"[A-Za-z_]\w*", here)):
            found = {f"{name}.{table[t]}" for _, name, table in structs for t in tokens if t in table} & allowed
            if len(found) == 1:
                return found.pop()
            if len(found) > 1:
                return None  # two sites on one line: not told apart
        return None


def site_of(chain, sites, allowed):
    """Innermost frame in an algorithm header that names one allowed site."""
    for path, line in chain:
        p = path.replace("\\", "/")
        i = p.rfind("/sim/")
        if i < 0 or p.endswith("/shared_accessor.hpp"):
            continue
        s = sites.site(p[i + 1:], line, allowed)
        if s:
            return s
    return None


def number(text):
    return ncu_csv.number(text) or 0.0


opcode = sass_text.opcode  # guard and mnemonic: operands differ between ncu and nvdisasm


def matching_functions(rows, functions):
    """The functions whose instruction sequence is the launch's, in the disassembly's order."""
    sass = [opcode(normal(r.get("Source", ""))) for r in rows]
    return [name for name, instrs in functions.items()
            if len(instrs) == len(sass) and all(a == opcode(b) for a, (_, b, _) in zip(sass, instrs))]


def match_function(rows, functions):
    """The one function whose instruction sequence is the launch's, or None."""
    hits = matching_functions(rows, functions)
    return hits[0] if len(hits) == 1 else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("--sass", "--disasm", "--manifest", "--predicted-sites", "--csv", "--markdown"):
        ap.add_argument(name, required=True)
    ap.add_argument("--repo", default=".")
    ap.add_argument("--title", default="")
    a = ap.parse_args()

    functions = read_disassembly(a.disasm)
    sites = SiteTable(a.repo)
    launches = ncu_csv.read_blocks(a.sass)
    manifest = list(csv.DictReader(open(a.manifest, newline="")))
    predicted = defaultdict(dict)
    for r in csv.DictReader(open(a.predicted_sites, newline="")):
        predicted[r["case"]][(r["site"], r["op"])] = r

    problems, out, unmapped = [], [], []
    # ncu 2025.3's source-page export prints most launches twice in a row; the
    # manifest is the launch list (ncu_csv.py); blocks it cannot pair stay
    # as they are and are reported below, never silently dropped.
    try:
        launches = ncu_csv.drop_copies_by_launch_list(launches, [None] * len(manifest))
    except ValueError:
        pass
    if len(launches) != len(manifest):
        problems.append(f"{len(manifest)} launches in the manifest, {len(launches)} in {a.sass}")
    for launch, (profiled, m) in enumerate(itertools.zip_longest(launches, manifest)):
        if m is None or profiled is None:
            problems.append(f"launch {launch}: " + ("no manifest row" if m is None else f"({m['case']}) not in {a.sass}"))
            continue
        (kernel, rows), case = profiled, m["case"]
        fn = match_function(rows, functions)
        if fn is None:
            problems.append(f"launch {launch} ({case}): its SASS matches no function of {a.disasm}")
            continue
        chains = functions[fn]
        allowed = {site for site, _ in predicted.get(case, {})}
        measured = defaultdict(lambda: {"instructions": 0.0, "wavefronts": 0.0, "ideal": 0.0, "sass": []})
        for row, (offset, sass, chain) in zip(rows, chains):
            op = op_of(sass)
            if op is None:
                continue
            executed = number(row.get("Instructions Executed"))
            if executed == 0:
                continue
            site = site_of(chain, sites, allowed)
            if site is None:
                unmapped.append((launch, case, f"{offset:#06x} {sass}", executed))
                continue
            t = measured[(site, op)]
            t["instructions"] += executed
            t["wavefronts"] += number(row.get("L1 Wavefronts Shared"))
            t["ideal"] += number(row.get("L1 Wavefronts Shared Ideal"))
            t["sass"].append(f"{offset:#06x} {sass}")
        for key in sorted(set(measured) | set(predicted.get(case, {}))):
            p = predicted.get(case, {}).get(key)
            t = measured.get(key)
            pw = int(p["wavefronts"]) if p else 0
            pc = int(p["conflicts"]) if p else 0
            pi = int(p["instructions"]) if p else 0
            mw = int(t["wavefronts"]) if t else 0
            mc = int(t["wavefronts"] - t["ideal"]) if t else 0
            mi = int(t["instructions"]) if t else 0
            out.append({"launch": launch, "case": case, "site": key[0], "op": key[1],
                        "predicted_instructions": pi, "measured_instructions": mi,
                        "predicted_wavefronts": pw, "measured_wavefronts": mw,
                        "predicted_conflicts": pc, "measured_conflicts": mc,
                        "wavefronts_equal": int(pw == mw), "conflicts_equal": int(pc == mc),
                        "sass": " | ".join(t["sass"]) if t else ""})

    # The header tables read must know every site the program emitted for the
    # launches compared: else the reading of the headers is wrong, not the model.
    compared = {m["case"] for m in manifest}
    unknown = sorted({site for case in compared for site, _ in predicted.get(case, {})} - sites.names())
    if unknown:
        problems.append(f"sites the program emitted that no header table read here names: {', '.join(unknown)}")
    problems.extend(sites.problems)

    # Line info is per instruction and the compiler may give one site's
    # instruction the line of its neighbour (an if-converted pair of stores,
    # say): then the sites' counts shift between them. Where the mismatched
    # sites of one launch and op agree as a set, say so: the model is right for
    # the set, the line table is not precise enough to split it.
    groups = defaultdict(list)
    for r in out:
        if not r["wavefronts_equal"]:
            groups[(r["launch"], r["op"])].append(r)
    for rows in groups.values():
        together = sum(r["predicted_wavefronts"] for r in rows) == sum(r["measured_wavefronts"] for r in rows)
        for r in rows:
            r["group_equal"] = int(together) if len(rows) > 1 else 0
    for r in out:
        r.setdefault("group_equal", 1)

    with open(a.csv, "w", newline="") as f:
        fields = list(out[0].keys()) if out else ["launch", "case"]
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(out)
    n = len(out)
    wf = sum(r["wavefronts_equal"] for r in out)
    cf = sum(r["conflicts_equal"] for r in out)
    ins = sum(r["predicted_instructions"] == r["measured_instructions"] for r in out)
    grouped = sum(1 for r in out if r["group_equal"] and not r["wavefronts_equal"])
    differ = sum(1 for r in out if not r["group_equal"])
    with open(a.markdown, "w") as f:
        f.write(f"# Per-instruction comparison: {a.title}\n\n")
        f.write("Per (launch, site, op): bankcheck's per-site prediction (sm90) against the sum of ncu's "
                "SourceCounters over the SASS instructions whose inline chain leads to that site's accessor call "
                "(validate/harness/per_instruction.py states the mapping).\n\n")
        f.write(f"- wavefronts (primary): {wf}/{n} (launch, site, op) equal\n"
                f"- conflicts as wavefronts - ncu's per-instruction ideal (secondary: for 8- and 16-byte "
                f"accesses ncu's ideal is not the model's, see docs/validation.md): {cf}/{n} equal\n"
                f"- instructions: {ins}/{n} equal (information: ncu counts fully predicated-off issues)\n"
                f"- sites whose wavefronts differ but agree as a set within their launch and op (line info "
                f"splits the set differently, see Mismatches): {grouped}; sites that differ even as a set: {differ}\n"
                f"- LDS/STS instructions that executed but map to no site: {len(unmapped)}\n")
        for p in problems:
            f.write(f"- problem: {p}\n")
        bad = [r for r in out if not r["wavefronts_equal"]]
        if bad:
            f.write("\n## Mismatches\n\n| launch | case | site | op | wavefronts pred / meas | conflicts pred / meas | "
                    "set equal | SASS |\n|---|---|---|---|---|---|---|---|\n")
            for r in bad:
                f.write(f"| {r['launch']} | {r['case']} | {r['site']} | {r['op']} | {r['predicted_wavefronts']} / "
                        f"{r['measured_wavefronts']} | {r['predicted_conflicts']} / {r['measured_conflicts']} | "
                        f"{'yes' if r['group_equal'] else 'no'} | {r['sass']} |\n")
        if unmapped:
            f.write("\n## Unmapped instructions\n\n| launch | case | SASS | executed |\n|---|---|---|---|\n")
            for launch, case, sass, executed in unmapped:
                f.write(f"| {launch} | {case} | {sass} | {int(executed)} |\n")
    print(f"{a.title:12s} per site: wavefronts {wf}/{n} equal, {grouped} more equal only as a set, {differ} differ "
          f"(conflicts by ncu's ideal {cf}/{n}, instructions {ins}/{n}); unmapped LDS/STS {len(unmapped)}"
          + (f", problems {len(problems)}" if problems else ""))
    for p in problems:
        print("  problem:", p)
    return 0 if not problems and wf == n and not unmapped else 1


if __name__ == "__main__":
    sys.exit(main())
