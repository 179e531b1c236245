#include "capture/host/ring/record_converter.hpp"

#include <algorithm>
#include <stdexcept>

namespace bankcheck::capture {

RecordConverter::RecordConverter(TraceSink& sink, FunctionMap& functions, std::uint64_t launch)
    : sink_(sink), functions_(functions), launch_(launch), addr_(kCaptureWarp, kInactive), source_(kCaptureWarp), high_(kCaptureWarp) {
  sink_.begin(kCaptureWarp);
}

void RecordConverter::reject(const std::string& why) {
  std::uint64_t& n = rejected_[why];
  if (__builtin_add_overflow(n, count_, &n)) throw std::overflow_error("capture: rejected records exceed 2^64-1");
}

void RecordConverter::drop_pending(const char* why) {
  if (!pending_) return;
  reject(why);
  pending_.reset();
}

void RecordConverter::add(const CaptureSlot& slot, std::uint64_t count) {
  if (is_continuation(static_cast<SlotOp>(slot.op))) {
    const auto kind = pending_ ? static_cast<SlotOp>(pending_->op) : SlotOp::load;
    const bool expected = pending_ && pending_->pc == slot.pc && seen_ < continuation_slots(kind) &&
                          slot.op == static_cast<std::uint8_t>(continuation(kind, seen_));
    if (!expected) {
      if (pending_) {
        drop_pending("a record whose continuation slots came out of order");
      } else {
        count_ = count;
        reject("a continuation slot with no record before it");
      }
      return;
    }
    for (unsigned l = 0; l < kCaptureWarp; ++l) {
      const std::uint64_t word = slot.addr[l];
      switch (static_cast<SlotOp>(slot.op)) {
        case SlotOp::source_low: source_[l] = word; break;
        case SlotOp::source_high: source_[l] |= word << 32; break;
        default: high_[l] = word; break;  // address_high
      }
    }
    if (++seen_ < continuation_slots(kind)) return;
    const CaptureSlot record = *pending_;
    pending_.reset();
    if (kind == SlotOp::cpasync) {
      // A null source is a lane that read nothing (ignore-src, source size
      // 0): a read of address 0 would have faulted.
      for (unsigned l = 0; l < kCaptureWarp; ++l)
        if (((record.mask >> l) & 1u) == 0) source_[l] = kInactive;
        else if (source_[l] == 0) source_[l] = kZeroFill;
      write(record, source_, {});
    } else {
      write(record, {}, high_);
    }
    return;
  }
  drop_pending("a record without its continuation slots");
  count_ = count;
  if (continuation_slots(static_cast<SlotOp>(slot.op)) > 0) {
    pending_ = slot;
    seen_ = 0;
    return;
  }
  write(slot, {}, {});
}

void RecordConverter::write(const CaptureSlot& slot, std::span<const std::uint64_t> source,
                            std::span<const std::uint64_t> high) {
  if (!is_valid_op(slot.op)) {
    reject("unknown op " + std::to_string(slot.op));
    return;
  }
  const Op op = static_cast<Op>(slot.op);
  if (op == Op::wgmma) return write_wgmma(slot);
  if (!is_valid_access(op, slot.width)) {
    reject("width " + std::to_string(slot.width) + " of " + std::string(op_name(op)));
    return;
  }
  const unsigned alignment = access_alignment(slot.width);
  for (unsigned l = 0; l < kCaptureWarp; ++l) {
    if (((slot.mask >> l) & 1u) == 0) {
      addr_[l] = kInactive;
      continue;
    }
    const std::uint64_t address = high.empty() ? slot.addr[l] : (std::uint64_t{slot.addr[l]} | high[l] << 32);
    if (!is_aligned_access(address, slot.width)) {
      reject("offset not a multiple of " + std::to_string(alignment) + " (" + std::string(op_name(op)) + " " +
             std::to_string(slot.width) + ")");
      return;
    }
    addr_[l] = address;
  }
  TraceLocation where;
  where.launch = launch_;
  where.block = {slot.block[0], slot.block[1], slot.block[2]};
  where.warp = slot.warp;
  sink_.location(where);
  WarpRequest request{op, slot.width, addr_, source};
  if (!source_problem(request).empty()) {
    reject("source address not a multiple of " + std::to_string(slot.width) + " (" + std::string(op_name(op)) + ")");
    return;
  }
  emit(slot.pc, request);
}

void RecordConverter::write_wgmma(const CaptureSlot& slot) {
  // addr[0..3]: A's address and size (0: A in registers), B's address and
  // size. The warpgroup's first warp carries the sizes (ncu counts the
  // operands' wavefronts per instruction, summed over the four warps).
  const std::uint32_t a = slot.addr[0], a_size = slot.addr[1], b = slot.addr[2], b_size = slot.addr[3];
  if (slot.mask != 0xFu || a % 16 != 0 || b % 16 != 0 || a_size % 16 != 0 || b_size % 16 != 0) {
    reject("a wgmma record whose operands are not 16-byte multiples");
    return;
  }
  constexpr unsigned kWarpsPerGroup = 4;
  const bool carrier = slot.warp % kWarpsPerGroup == 0;
  std::fill(addr_.begin(), addr_.end(), kInactive);
  std::vector<std::uint64_t> sizes(kCaptureWarp, kInactive);
  if (carrier) {
    if (a_size != 0) {
      addr_[0] = a;
      sizes[0] = a_size;
    }
    addr_[1] = b;
    sizes[1] = b_size;  // 0 (which the API rules out) leaves the instruction not modelled
  }  // the other warps of the group: no lane, their share is the carrier's
  TraceLocation where;
  where.launch = launch_;
  where.block = {slot.block[0], slot.block[1], slot.block[2]};
  where.warp = slot.warp;
  sink_.location(where);
  emit(slot.pc, WarpRequest{Op::wgmma, 16, addr_, sizes});
}

void RecordConverter::emit(std::uint64_t pc, const WarpRequest& request) {
  if (count_ == 1) sink_.record(functions_.site(pc), request);
  else sink_.record_repeated(functions_.site(pc), request, count_);
  if (__builtin_add_overflow(written_, count_, &written_)) throw std::overflow_error("capture: executions exceed 2^64-1");
}

void RecordConverter::finish(std::optional<std::uint64_t> device_records) {
  drop_pending("a record without its continuation slots");
  if (device_records) sink_.expect(*device_records);
  sink_.end();
}

std::uint64_t RecordConverter::rejected_total() const {
  std::uint64_t n = 0;
  for (const auto& [reason, count] : rejected_)
    if (__builtin_add_overflow(n, count, &n)) throw std::overflow_error("capture: rejected records exceed 2^64-1");
  return n;
}

}  // namespace bankcheck::capture
