"""bankcheck.suggest_conversion (docs/python.md, docs/layout.md "Choosing the instructions")."""
import pytest

import bankcheck

# Triton 3.6's register layouts of a 64x64 fp32 transpose (validate/suggest/triton_pairs/cases.py via linear.py).
ROWS = "register=[[0,1],[0,2],[8,0],[16,0],[32,0]] lane=[[0,4],[0,8],[0,16],[0,32],[1,0]] warp=[[2,0],[4,0]]"
COLUMN = "register=[[32,0],[0,4],[0,8],[0,16],[0,32]] lane=[[1,0],[2,0],[4,0],[8,0],[16,0]] warp=[[0,1],[0,2]]"


def test_transpose_meets_the_bandwidth_bound():
    s = bankcheck.suggest_conversion(ROWS, COLUMN, "f32", "64x64")
    # 16384 bytes a side, at most 32 banks x 4 bytes a wavefront: 128 each; the plain tile's loads are 32-way.
    assert s["lower_bound"] == 256
    assert s["wavefronts"] == 256 and s["optimal"]
    assert s["store"]["wavefronts"] == 128 and s["load"]["wavefronts"] == 128
    assert s["store"]["instruction"] == "stmatrix.x4" and s["load"]["instruction"] == "ld.128"
    assert s["wavefronts_before"] == 128 + 32 * 128
    assert s["offset_bases"].startswith("offset=[[")
    assert s["triton"].startswith("SharedLinearLayout(offset_bases=")


def test_refusals():
    with pytest.raises(ValueError, match="needs 5"):
        bankcheck.suggest_conversion("lane=[]", COLUMN, "f32", "64x64")
    with pytest.raises(ValueError, match="ROWSxCOLS"):
        bankcheck.suggest_conversion(ROWS, COLUMN, "f32", "64by64")
