#include "capture/host/record_converter.hpp"

namespace bankcheck::capture {

RecordConverter::RecordConverter(TraceSink& sink, FunctionMap& functions, std::uint64_t launch)
    : sink_(sink), functions_(functions), launch_(launch), addr_(kCaptureWarp, kInactive), source_(kCaptureWarp) {
  sink_.begin(kCaptureWarp);
}

void RecordConverter::drop_pending(const char* why) {
  if (!pending_) return;
  ++rejected_[why];
  pending_.reset();
}

void RecordConverter::add(const CaptureSlot& slot) {
  const bool source_slot =
      slot.op == static_cast<std::uint8_t>(SlotOp::source_low) || slot.op == static_cast<std::uint8_t>(SlotOp::source_high);
  if (source_slot) {
    const bool expected = pending_ && pending_->pc == slot.pc &&
                          sources_seen_ == (slot.op == static_cast<std::uint8_t>(SlotOp::source_low) ? 0u : 1u);
    if (!expected) {
      if (pending_) drop_pending("cp.async whose source slots came out of order");
      else ++rejected_["a source slot with no cp.async before it"];
      return;
    }
    for (unsigned l = 0; l < kCaptureWarp; ++l) {
      const std::uint64_t half = slot.addr[l];
      source_[l] = sources_seen_ == 0 ? half : (source_[l] | half << 32);
    }
    if (++sources_seen_ < kCopySlots - 1) return;
    for (unsigned l = 0; l < kCaptureWarp; ++l)
      if (((pending_->mask >> l) & 1u) == 0) source_[l] = kInactive;
    const CaptureSlot copy = *pending_;
    pending_.reset();
    write(copy, source_);
    return;
  }
  drop_pending("cp.async without its source slots");
  if (slot.op == static_cast<std::uint8_t>(SlotOp::cpasync)) {
    pending_ = slot;
    sources_seen_ = 0;
    return;
  }
  write(slot, {});
}

void RecordConverter::write(const CaptureSlot& slot, std::span<const std::uint64_t> source) {
  if (!is_valid_op(slot.op)) {
    ++rejected_["unknown op " + std::to_string(slot.op)];
    return;
  }
  const Op op = static_cast<Op>(slot.op);
  if (!is_valid_access(op, slot.width)) {
    ++rejected_["width " + std::to_string(slot.width) + " of " + std::string(op_name(op))];
    return;
  }
  const unsigned alignment = access_alignment(slot.width);
  for (unsigned l = 0; l < kCaptureWarp; ++l) {
    if (((slot.mask >> l) & 1u) == 0) {
      addr_[l] = kInactive;
      continue;
    }
    if (slot.addr[l] % alignment != 0) {
      ++rejected_["offset not a multiple of " + std::to_string(alignment) + " (" + std::string(op_name(op)) + " " +
                  std::to_string(slot.width) + ")"];
      return;
    }
    addr_[l] = slot.addr[l];
  }
  TraceLocation where;
  where.launch = launch_;
  where.block = {slot.block[0], slot.block[1], slot.block[2]};
  where.warp = slot.warp;
  sink_.location(where);
  WarpRequest request{op, slot.width, addr_, source};
  if (!source_problem(request).empty()) {
    ++rejected_["source address not a multiple of " + std::to_string(slot.width) + " (" + std::string(op_name(op)) + ")"];
    return;
  }
  sink_.record(functions_.site(slot.pc), request);
  ++written_;
}

void RecordConverter::finish(std::optional<std::uint64_t> device_records) {
  drop_pending("cp.async without its source slots");
  if (device_records) sink_.expect(*device_records);
  sink_.end();
}

std::uint64_t RecordConverter::rejected_total() const {
  std::uint64_t n = 0;
  for (const auto& [reason, count] : rejected_) n += count;
  return n;
}

}  // namespace bankcheck::capture
