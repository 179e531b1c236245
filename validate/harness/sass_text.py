"""A SASS instruction's text as Nsight Compute, nvdisasm and bankcheck print
it, taken apart by the capture's C++ reader (capture/host/sass/sass_instruction.hpp,
through the Python module: harness/native.py).

"@!P0 LDS.U.128 R4, [R2+0x10] ;" has the guard "@!P0" and the mnemonic, with
its modifiers, "LDS.U.128"; an unguarded instruction has the guard "".
"""
from validate.harness.native import bankcheck


def split_guard(sass):
    """(guard, mnemonic with modifiers); "" for what the text lacks."""
    guard, mnemonic_, _ = bankcheck.sass_parts(sass)
    return guard, mnemonic_


def mnemonic(sass):
    """The mnemonic with its modifiers: "@UP3 UTMASTG.3D [UR32], [UR22]" -> "UTMASTG.3D"."""
    return split_guard(sass)[1]


def opcode(sass):
    """Guard and mnemonic, the operands left out (branch targets are addresses
    in ncu, labels in nvdisasm): "@P0 BRA 0x80" -> "@P0 BRA"."""
    return " ".join(w for w in split_guard(sass) if w)
