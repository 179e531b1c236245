#include "capture/host/ring/slot_dedup.hpp"

#include <algorithm>
#include <stdexcept>

namespace bankcheck::capture {
namespace {

constexpr std::uint32_t kFirstBuckets = 1024;

/// Whether `op` reads the warp's place in its group (RecordConverter::write_wgmma: the first warp carries the operands).
bool carries(const CaptureSlot& record) {
  return static_cast<SlotOp>(record.op) == SlotOp::wgmma && record.warp % 4 == 0;
}

std::uint64_t mix(std::uint64_t h, std::uint64_t word) {
  h = (h ^ word) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

}  // namespace

SlotDedup::SlotDedup(RecordConverter& converter, std::uint32_t capacity) : converter_(converter), capacity_(capacity) {
  if (capacity == 0) throw std::invalid_argument("a deduplication table of 0 records");
}

void SlotDedup::add(const CaptureSlot& slot) {
  const auto op = static_cast<SlotOp>(slot.op);
  if (is_continuation(op)) {
    const bool expected = group_size_ > 0 && group_size_ < group_need_ && slot.pc == group_[0].pc &&
                          op == continuation(static_cast<SlotOp>(group_[0].op), group_size_ - 1);
    if (!expected) {  // the converter says what is wrong
      pass_group();
      converter_.add(slot);
      return;
    }
    group_[group_size_++] = slot;
    if (group_size_ == group_need_) insert();
    return;
  }
  if (group_size_ > 0) pass_group();  // a record that lacks its continuation slots
  group_[0] = slot;
  group_size_ = 1;
  group_need_ = 1 + continuation_slots(op);
  if (group_need_ == 1) insert();
}

void SlotDedup::pass_group() {
  for (unsigned k = 0; k < group_size_; ++k) converter_.add(group_[k]);
  group_size_ = 0;
}

std::uint64_t SlotDedup::hash_group() const {
  const CaptureSlot& r = group_[0];
  std::uint64_t h = mix(r.pc, std::uint64_t{r.op} | std::uint64_t{r.width} << 8 | std::uint64_t{r.mask} << 16 |
                                  std::uint64_t{carries(r)} << 48);
  for (unsigned k = 0; k < group_size_; ++k)
    for (unsigned l = 0; l < kCaptureWarp; ++l) h = mix(h, ((r.mask >> l) & 1u) ? group_[k].addr[l] : 0);
  return h;
}

bool SlotDedup::same(const Entry& e) const {
  if (e.size != group_size_) return false;
  const CaptureSlot& r = group_[0];
  const CaptureSlot& s = slots_[e.first];
  if (r.pc != s.pc || r.op != s.op || r.width != s.width || r.mask != s.mask || carries(r) != carries(s)) return false;
  for (unsigned k = 0; k < group_size_; ++k) {
    const CaptureSlot& a = group_[k];
    const CaptureSlot& b = slots_[e.first + k];
    if (a.op != b.op) return false;
    for (unsigned l = 0; l < kCaptureWarp; ++l)
      if (((r.mask >> l) & 1u) && a.addr[l] != b.addr[l]) return false;
  }
  return true;
}

void SlotDedup::grow_buckets() {
  const std::size_t n = buckets_.empty() ? kFirstBuckets : buckets_.size() * 2;
  buckets_.assign(n, 0);
  for (std::uint32_t i = 0; i < entries_.size(); ++i) {
    std::size_t b = entries_[i].hash & (n - 1);
    while (buckets_[b] != 0) b = (b + 1) & (n - 1);
    buckets_[b] = i + 1;
  }
}

void SlotDedup::insert() {
  const std::uint64_t h = hash_group();
  if (2 * (entries_.size() + 1) > buckets_.size()) grow_buckets();
  const std::size_t mask = buckets_.size() - 1;
  std::size_t b = h & mask;
  for (; buckets_[b] != 0; b = (b + 1) & mask) {
    Entry& e = entries_[buckets_[b] - 1];
    if (e.hash == h && same(e)) {
      if (__builtin_add_overflow(e.count, 1, &e.count)) throw std::overflow_error("capture: executions exceed 2^64-1");
      ++merged_;
      group_size_ = 0;
      return;
    }
  }
  entries_.push_back(Entry{h, 1, static_cast<std::uint32_t>(slots_.size()), group_size_});
  slots_.insert(slots_.end(), group_, group_ + group_size_);
  buckets_[b] = static_cast<std::uint32_t>(entries_.size());
  group_size_ = 0;
  if (entries_.size() >= capacity_) write_out();
}

void SlotDedup::flush() {
  write_out();
  pass_group();  // a record still waiting for its continuation slots: the converter counts it
}

void SlotDedup::write_out() {
  for (const Entry& e : entries_) {
    converter_.add(slots_[e.first], e.count);
    for (std::uint32_t k = 1; k < e.size; ++k) converter_.add(slots_[e.first + k]);
  }
  distinct_ += entries_.size();
  entries_.clear();
  slots_.clear();
  std::fill(buckets_.begin(), buckets_.end(), 0);
}

}  // namespace bankcheck::capture
