#include "capture/host/record_converter.hpp"

namespace bankcheck::capture {

RecordConverter::RecordConverter(TraceSink& sink, FunctionMap& functions, std::uint64_t launch)
    : sink_(sink), functions_(functions), launch_(launch), addr_(kCaptureWarp, kInactive) {
  sink_.begin(kCaptureWarp);
}

void RecordConverter::add(const CaptureSlot& slot) {
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
  sink_.record(functions_.site(slot.pc), WarpRequest{op, slot.width, addr_});
  ++written_;
}

void RecordConverter::finish(std::optional<std::uint64_t> device_records) {
  if (device_records) sink_.expect(*device_records);
  sink_.end();
}

std::uint64_t RecordConverter::rejected_total() const {
  std::uint64_t n = 0;
  for (const auto& [reason, count] : rejected_) n += count;
  return n;
}

}  // namespace bankcheck::capture
