"""A SASS instruction's text as Nsight Compute, nvdisasm and bankcheck print
it: the one Python home for its guard and mnemonic.

"@!P0 LDS.U.128 R4, [R2+0x10] ;" has the guard "@!P0" and the mnemonic, with
its modifiers, "LDS.U.128"; an unguarded instruction has the guard "".
Only the standard library is used.
"""


def split_guard(sass):
    """(guard, mnemonic with modifiers); "" for what the text lacks."""
    words = sass.split()
    if words and words[0].startswith("@"):
        return words[0], (words[1] if len(words) > 1 else "")
    return "", (words[0] if words else "")


def mnemonic(sass):
    """The mnemonic with its modifiers: "@UP3 UTMASTG.3D [UR32], [UR22]" -> "UTMASTG.3D"."""
    return split_guard(sass)[1]


def opcode(sass):
    """Guard and mnemonic, the operands left out (branch targets are addresses
    in ncu, labels in nvdisasm): "@P0 BRA 0x80" -> "@P0 BRA"."""
    return " ".join(w for w in split_guard(sass) if w)
