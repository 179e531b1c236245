"""The cp.async campaign's runs 9 to 15 (docs/bank-model.md, rule 6b): the
sub-cases of quarter warps that read beside zero-filling lanes which rule 6b
declined or still declines, built on make_cpasync_zrow_cases.py's quarters
(that script writes them: seeds 5555 and 5656 the family zdecl, 5757, 5858 and
6060 the family zcoll, 6161 zbeside; its docstring says what each holds).
Standard library only."""
import os
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.fidelity.make_cpasync_zrow_cases import add_copy, mixed_quarter, rotated  # noqa: E402


def shared_row(rng, quarters):
    """The quarters with lanes of one quarter moved into a row another
    quarter writes (its free slots): zero-filling lanes, or a reader sector
    (a pair of lanes, read from its own line where it writes); None where
    no such move fits."""
    taken = {d for q in quarters for d, _ in q}
    rows_of = [{d // 128 for d, _ in q} for q in quarters]
    for _ in range(20):
        a, b = rng.sample(range(4), 2)
        row = rng.choice(sorted(rows_of[a]))
        free = [s for s in range(8) if 128 * row + 16 * s not in taken]
        zeros = [k for k, (_, src) in enumerate(quarters[b]) if src is None]
        if rng.random() < 0.5 and zeros and free:
            moved = rng.sample(zeros, rng.randrange(1, min(len(zeros), len(free)) + 1))
            slots = rng.sample(free, len(moved))
            q = list(quarters[b])
            for k, slot in zip(moved, slots):
                q[k] = (128 * row + 16 * slot, None)
            return quarters[:b] + [q] + quarters[b + 1:]
        sectors = [k for k in range(4) if 2 * k in free and 2 * k + 1 in free]
        readers = {}
        for k, (d, src) in enumerate(quarters[b]):
            if src is not None:
                readers.setdefault((d // 32, src // 32), []).append(k)
        pairs = [v for v in readers.values() if len(v) == 2]
        if sectors and pairs:
            k0, k1 = rng.choice(pairs)
            sector = rng.choice(sectors)
            line = quarters[b][k0][1] // 128
            q = list(quarters[b])
            for k, slot in ((k0, 2 * sector), (k1, 2 * sector + 1)):
                q[k] = (128 * row + 16 * slot, 128 * line + 16 * slot)
            return quarters[:b] + [q] + quarters[b + 1:]
    return None


def zdecl(out, rng, n, moves=(1,)):
    """Rule 6b's declined sub-cases with zero-filling lanes: rows written by
    two quarter warps (share: `moves` says how many moves a warp may get),
    rows filled from several lines with sources shifted in their lines (shift)."""
    def emit(kind, quarters, i):
        add_copy(out, rng, "zdecl", i, quarters, ["zdecl " + kind, "mask full", "zero mixed"],
                 ["posf1", "negf1"] if i % 2 else ["negf1", "posf1"])

    def mixed(quarters):
        return {src is None for q in quarters for _, src in q} == {True, False}

    made = 0
    while made < n:  # share
        rows, lines = iter(rng.sample(range(32), 32)), iter(rng.sample(range(64), 64))
        quarters = [mixed_quarter(rng, rows, lines) for _ in range(4)]
        for _ in range(rng.choice(moves) if len(moves) > 1 else moves[0]):
            quarters = quarters and shared_row(rng, quarters)
        if quarters and mixed(quarters):
            emit("share", quarters, made)
            made += 1
    made = 0
    while made < n:  # shift: a quarter whose row is filled from several lines, its sources rotated
        rows, lines = iter(rng.sample(range(32), 32)), iter(rng.sample(range(64), 64))
        quarters = [mixed_quarter(rng, rows, lines) for _ in range(4)]
        several = [k for k, q in enumerate(quarters)
                   if any(len({src // 128 for d, src in q if src is not None and d // 128 == r}) > 1
                          for r in {d // 128 for d, _ in q})]
        if not several or not mixed(quarters):
            continue
        quarters = [rotated(q, rng) if k in several or rng.random() < 0.3 else q for k, q in enumerate(quarters)]
        emit("shift", quarters, made)
        made += 1


def colliding_quarter(rng, rows, lines):
    """[(destination, source or None)] for 8 lanes: a row with 2 to 4 of its
    sectors read from as many lines at one place (the same 32-byte sector of
    each), its other slots zero-filling, read from other places, or empty
    for zero-filling lanes in another row (on the readers' quads or not)."""
    row = next(rows)
    k = rng.choice([2, 2, 3, 4])
    place = rng.randrange(4)
    sectors = rng.sample(range(4), k)
    lanes, free = [], [d for d in range(4) if d not in sectors]
    for d in sectors:
        line = next(lines)
        lanes += [(128 * row + 32 * d + 16 * h, 128 * line + 32 * place + 16 * h) for h in (0, 1)]
    if free and rng.random() < 0.3:  # another sector of the row read from another place of a fresh line
        d = free.pop(rng.randrange(len(free)))
        other = rng.choice([p for p in range(4) if p != place])
        line = next(lines)
        lanes += [(128 * row + 32 * d + 16 * h, 128 * line + 32 * other + 16 * h) for h in (0, 1)]
    zero_row = row if rng.random() < 0.5 else next(rows)
    slots = [2 * d + h for d in free for h in (0, 1)] if zero_row == row else rng.sample(range(8), 8 - len(lanes))
    lanes += [(128 * zero_row + 16 * s, None) for s in slots[:8 - len(lanes)]]
    while len(lanes) < 8:  # the row is full of readers: zeros in a fresh row
        extra = next(rows)
        lanes += [(128 * extra + 16 * s, None) for s in rng.sample(range(8), 8 - len(lanes))]
    rng.shuffle(lanes)
    return lanes


def two_collisions(rng, rows, lines, same_place=None):
    """[(destination, source or None)] for 8 reading lanes: two rows of two
    sectors, each row's read from two lines at one place (two rows, `rows2`),
    or one row of four sectors read from two lines at each of two places
    (`places2`, a sub-case rule 6b declines). With `same_place` (a share, run
    14), the second row of `rows2` reads at the first row's place that often
    (`rows2same`), else at another (`rows2diff`)."""
    if same_place is not None and rng.random() < 0.5:
        same = rng.random() < same_place
        first = rng.randrange(4)
        places = [first, first if same else rng.choice([p for p in range(4) if p != first])]
        lanes = []
        for place in places:
            row = next(rows)
            for d in rng.sample(range(4), 2):
                line = next(lines)
                lanes += [(128 * row + 32 * d + 16 * h, 128 * line + 32 * place + 16 * h) for h in (0, 1)]
        return lanes, "rows2same" if same else "rows2diff"
    if same_place is None and rng.random() < 0.5:
        lanes = []
        for _ in range(2):
            row, place = next(rows), rng.randrange(4)
            for d in rng.sample(range(4), 2):
                line = next(lines)
                lanes += [(128 * row + 32 * d + 16 * h, 128 * line + 32 * place + 16 * h) for h in (0, 1)]
        return lanes, "rows2"
    row = next(rows)
    a, b = rng.sample(range(4), 2)
    lanes = []
    for d, place in zip(rng.sample(range(4), 4), [a, a, b, b]):
        line = next(lines)
        lanes += [(128 * row + 32 * d + 16 * h, 128 * line + 32 * place + 16 * h) for h in (0, 1)]
    return lanes, "places2"


def warps_of_kinds(rng, choices, wanted, build, shuffle_quarters=False):
    """(quarters, kinds) of one warp: each quarter a kind drawn from `choices`
    and made by `build[kind](rng, rows, lines)` (its lanes, and the kind it
    turned out to be), drawn again until a quarter is of a `wanted` kind and
    the warp holds both reading and zero-filling lanes; `shuffle_quarters`
    shuffles every quarter's lanes once all are made."""
    while True:
        rows, lines = iter(rng.sample(range(32), 32)), iter(rng.sample(range(64), 64))
        kinds = [rng.choice(choices) for _ in range(4)]
        if not set(kinds) & wanted:
            continue
        quarters = []
        for k, kind in enumerate(kinds):
            lanes, kinds[k] = build[kind](rng, rows, lines)
            quarters.append(lanes)
        if shuffle_quarters:
            for q in quarters:
                rng.shuffle(q)
        if {s is None for q in quarters for _, s in q} == {True, False}:
            return quarters, kinds


def _zero_quarter(rng, rows, lines):
    r = next(rows)
    return [(128 * r + 16 * s, None) for s in range(8)], "zero"


# The quarters every family draws beside its own.
COMMON_QUARTERS = {
    "coll": lambda rng, rows, lines: (colliding_quarter(rng, rows, lines), "coll"),
    "mixed": lambda rng, rows, lines: (mixed_quarter(rng, rows, lines), "mixed"),
    "zero": _zero_quarter,
}


def zcoll(out, rng, n, variety=False, same_place=None):
    """Rows read from several lines at one place beside zero-filling lanes:
    one to four colliding quarters a warp, the others mixed or zero-only;
    with `variety`, also quarters of two_collisions; with `same_place` (run
    14), two_collisions' quarters twice as often, their rows at one place
    that share of the time."""
    def two(rng, rows, lines):
        lanes, kind = two_collisions(rng, rows, lines, same_place)
        rng.shuffle(lanes)
        return lanes, kind

    choices = ["coll", "coll", "mixed", "zero"] + (["two"] if variety else [])
    choices += ["two", "two"] if same_place is not None else []
    for i in range(n):
        quarters, kinds = warps_of_kinds(rng, choices, {"coll", "two"}, {**COMMON_QUARTERS, "two": two})
        add_copy(out, rng, "zcoll", i, quarters, ["zcoll " + ",".join(kinds), "mask full", "zero mixed"],
                 ["posf1", "negf1"] if i % 2 else ["negf1", "posf1"])


def beside_place(rng, rows, lines):
    """[(destination, source or None)] for 8 lanes: a row reading 2 or 3 lines
    at one place (whole sectors), and another row reading a further line at
    that place (one sector, sometimes a second from another place), the
    other lanes zero-filling in either row or a third (run 15)."""
    a, b, place = next(rows), next(rows), rng.randrange(4)
    k = rng.choice([2, 2, 3])
    lanes = []
    for d in rng.sample(range(4), k):
        line = next(lines)
        lanes += [(128 * a + 32 * d + 16 * h, 128 * line + 32 * place + 16 * h) for h in (0, 1)]
    b_sectors = rng.sample(range(4), 2 if len(lanes) <= 4 and rng.random() < 0.5 else 1)
    for n, d in enumerate(b_sectors):
        where = place if n == 0 else rng.choice([p for p in range(4) if p != place])
        line = next(lines)
        lanes += [(128 * b + 32 * d + 16 * h, 128 * line + 32 * where + 16 * h) for h in (0, 1)]
    taken = {dst for dst, _ in lanes}
    zero_row = rng.choice([a, b, next(rows)])
    free = [s for s in range(8) if 128 * zero_row + 16 * s not in taken]
    rng.shuffle(free)
    lanes += [(128 * zero_row + 16 * s, None) for s in free[:8 - len(lanes)]]
    while len(lanes) < 8:  # the row was full: zeros in a fresh one
        extra = next(rows)
        lanes += [(128 * extra + 16 * s, None) for s in rng.sample(range(8), 8 - len(lanes))]
    return lanes


def groups_single(rng, rows, lines):
    """[(destination, source or None)] for 8 lanes: two groups (two rows, each
    reading two lines at one place, the places equal or not) whose second
    sector one lane reads (at its first 16 bytes, where the lane writes), and
    two zero-filling lanes (run 15)."""
    a, b = next(rows), next(rows)
    first = rng.randrange(4)
    places = [first, first if rng.random() < 0.5 else rng.choice([p for p in range(4) if p != first])]
    lanes = []
    for row, place in zip((a, b), places):
        whole = rng.choice([d for d in range(4) if d != place])
        line = next(lines)
        lanes += [(128 * row + 32 * whole + 16 * h, 128 * line + 32 * place + 16 * h) for h in (0, 1)]
        line = next(lines)  # the one-lane sector: destination sector `place`, its first half
        lanes.append((128 * row + 32 * place, 128 * line + 32 * place))
    zero_row = rng.choice([a, b, next(rows)])
    taken = {dst for dst, _ in lanes}
    free = [s for s in range(8) if 128 * zero_row + 16 * s not in taken and
            not (zero_row in (a, b) and s % 2 == 1 and 128 * zero_row + 16 * (s - 1) in taken)]
    lanes += [(128 * zero_row + 16 * s, None) for s in rng.sample(free, 2)]
    return lanes, "single" + ("same" if places[0] == places[1] else "diff")


def zbeside(out, rng, n):
    """Runs 15 and 16: the two shapes rule 6b had declined as never measured, one or two
    quarters a warp, beside colliding, mixed and zero-only quarters."""
    build = {**COMMON_QUARTERS, "beside": lambda rng, rows, lines: (beside_place(rng, rows, lines), "beside"),
             "single": groups_single}
    choices = ["beside", "beside", "single", "single", "coll", "mixed", "zero"]
    for i in range(n):
        quarters, kinds = warps_of_kinds(rng, choices, {"beside", "single"}, build, shuffle_quarters=True)
        add_copy(out, rng, "zbeside", i, quarters, ["zbeside " + ",".join(kinds), "mask full", "zero mixed"],
                 ["posf1", "negf1"] if i % 2 else ["negf1", "posf1"])
