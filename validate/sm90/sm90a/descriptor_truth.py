"""Prints the matrix descriptors the wgmma probes and the TMA + wgmma GEMM
build, as the programs' own parameters give them: the truth that
tests/capture/host/sass/hgmma_descriptors_test.cpp checks the descriptors
recovered from the SASS against (never the recovery's own output).

    python3 descriptor_truth.py > tests/data/hopper/descriptor_truth.csv

Columns: the kernel's mangled name, whether A is read from shared memory,
and the swizzle mode and stride byte offset of both operands' descriptors.
"""
import os
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.sm90a import make_wgmma_probes as p  # noqa: E402

SWIZZLE_NAME = {"none": "none", "128B": "128B", "64B": "64B", "32B": "32B"}


def mangled(ident):
    return f"_Z{len(ident)}{ident}Pfi"


def main():
    print("kernel,a_shared,swizzle,stride")
    for probes in (p.probes(), p.blind_probes(), p.int8_probes()):
        for name, _t, _n, regs, sw, _lbo, sbo, _off, _wgs, _tb in probes:
            ident = "wg_" + name.replace("-", "_")
            print(f"{mangled(ident)},{0 if regs else 1},{SWIZZLE_NAME[sw]},{sbo}")
    # validate/sm90/sm90a/tma_wgmma_gemm.cu: gemm_kernel<kDescSwizzle, kEpilogueSwizzled>
    for desc, epilogue, sw, sbo in ((1, 1, "128B", 1024), (1, 0, "128B", 1024), (2, 1, "64B", 512), (0, 1, "none", 1024)):
        print(f"_Z11gemm_kernelILi{desc}ELb{epilogue}EEv14CUtensorMap_stS0_S0_,1,{sw},{sbo}")


if __name__ == "__main__":
    main()
