"""bankcheck.ncu, .kernel_names and .sass_parts: the capture's C++ readers,
on hand-made pages in ncu's layout and names c++filt demangles
(expected values written from ncu's and c++filt's documented output, not
from the readers)."""
import pytest

import bankcheck

SOURCE = ('==PROF== Connected\n'
          '"Kernel Name","void ns::k<int>(T1)"\n"Address","Source","L1 Wavefronts Shared"\n'
          '"0x7f00","LDS R1, [R2]","2"\n"0x7f10","EXIT",""\n'
          '"Kernel Name","void ns::k<int>(T1)"\n"Address","Source","L1 Wavefronts Shared"\n'
          '"0x7f00","LDS R1, [R2]","2"\n"0x7f10","EXIT",""\n')


def test_source_blocks_and_copies():
    blocks = bankcheck.ncu.source_blocks(SOURCE)
    assert len(blocks) == 2
    kernel, rows = blocks[0]
    assert kernel == "void ns::k<int>(T1)"
    assert rows[0] == {"Address": "0x7f00", "Source": "LDS R1, [R2]", "L1 Wavefronts Shared": "2"}
    assert len(bankcheck.ncu.without_copies(blocks)) == 1
    assert len(bankcheck.ncu.by_launch_list(blocks, [None, None])) == 2  # two launches: no copy
    with pytest.raises(ValueError, match="blocks more than"):
        bankcheck.ncu.by_launch_list(blocks + [("other", [])], [None])  # a copy dropped, "other" left over


def test_table_rows_drop_the_units_row_and_fill_short_rows():
    raw = '"ID","Kernel Name","Grid Size"\n"","",""\n"0","k","(1, 1, 1)"\n"1","k"\n'
    assert bankcheck.ncu.table_rows(raw) == [{"ID": "0", "Kernel Name": "k", "Grid Size": "(1, 1, 1)"},
                                             {"ID": "1", "Kernel Name": "k", "Grid Size": None}]
    with pytest.raises(ValueError, match="raw.csv:2"):
        bankcheck.ncu.table_rows('"ID"\n"open\n', "raw.csv")


def test_kernel_names_and_sass_parts():
    assert bankcheck.kernel_names.base_name("void at::native::<unnamed>::f<(int)4>(T1 *)") == "f"
    assert bankcheck.kernel_names.demangle("_Z12probe_ld32_aPj") == "probe_ld32_a(unsigned int*)"
    assert bankcheck.kernel_names.demangle("matmul_kernel") == "matmul_kernel"
    assert bankcheck.kernel_names.is_mangled("_Z1kv") and not bankcheck.kernel_names.is_mangled("_Z")
    assert bankcheck.sass_parts("@!P0 LDS.U.128 R4, [R2+0x10] ;") == ("@!P0", "LDS.U.128", ["R4", "[R2+0x10]"])
    assert bankcheck.sass_parts("EXIT ;") == ("", "EXIT", [])
