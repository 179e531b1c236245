"""Tests of the Python module `bankcheck` (docs/python.md).

Expected values come from outside the library: a bank count written here
by brute force, and the H100's measured wavefronts committed under
validate/sm90/measured/. The last tests are the example of docs/python.md:
a pytest that keeps a shared-memory access pattern conflict-free in CI.
"""
import csv
import pathlib
import random

import pytest

import bankcheck

ROOT = pathlib.Path(__file__).resolve().parents[2]


def brute_force_wavefronts(addresses):
    """32 banks of 4-byte words, one phase: the most distinct words one bank serves."""
    words_per_bank = {}
    for a in addresses:
        if a is not None:
            words_per_bank.setdefault((a // 4) % 32, set()).add(a // 4)
    return max((len(words) for words in words_per_bank.values()), default=0)


def test_presets():
    assert {"sm90", "dmm", "kepler-4B", "kepler-8B"} <= set(bankcheck.presets())
    model = bankcheck.Model("sm90")
    assert (model.banks, model.bank_bytes, model.warp) == (32, 4, 32)


# docs/bank-model.md: sm90's 1-, 2- and 4-byte accesses are one phase costing the
# most distinct 4-byte words of one bank (rule 1); the DMM with 32 banks costs 4-byte
# elements the same way (cell = address / 4). Kepler's 4-byte mode does not (two
# words share a bank word), so it is not checked here.
@pytest.mark.parametrize("preset", ["sm90", "dmm"])
@pytest.mark.parametrize("op", ["ld", "st"])
def test_4_byte_accesses_match_brute_force(preset, op):
    model = bankcheck.Model(preset)
    rng = random.Random(27)
    for trial in range(500):
        span = rng.choice([32, 128, 1024, 8192])
        addresses = [4 * rng.randrange(span) if rng.random() > 0.1 else None for _ in range(32)]
        if all(a is None for a in addresses):
            continue
        cost = model.cost(addresses, width=4, op=op)
        assert cost.wavefronts == brute_force_wavefronts(addresses), (trial, addresses)
        assert cost.ideal == 1 and cost.conflicts == cost.wavefronts - 1


def measured(set_name):
    """site -> (wavefronts, conflicts) that Nsight Compute measured on the H100."""
    rows = {}
    for line in (ROOT / "validate/sm90/measured" / f"{set_name}.csv").read_text().splitlines():
        if line.startswith("#") or line.startswith("site,") or not line:
            continue
        site, wavefronts, conflicts = line.split(",")[:3]
        rows[site] = (int(wavefronts), int(conflicts))
    return rows


def test_measured_h100_lds():
    # ld4-stride8: one LDS.32, lane l reads the word 8 l (validate/sm90/cases/design.trace).
    assert measured("design")["ld4-stride8"] == (8, 7)
    cost = bankcheck.Model("sm90").cost([4 * 8 * lane for lane in range(32)], width=4, op="ld")
    assert (cost.wavefronts, cost.conflicts) == (8, 7)
    # ld16-stride1: one LDS.128, four quarter-warp phases of 128 bytes, no conflict.
    assert measured("design")["ld16-stride1"] == (4, 0)
    cost = bankcheck.Model("sm90").cost([16 * lane for lane in range(32)], width=16)
    assert (cost.wavefronts, cost.ideal, cost.conflicts) == (4, 4, 0)


def test_replay_of_the_measured_design_set():
    result = bankcheck.replay(str(ROOT / "validate/sm90/cases/design.trace"), model="sm90")
    expected = measured("design")
    assert len(result["sites"]) == len(expected)
    for site in result["sites"]:
        assert (site["wavefronts"], site["conflicts"]) == expected[site["site"]], site["site"]


def test_kernel_counter_of_the_measured_ld8cap_set():
    # ld8cap read both counters of each paired 8-byte load (H100, 2026-11-23):
    # the site's kernel_counter is the kernel-level wavefronts and conflicts.
    rows = {}
    with open(ROOT / "validate/sm90/measured/ld8cap.csv") as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            rows[row["site"]] = (int(row["kernel_wavefronts"]), int(row["kernel_conflicts"]))
    result = bankcheck.replay(str(ROOT / "validate/sm90/cases/ld8cap.trace"), model="sm90")
    assert len(result["sites"]) == len(rows)
    differ = 0
    for site in result["sites"]:
        kernel = site["kernel_counter"]
        assert (kernel["wavefronts"], kernel["conflicts"]) == rows[site["site"]], site["site"]
        differ += kernel["wavefronts"] != site["wavefronts"]
    assert differ > 0


def test_replay_of_the_readme_trace():
    result = bankcheck.replay(str(ROOT / "tests/data/traces/example.trace"))
    totals = result["totals"]
    assert (totals["instructions"], totals["wavefronts"], totals["ideal"], totals["conflicts"]) == (7, 39, 7, 32)
    worst = result["worst"]
    assert (worst["site"], worst["line"], worst["bank"], worst["lanes"]) == ("tile.column", 9, 0, list(range(32)))


def test_not_modelled_is_never_a_number():
    model = bankcheck.Model("sm90")
    addresses = [16 * lane for lane in range(32)]
    assert not model.models("cpasync.unmeasured", 16)
    with pytest.raises(bankcheck.NotModelledError):
        model.cost(addresses, width=16, op="cpasync.unmeasured")
    trace = "@copy cpasync.unmeasured 16 " + " ".join(map(str, addresses))
    trace += " from " + " ".join(str(4096 + a) for a in addresses)
    result = bankcheck.replay_text(trace)
    site = result["sites"][0]
    assert site["modelled"] is False and site["wavefronts"] is None
    assert result["unmodelled"] == [{"op": "cpasync.unmeasured", "width": 16, "instructions": 1, "lane_accesses": 32}]


def test_bad_input_is_value_error():
    model = bankcheck.Model("sm90")
    with pytest.raises(ValueError, match="31 lanes"):
        model.cost([0] * 31)
    with pytest.raises(ValueError, match="misaligned address 2 of lane 0"):
        model.cost([2] + [None] * 31)
    with pytest.raises(ValueError, match="unknown op 'load'"):
        model.cost([0] * 32, op="load")
    with pytest.raises(ValueError, match="unknown model .h100.; allowed: dmm, sm90"):
        bankcheck.Model("h100")
    with pytest.raises(ValueError, match=r"<string>:1: width '3'"):
        bankcheck.replay_text("ld 3 " + " ".join(["0"] * 32))
    with pytest.raises(ValueError, match="cannot open"):
        bankcheck.replay(str(ROOT / "no-such.trace"))


# The example (docs/python.md): keep an access pattern conflict-free in CI.


def assert_conflict_free(trace_text, model="sm90"):
    """Fail, naming the site, bank and lanes, unless every instruction of the trace is conflict-free."""
    result = bankcheck.replay_text(trace_text, model)
    for site in result["sites"]:
        assert site["modelled"], f"{site['site']}: not modelled on {model}"
        worst = site["worst"]
        assert site["conflicts"] == 0, (
            f"{site['site']}: {site['conflicts']} conflicts; worst {worst['degree']}-way, "
            f"bank {worst['bank']} serves lanes {worst['lanes']}"
        )


def column_read(row_floats):
    """A warp reading column 0 of a 32-row float tile whose rows hold `row_floats` floats."""
    return "@tile.column ld 4 " + " ".join(str(4 * row_floats * lane) for lane in range(32))


def test_padded_tile_column_is_conflict_free():
    assert_conflict_free(column_read(33))


def test_unpadded_tile_column_fails():
    with pytest.raises(AssertionError, match="31 conflicts; worst 32-way, bank 0"):
        assert_conflict_free(column_read(32))


# The layout checker (docs/layout.md) and the same example for a CuTe layout.


def assert_layout_conflict_free(layout, dtype, access, model="sm90"):
    """Fail with the report's explanation (the worst instruction's lanes, elements and banks)."""
    report = bankcheck.layout(layout, dtype, access, model)
    assert report.conflict_free, report.explanation


def test_swizzled_fp16_tile_is_conflict_free_for_ldmatrix():
    # Swizzle<3,3,3> XORs the 16-byte chunk with the row: the 8 rows of a matrix meet 8 chunk columns.
    assert_layout_conflict_free("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", "fp16", "ldmatrix.x4")


def test_unswizzled_fp16_tile_fails_for_ldmatrix():
    with pytest.raises(AssertionError, match=r"lanes 0-7 form one phase(.|\n)*lane 7  element \(7,0\)"):
        assert_layout_conflict_free("(8,64):(64,1)", "fp16", "ldmatrix.x4")


def test_layout_counts_by_hand():
    # (8,64):(64,1) fp16: rows of 128 bytes, so a matrix's 8 16-byte rows all sit in banks 0-3 of their
    # column chunk: 8 wavefronts per matrix (one phase each, rule 5), 4 matrices per ldmatrix.x4, 2 of
    # them for the 8 x 64 tile: 64 wavefronts, ideal 8.
    report = bankcheck.layout("(8,64):(64,1)", "fp16", "ldmatrix.x4")
    assert report.totals == {
        "instructions": 2, "not_modelled": 0, "wavefronts": 64, "ideal": 8, "conflicts": 56, "worst_degree": 8}
    assert [row["wavefronts"] for row in report.rows] == [32, 32]
    assert report.worst["bank"] == 0 and report.worst["lanes"] == list(range(8))
    assert not report.conflict_free


def test_layout_bad_input_is_value_error():
    with pytest.raises(ValueError, match="column 6"):
        bankcheck.layout("(8,64:(64,1)", "fp16", "ldmatrix.x4")
    with pytest.raises(ValueError, match="element type 'fp17'"):
        bankcheck.layout("(8,64):(64,1)", "fp17", "ldmatrix.x4")
