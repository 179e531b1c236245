#include "cli/wgmma_picture.hpp"

#include <algorithm>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <vector>

#include "model/bank_model.hpp"
#include "sim/draw/bank_grid.hpp"
#include "sim/layout/wgmma_descriptor.hpp"

namespace bankcheck::cli {
namespace {

std::string field_line(const char* name, const std::string& value, const std::string& note) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "  %-20s %-8s (%s)\n", name, value.c_str(), note.c_str());
  return buf;
}

std::string units(std::uint32_t bytes) { return std::to_string(bytes / 16) + " x 16 bytes"; }

void draw(const layout::WgmmaOperandLayout& l, const std::string& descriptor, const std::string& path) {
  const BankModel model = make_preset("sm90", 32);
  const char operand = l.operand.operand_b ? 'B' : 'A';
  std::vector<GridInstruction> trace;
  std::uint64_t lowest = ~std::uint64_t{0};
  for (std::size_t i = 0; i < l.cores.size(); ++i) {
    // One core matrix per "instruction": its 8 rows as lanes 0-7 of a 16-byte load, so that
    // the grid tints each core matrix in its own colour. No round is highlighted.
    std::vector<std::uint64_t> addr(32, kInactive);
    std::copy(l.cores[i].rows.begin(), l.cores[i].rows.end(), addr.begin());
    for (auto a : l.cores[i].rows) lowest = std::min(lowest, a);
    trace.push_back({i, 0, std::string(1, operand) + " " + l.cores[i].label(l.operand.operand_b), Op::load, 16, addr});
  }
  BankGridOptions go;
  go.rounds.assign(trace.size(), false);
  go.state_legend = false;
  go.first_cell = lowest / model.geometry().bank_bytes;
  go.title = "bank picture of wgmma operand " + std::string(1, operand) + " (m64n" + std::to_string(l.operand.n) + "k" +
             std::to_string(l.operand.k) + " " + l.operand.type + ", " + (l.operand.mn_major ? "MN" : "K") +
             "-major), descriptor " + descriptor + ", " + std::string(layout::swizzle_mode_name(l.descriptor.swizzle)) +
             " swizzle: one colour per core matrix; the H100 counts every HGMMA at its ideal whatever the layout";
  render_bank_grid(build_bank_grid(model, trace, go), path);
}

/// The decoded fields of a descriptor, one line each.
void print_fields(std::ostream& out, const layout::WgmmaDescriptor& d, const char* hex) {
  out << "wgmma descriptor " << hex << " (PTX ISA 9.7.15.5.1.2.2, Matrix Descriptor Format)\n";
  out << field_line("start address", std::to_string(d.start), "bits 0-13: " + units(d.start));
  out << field_line("leading byte offset", std::to_string(d.leading), "bits 16-29: " + units(d.leading));
  out << field_line("stride byte offset", std::to_string(d.stride), "bits 32-45: " + units(d.stride));
  out << field_line("base offset", std::to_string(d.base_offset), "bits 49-51");
  out << field_line("swizzle", std::string(layout::swizzle_mode_name(d.swizzle)),
                    "bits 62-63: " + std::to_string(static_cast<unsigned>(d.swizzle)));
}

/// Each core matrix's rows with their bank groups, the worst degree and the distinct rows.
void print_core_matrices(std::ostream& out, const layout::WgmmaOperandLayout& l, const layout::WgmmaOperand& op) {
  out << "\nbank picture (where the layout puts each core matrix's rows; sm90: 32 banks of 4 bytes, a 16-byte row "
         "fills one group of 4 banks, bank group = address / 16 mod 8)\n";
  char header[96];
  std::snprintf(header, sizeof header, "  %-18s %6s  %s\n", "core matrix", "degree", "rows: byte address:banks");
  out << header;
  std::set<std::uint64_t> distinct;
  unsigned worst = 0, above = 0;
  std::string worst_label;
  for (const auto& cm : l.cores) {
    char head[64];
    const std::string label = cm.label(op.operand_b);
    std::snprintf(head, sizeof head, "  %-18s %6u ", label.c_str(), cm.degree);
    out << head;
    for (auto a : cm.rows) {
      const unsigned g = layout::bank_group(a);
      out << " " << a << ":b" << 4 * g << "-" << 4 * g + 3;
      distinct.insert(a);
    }
    out << "\n";
    if (cm.degree > worst) worst = cm.degree, worst_label = label;
    if (cm.degree > 1) ++above;
  }
  if (worst <= 1)
    out << "degree: in every core matrix the 8 rows lie in 8 different bank groups (degree 1)\n";
  else
    out << "degree: worst " << worst << " (core matrix " << worst_label << "); " << above << " of " << l.cores.size()
        << " core matrices have rows sharing a bank group\n";
  out << "distinct rows: " << distinct.size() << " of " << 8 * l.cores.size()
      << (distinct.size() < 8 * l.cores.size() ? " (core matrices overlap: they read the same bytes)" : "") << "\n";
}

}  // namespace

void print_wgmma_picture(const WgmmaPictureOptions& o, std::ostream& out) {
  if (o.shape.empty()) throw std::invalid_argument("--wgmma-desc needs --wgmma-shape (m64nNkK, e.g. m64n128k16)");
  if (o.type.empty()) throw std::invalid_argument("--wgmma-desc needs --type (fp16, bf16, tf32, fp8, e4m3, e5m2, int8)");
  if (o.operand != "a" && o.operand != "b")
    throw std::invalid_argument("--operand: expected a or b (got " + o.operand + ")");
  const std::uint64_t bits = layout::parse_wgmma_descriptor(o.descriptor);
  const layout::WgmmaDescriptor d = layout::decode_wgmma_descriptor(bits);
  const layout::WgmmaOperand op = layout::parse_wgmma_operand(o.shape, o.type, o.operand == "b", o.mn_major);
  char hex[24];
  std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(bits));
  print_fields(out, d, hex);
  // Errors (exit 2) come after the fields, so that a refused descriptor is still decoded on stdout.
  out.flush();
  const layout::WgmmaOperandLayout l = layout::wgmma_operand_layout(d, op);
  const char name = op.operand_b ? 'B' : 'A';
  const char mn = op.operand_b ? 'N' : 'M';
  out << "operand " << name << " of m64n" << op.n << "k" << op.k << " " << op.type << ": " << op.mn() << " x " << op.k
      << " (" << mn << " x K), " << (op.mn_major ? std::string(1, mn) + "-major" : std::string("K-major")) << ", "
      << op.bytes() << " bytes in " << l.cores.size() << " core matrices of 8 rows x 16 bytes\n";
  out << "layout  " << l.formula << "\n";
  for (const auto& w : l.warnings) out << "warning: " << w << "\n";
  print_core_matrices(out, l, op);
  const unsigned a_bytes = 64 * op.k * op.element_bytes;
  const unsigned b_bytes = op.n * op.k * op.element_bytes;
  out << "\nmeasured (docs/bank-model.md, sm90 rule 8): on the H100, Nsight Compute counted every HGMMA at its ideal "
         "whatever the descriptor (no layout tried made one conflict): (A bytes + B bytes) / 128 wavefronts per "
         "warpgroup, here ("
      << a_bytes << " + " << b_bytes << ") / 128 = " << (a_bytes + b_bytes) / 128
      << " with both operands in shared memory, " << b_bytes << " / 128 = " << b_bytes / 128
      << " with A from registers. This picture explains the layout; it is not a count of conflicts.\n";
  if (!o.svg.empty()) {
    draw(l, hex, o.svg);
    out << "drawn: " << o.svg << "\n";
  }
}

}  // namespace bankcheck::cli
