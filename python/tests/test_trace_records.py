"""bankcheck.trace_records: a text trace's records as the library's reader
reads them (docs/trace-format.md), which validate/'s scripts read traces
through (validate/sm90/case_format.py). The expected records are written out
by hand from the format."""
import re

import pytest

import bankcheck

TRACE = """# a comment line, then the warp size
warp 4
at launch=0 block=1,0,0 warp=2
@row ld 4 0 4 - 12   # lane 2 idle; this comment is not a token
st 8 0x10 8 - -
@copy cpasync 16 0 16 32 - from 128 z 4096 -

@copy.cg cpasync.cg 16 - - 64 80 from - - 512 528
expect 4
"""


def test_records_in_order_with_their_fields():
    assert bankcheck.trace_records(TRACE, "t.trace") == [
        {"site": "row", "op": "ld", "width": 4, "addresses": [0, 4, None, 12], "sources": None, "line": 4},
        {"site": "", "op": "st", "width": 8, "addresses": [16, 8, None, None], "sources": None, "line": 5},
        {"site": "copy", "op": "cpasync", "width": 16, "addresses": [0, 16, 32, None],
         "sources": [128, "z", 4096, None], "line": 6},
        {"site": "copy.cg", "op": "cpasync.cg", "width": 16, "addresses": [None, None, 64, 80],
         "sources": [None, None, 512, 528], "line": 8},
    ]


def test_default_warp_and_a_last_line_without_newline():
    records = bankcheck.trace_records("@a atom 4 " + " ".join(str(4 * lane) for lane in range(32)))
    assert len(records) == 1 and records[0]["addresses"] == list(range(0, 128, 4)) and records[0]["op"] == "atom"


@pytest.mark.parametrize("text, where", [
    ("warp 4\n@a ld 4 0 4 8\n", "bad.trace:2: wrong lane count"),                      # three lanes of four
    ("warp 4\n# fine\n@a ld 4 0 2 8 12\n", "bad.trace:3: misaligned address '2'"),
    ("@a load 4 0\n", "bad.trace:1: unknown op 'load'"),
    ("warp 2\n@a ld 4 0 4 from 0 4\n", "bad.trace:2: 'from' (source addresses) is only for"),
    ("warp 2\nexpect 2\n@a ld 4 0 4\n", "bad.trace:2: expected 2 records"),            # the expect line's number
])
def test_a_malformed_trace_names_file_and_line(text, where):
    with pytest.raises(ValueError, match="^" + re.escape(where)) as caught:
        bankcheck.trace_records(text, "bad.trace")
    assert isinstance(caught.value, bankcheck.TraceError)
