// The readers of what Nsight Compute and the disassemblers print, for
// validate/'s scripts (validate/harness/ncu_csv.py, kernel_names.py,
// sass_text.py): the capture's C++ readers, never a second reading in
// Python. A block of a source page reaches Python as (kernel name, [row as
// {column: cell}]); which blocks are ncu's copies is the C++ rule, asked
// with Python's equality of the blocks.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "capture/host/launch/kernel_name.hpp"
#include "capture/host/ncu/ncu_page.hpp"
#include "capture/host/sass/sass_instruction.hpp"
#include "python/bindings.hpp"

namespace nb = nanobind;

namespace bankcheck::python {

namespace {

/// A row as {column: cell}: None for a column the row stops short of, as Python's csv.DictReader gives.
nb::dict row_dict(const capture::NcuRow& header, const capture::NcuRow& row) {
  nb::dict d;
  for (std::size_t i = 0; i < header.cells.size(); ++i)
    d[nb::str(header.cells[i].c_str())] = i < row.cells.size() ? nb::object(nb::str(row.cells[i].c_str())) : nb::none();
  return d;
}

nb::list table_dicts(const std::string& text, const std::string& name) {
  const capture::NcuTable t = capture::ncu_table_rows(capture::ncu_page_rows(text, name), name);
  nb::list out;
  for (const auto& r : t.rows) out.append(row_dict(t.header, r));
  return out;
}

nb::list source_blocks(const std::string& text, const std::string& name) {
  nb::list out;
  for (const auto& b : capture::ncu_source_blocks(capture::ncu_page_rows(text, name), name)) {
    nb::list rows;
    for (const auto& r : b.rows) rows.append(row_dict(*b.header, r));
    out.append(nb::make_tuple(b.kernel_name(), rows));
  }
  return out;
}

capture::SameBlock equal_items(const nb::list& blocks) {
  return [blocks](std::size_t a, std::size_t b) { return blocks[a].equal(blocks[b]); };
}

nb::list pick(const nb::list& blocks, const std::vector<std::size_t>& kept) {
  nb::list out;
  for (std::size_t i : kept) out.append(blocks[i]);
  return out;
}

nb::list blocks_of_launches(const nb::list& blocks, const std::vector<std::optional<std::string>>& launches) {
  std::vector<std::string> kernels;
  for (nb::handle b : blocks) kernels.push_back(nb::cast<std::string>(b[0]));
  return pick(blocks, capture::blocks_of_launches(kernels, launches, equal_items(blocks)));
}

nb::tuple sass_parts(std::string_view text) {
  const auto ins = capture::sass::parse_instruction(text);
  nb::list operands;
  for (auto o : ins.operands) operands.append(nb::str(o.data(), o.size()));
  return nb::make_tuple(nb::str(ins.guard.data(), ins.guard.size()), nb::str(ins.mnemonic.data(), ins.mnemonic.size()),
                        operands);
}

}  // namespace

void bind_readers(nb::module_& m) {
  nb::module_ ncu = m.def_submodule("ncu", "Nsight Compute's CSV pages (capture/host/ncu/ncu_page.hpp)");
  ncu.def("table_rows", &table_dicts, nb::arg("text"), nb::arg("name") = "page",
          "A raw page's or long-form details page's rows as {column: cell}: ncu's log lines, the program's output "
          "and the row of units dropped. ValueError naming the line for a malformed row.");
  ncu.def("source_blocks", &source_blocks, nb::arg("text"), nb::arg("name") = "page",
          "A source page's blocks, [(kernel name, [row as {column: cell}])], every block ncu printed, in page order.");
  ncu.def(
      "without_copies",
      [](const nb::list& blocks) {
        return pick(blocks, capture::blocks_without_copies(blocks.size(), equal_items(blocks)));
      },
      nb::arg("blocks"), "The blocks without ncu's copies, where every block is followed by an equal one; else all.");
  ncu.def("by_launch_list", &blocks_of_launches, nb::arg("blocks"), nb::arg("launches"),
          "The block of each launch of the launch list (kernel names as ncu prints them, None where the list names "
          "none). ValueError when the blocks cannot be matched to the list in order.");

  nb::module_ names = m.def_submodule("kernel_names", "Kernel names (capture/host/launch/kernel_name.hpp)");
  names.def(
      "base_name", [](std::string_view printed) { return capture::kernel_base_name(printed); }, nb::arg("printed"),
      "The function's bare name: 'void ns::f<int>(T1)' -> 'f' (ncu's --kernel-name-base function).");
  names.def("is_mangled", &capture::is_mangled_name, nb::arg("name"), "An Itanium-mangled name ('_Z...').");
  names.def("demangle", &capture::demangled_name, nb::arg("name"),
            "The C++ ABI's demangling, as c++filt prints it; the name itself where it does not demangle.");

  m.def("sass_parts", &sass_parts, nb::arg("text"),
        "(guard, mnemonic with its modifiers, [operands]) of a SASS instruction's text: "
        "'@!P0 LDS.U.128 R4, [R2+0x10] ;' -> ('@!P0', 'LDS.U.128', ['R4', '[R2+0x10]']).");
}

}  // namespace bankcheck::python
