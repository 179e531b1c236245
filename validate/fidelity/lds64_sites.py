"""Which pattern each LDS.64 of validate/fidelity/lds64.cu reads, from the
SASS (cuobjdump -sass or nvdisasm): site s's offsets come from a load of the
pattern table at byte offset 128 * s (`LDG ... [R.64+0x...]`), and the
LDS.64's address register is followed back to that load through the
arithmetic between them (a register written from exactly one site's value
carries that site). ptxas may reorder the sites; the collector uses this
order, and refuses a kernel whose LDS.64 do not read every site once.

    python3 validate/fidelity/lds64_sites.py SASS     (prints each kernel's order)

Standard library only."""
import re
import sys

FUNC = re.compile(r"Function : (\S+)|^\s*\.text\.(\S+):")
INS = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)\s*(.*?)\s*;")
REG = re.compile(r"\bR(\d+)\b")
TAB_LOAD = re.compile(r"\[R\d+\.64(?:\+(0x[0-9a-f]+))?\]")
ROW_BYTES = 128  # 32 lanes x 4 bytes: one site's row of the pattern table


def kernels(text):
    """{kernel name: [(mnemonic, operand text)]} in address order."""
    out, cur = {}, None
    for line in text.splitlines():
        m = FUNC.search(line)
        if m:
            cur = m.group(1) or m.group(2)
            out[cur] = []
            continue
        m = INS.search(line)
        if m and cur is not None:
            out[cur].append((m.group(2), m.group(3)))
    return out


def site_order(instructions):
    """The site each LDS.64 reads, in address order (None where not traced)."""
    site, order = {}, []
    for mn, ops in instructions:
        if mn.startswith("SHFL"):  # SHFL.IDX PT, Rd, Rsrc, Rlane, c: its first operand is a predicate
            ops = ops.split(",", 1)[1] if "," in ops else ops
        dest = ops.split(",")[0].strip() if ops else ""
        regs = REG.findall(ops)
        if mn.startswith("LDG"):
            m = TAB_LOAD.search(ops)
            if m and dest.startswith("R"):
                site[dest] = int(m.group(1) or "0", 16) // ROW_BYTES
            continue
        if mn == "LDS.64":
            addr = REG.search(ops[ops.index("["):]) if "[" in ops else None
            order.append(site.get(f"R{addr.group(1)}") if addr else None)
            n = int(dest[1:]) if dest.startswith("R") else None
            if n is not None:
                site.pop(f"R{n}", None)
                site.pop(f"R{n + 1}", None)
            continue
        if not dest.startswith("R") or not regs:
            continue
        found = {site[f"R{r}"] for r in regs[1:] if f"R{r}" in site}
        if len(found) == 1:
            site[dest] = found.pop()
        else:
            site.pop(dest, None)
    return order


SOURCE = re.compile(r"^\s*(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)\s*(.*?)\s*;?\s*$")


def page_order(sources, sites, what):
    """The site order from Nsight Compute's source page: its SASS texts ("Source"), in address order."""
    ins = [(m.group(2), m.group(3)) for m in (SOURCE.match(t) for t in sources) if m]
    order = site_order(ins)
    if sorted(o for o in order if o is not None) != list(range(sites)) or None in order:
        sys.exit(f"{what}: its {len(order)} LDS.64 do not read sites 0..{sites - 1} once each")
    return order


def orders(text, sites):
    """{kernel: order} for every lds64_sites kernel; exits where one is not a permutation of the sites."""
    out = {}
    for name, ins in kernels(text).items():
        if "lds64_sites" not in name:
            continue
        order = site_order(ins)
        if sorted(o for o in order if o is not None) != list(range(sites)) or None in order:
            sys.exit(f"{name}: its {len(order)} LDS.64 do not read sites 0..{sites - 1} once each")
        out[name] = order
    return out


def main():
    text = open(sys.argv[1]).read()
    for name, order in orders(text, 256).items():
        moved = sum(1 for i, s in enumerate(order) if i != s)
        print(f"{name}: {len(order)} sites, {moved} out of source order")


if __name__ == "__main__":
    main()
