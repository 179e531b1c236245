"""The text-trace format (docs/trace-format.md) for validate/'s scripts, both
ways, and the shared-memory bounds that every case generator of validate/sm90
uses.

Writing and reading live here together so that a script that reads a trace
and writes one back (a collector refining the op from the SASS, a prediction
replaying a changed op) finds both in one place. `line` writes a record;
`records` and `records_of` read a trace through the library's own reader of
the format (sim/trace/trace_text.hpp, bound as bankcheck.trace_records),
never a second reading in Python: what they accept, what they refuse and the
file:line a ValueError names are `bankcheck replay`'s. The Python module is
imported by the readers only, so that the generators, which only write,
run where it is not built."""

W = 32
SHARED = 48 * 1024
WIDTHS = (1, 2, 4, 8, 16)


def line(site, op, width, addrs, sources=None, comment=""):
    """One record's line: `@site op width addr...` (no `@site` for the site
    ""), then `from source...` for a copy's sources and `  # comment` where
    there is one; None is an idle lane (`-`), a source "z" a zero-filling lane
    (as records() gives them)."""
    cells = ["-" if a is None else str(a) for a in addrs]
    text = (f"@{site} " if site else "") + f"{op} {width} " + " ".join(cells)
    if sources is not None:
        text += " from " + " ".join("-" if s is None else str(s) for s in sources)
    if comment:
        text += f"  # {comment}"
    return text


def fit(a, width):
    return (a % SHARED) // width * width


def records(text, name="<string>", comments=False):
    """The instruction records of a text trace's text, in order, as dicts:
    site, op (the trace token), width, addresses (None: an idle lane),
    sources (a copy's, "z": zero-filling; None without), line (1-based). With
    comments, also comment: the text after the '#' on the record's line ("" without
    one), which the reader skips and scripts use as the generator's tags.
    A malformed trace raises bankcheck.TraceError (a ValueError) naming name:line."""
    from validate.harness.native import bankcheck
    out = bankcheck.trace_records(text, name)
    if comments:
        # The reader's lines: split at '\n' only, a comment from the line's first '#'.
        lines = text.split("\n")
        for r in out:
            r["comment"] = lines[r["line"] - 1].partition("#")[2]
    return out


def records_of(path, comments=False):
    """records() of a trace file, errors naming the path. Read without
    newline translation, so the reader sees the file's lines as
    `bankcheck replay` does."""
    with open(path, newline="") as f:
        return records(f.read(), path, comments)
