"""cp.async in the forms library kernels compile to: the L2::128B
prefetch hint (SASS .LTC128B; kinds caltc and cgltc) and lanes that ignore
their source and fill their destination with zeros (kind zfill). In a trace a
zero-filling lane's source is `z` (docs/trace-format.md); the manifest gives
it as IGNORE_SOURCE, which the kernel turns into a null source and a true
ignore-src predicate (probe_kernels_cpasync.cuh)."""
from validate.sm90.probes.probe_case_kinds import W, row_lanes

IGNORE_SOURCE = 0xFFFFFFFF
Z = "z"


def hinted_cases(c):
    """Every .ca copy of kind cpasync again with the hint (caltc), and every
    .cg copy of kinds cpasync and cgsrc (cgltc): the same destinations and
    sources, so each case can be compared with its plain twin's measurement
    as well as with the model."""
    for r in [r for r in c.rows if r["kind"] in ("cpasync", "cgsrc")]:
        dst, src = row_lanes(r)
        cg = r["variant"] == "cg.16"
        kind = "cgltc" if cg else "caltc"
        name = kind + r["name"][r["name"].index("-"):]
        c.add(f"{kind}.trace", name, kind, r["variant"], r["width"], dst, src=src,
              op="cpasync.cg" if cg else "cpasync", comment=r["variant"] + " .L2::128B; twin " + r["name"])


def zero_fill_patterns(w, rnd):
    """name -> (destinations, sources with Z for a zero-filling lane) for a
    copy of w bytes per lane; every destination distinct."""
    contig = [w * l for l in range(W)]
    kway4 = [(l % 4) * 128 + (l // 4) * w for l in range(W)] if (W // 4) * w <= 128 else None
    column = [l * 128 for l in range(W)]                 # every lane in bank (group) 0
    p = {}
    p["none"] = (contig, contig)
    p["all"] = (contig, [Z] * W)
    if kway4:
        p["all-kway4"] = (kway4, [Z] * W)
    p["all-column"] = (column, [Z] * W)
    p["even"] = (contig, [Z if l % 2 == 0 else s for l, s in enumerate(contig)])
    p["lo16"] = (contig, [Z if l < 16 else s for l, s in enumerate(contig)])
    # Reads that conflict: lanes of one source bank group in distinct lines.
    # With zero-filling lanes among them, fewer lanes read.
    if w == 4:
        groups = [(l // 8) * 2048 + (l % 8) * 4 for l in range(W)]   # 4 lanes per source bank (cuBLAS's float32 tile)
        p["srcgroups"] = (contig, groups)
        p["srcgroups-read1"] = (contig, [s if l < 8 else Z for l, s in enumerate(groups)])
        p["srcgroups-read3"] = (contig, [Z if l < 8 else s for l, s in enumerate(groups)])
        shifted = [28 + 4 * l for l in range(W)]                      # one 128-byte span from bank 7 on (cuDNN's)
        p["shift7"] = (contig, shifted)
        p["shift7-lane24"] = (contig, [Z if l == 24 else s for l, s in enumerate(shifted)])
    else:
        lines = [l * 128 for l in range(W)]                            # every lane its own line, bank group 0
        p["srclines"] = (contig, lines)
        p["srclines-read2"] = (contig, [s if l % 8 < 2 else Z for l, s in enumerate(lines)])
        p["srclines-read1"] = (contig, [s if l % 8 == 0 else Z for l, s in enumerate(lines)])
        rows64 = [(l // 4) * 256 + (l % 4) * 16 for l in range(W)]    # 64-byte rows: a quarter warp reads two lines
        p["rows64"] = (contig, rows64)
        p["rows64-half"] = (contig, [Z if l % 8 >= 4 else s for l, s in enumerate(rows64)])
    p["bcast-odd"] = (contig, [Z if l % 2 else 0 for l in range(W)])
    perm = list(range(W))
    rnd.shuffle(perm)
    src = [rnd.randrange(0, 4096 // w) * w for _ in range(W)]
    ignore = rnd.getrandbits(W)
    p["rand"] = ([w * x for x in perm], [Z if (ignore >> l) & 1 else s for l, s in enumerate(src)])
    return p


def zero_fill_cases(c, rnd):
    """Kind zfill: the ignore-src form with and without the hint, lanes
    zero-filling or reading. A .ca copy is op cpasync (rule 6), a .cg copy
    with its predicate operand op cpasync.cg.zfill (rule 6c)."""
    for variant in ("ca.4.ltc", "ca.16.ltc", "cg.16.ltc", "ca.4", "ca.16", "cg.16"):
        w = int(variant.split(".")[1])
        op = "cpasync.cg.zfill" if variant.startswith("cg") else "cpasync"
        for pname, (dst, src) in zero_fill_patterns(w, rnd).items():
            hw_src = [IGNORE_SOURCE if s == Z else s for s in src]
            c.add("zfill.trace", f"zfill-{variant}-{pname}", "zfill", variant, w, dst, src=src, hw_src=hw_src,
                  op=op, comment=f"{variant}, ignore-src form; z: a zero-filling lane")
