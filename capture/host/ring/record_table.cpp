#include "capture/host/ring/record_table.hpp"

namespace bankcheck::capture {
namespace {

/// Kinds the patches merge in the table (emit in capture/device/patches.cu): not wgmma, which the warp's lowest
/// lane writes alone, nor a continuation kind.
bool table_op(SlotOp op) {
  switch (op) {
    case SlotOp::load:
    case SlotOp::store:
    case SlotOp::atom:
    case SlotOp::ldsm:
    case SlotOp::stsm:
    case SlotOp::cpasync:
    case SlotOp::gld:
    case SlotOp::gst:
    case SlotOp::gatom:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::size_t entry_slots(const RecordEntry& e, CaptureSlot* out) {
  const auto op = static_cast<SlotOp>(e.shape & 0xFFu);
  if (!table_op(op) || e.count == 0 || (e.shape >> 16) != 0 || e.hash != entry_hash(e)) return 0;
  const std::size_t slots = 1 + continuation_slots(op);
  for (std::size_t k = 0; k < slots; ++k) {
    CaptureSlot& s = out[k];
    s = CaptureSlot{};
    s.pc = e.pc;
    for (unsigned i = 0; i < 3; ++i) s.block[i] = e.block[i];
    s.warp = e.warp;
    s.mask = e.mask;
    s.op = static_cast<std::uint8_t>(k == 0 ? op : continuation(op, static_cast<unsigned>(k - 1)));
    s.width = static_cast<std::uint8_t>(e.shape >> 8);
    s.flags = static_cast<std::uint16_t>(e.flags);
    for (unsigned l = 0; l < kCaptureWarp; ++l) s.addr[l] = e.words[k][l];
  }
  return slots;
}

}  // namespace bankcheck::capture
