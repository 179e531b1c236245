"""The text-trace line format and the shared-memory bounds that every case
generator of validate/sm90 uses."""

W = 32
SHARED = 48 * 1024
WIDTHS = (1, 2, 4, 8, 16)


def line(site, op, width, addrs):
    cells = ["-" if a is None else str(a) for a in addrs]
    return f"@{site} {op} {width} " + " ".join(cells)


def fit(a, width):
    return (a % SHARED) // width * width
