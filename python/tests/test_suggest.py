"""bankcheck.suggest (docs/python.md, docs/layout.md "Suggesting a layout").

Expected values are counted here, not taken from the library: the banks of a
CuTe Swizzle<B,M,S> applied in Python, and the counting bound of 16-byte
vectors worked out in the comments.
"""
import re
from collections import Counter

import pytest

import bankcheck


def swizzle(layout):
    """x -> Sw<B,M,S>(x), from the suggestion's printed layout."""
    b, m, s = map(int, re.match(r"Sw<(\d+),(\d+),(\d+)>", layout).groups())
    return lambda x: x ^ ((x >> s) & (((1 << b) - 1) << m))


def test_transpose_tile_gets_a_conflict_free_swizzle():
    s = bankcheck.suggest(["st.32", "ld.32,along=0"], "f32", tile="32x32")
    f = swizzle(s["layout"])
    assert sorted(f(x) for x in range(1024)) == list(range(1024))  # a permutation of the tile
    for c in range(32):  # reading column c: lane l reads element (l, c); one word per bank
        assert max(Counter(f(l * 32 + c) % 32 for l in range(32)).values()) == 1
    for r in range(32):  # writing row r: lane l writes element (r, l)
        assert max(Counter(f(r * 32 + l) % 32 for l in range(32)).values()) == 1
    store, load = s["accesses"]
    # row-major before: a column's 32 words all lie in bank c, 32 wavefronts for each of 32 columns
    assert load["before"]["wavefronts"] == 32 * 32
    assert (store["after"]["wavefronts"], load["after"]["wavefronts"]) == (32, 32)
    assert s["optimal"] and s["wavefronts"] == s["lower_bound"] == 64


def test_no_conflict_free_layout_for_float4_rows_and_columns():
    s = bankcheck.suggest(["st.128", "ld.32,along=0"], "f32", tile="32x32")
    # A 16-byte vector keeps 4 words in consecutive banks, so a word's bank is
    # fixed modulo 4 by its column: a column's 32 words share 8 banks, at
    # least 4 in one, so each of the 32 column reads costs at least 4. The
    # float4 stores: 256 vectors, 8 instructions of 4 quarter-warp phases,
    # 32 wavefronts at best.
    assert s["lower_bound"] == 32 + 32 * 4
    assert s["wavefronts"] == s["lower_bound"] and s["optimal"]
    assert s["accesses"][1]["after"]["wavefronts"] > s["accesses"][1]["after"]["ideal"]


def test_layout_in_use_is_the_before():
    s = bankcheck.suggest(["st.128", "ldmatrix.x4.trans"], "fp16", layout="Sw<3,3,4> o _0 o (_64,_64):(_64,_1)")
    assert s["before"] == "Sw<3,3,4> o 0 o (64,64):(64,1)"
    after = bankcheck.layout(s["layout"], "fp16", "ldmatrix.x4.trans")  # the checker agrees with the suggestion
    assert after.totals["wavefronts"] == s["accesses"][1]["after"]["wavefronts"]
    assert after.conflict_free and s["wavefronts"] < s["wavefronts_before"]
    assert s["triton"].startswith("SwizzledSharedLayout(")


@pytest.mark.parametrize("kwargs", [dict(tile="32y32"), dict(tile="32x32", layout="(32,32):(32,1)"), dict()])
def test_bad_tile_is_a_value_error(kwargs):
    with pytest.raises(ValueError):
        bankcheck.suggest(["st.32"], "f32", **kwargs)


def test_bad_access_is_a_value_error():
    with pytest.raises(ValueError, match="st.33"):
        bankcheck.suggest(["st.33"], "f32", tile="32x32")
