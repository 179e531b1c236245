#include "sim/replay/parallel_replay.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <thread>

#include "sim/trace/trace_binary.hpp"
#include "sim/trace/trace_index.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "sim/replay/replay_accumulator.hpp"

namespace bankcheck {
namespace {

/// Records copied out of the reader's buffers (which the next read reuses).
struct Batch {
  std::uint64_t first_index = 0;
  std::vector<std::uint32_t> sites;
  std::vector<Op> ops;
  std::vector<std::uint8_t> widths;
  std::vector<std::uint64_t> addr;  // warp entries per record
  std::vector<std::uint64_t> sources;  // warp entries per record with sources (copies)
  std::vector<std::size_t> source_at;  // per record: its first entry in sources, or kNoSource
  static constexpr std::size_t kNoSource = ~std::size_t{0};
  std::vector<RecordPosition> positions;
  std::size_t size() const { return sites.size(); }
  void clear() {
    sites.clear();
    ops.clear();
    widths.clear();
    addr.clear();
    sources.clear();
    source_at.clear();
    positions.clear();
  }
};

/// Full batches on their way to the workers, and empty ones on their way
/// back to the reader; at most `capacity` exist, so memory stays bounded.
class BatchQueue {
 public:
  explicit BatchQueue(std::size_t capacity) {
    for (std::size_t i = 0; i < capacity; ++i) free_.push_back(std::make_unique<Batch>());
  }
  std::unique_ptr<Batch> take_free() { return take(free_); }
  void give_free(std::unique_ptr<Batch> b) { give(free_, std::move(b)); }
  /// nullptr once the reader closed the queue and every batch was taken.
  std::unique_ptr<Batch> take_full() { return take(full_); }
  void give_full(std::unique_ptr<Batch> b) { give(full_, std::move(b)); }
  void close() {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    changed_.notify_all();
  }

 private:
  std::unique_ptr<Batch> take(std::deque<std::unique_ptr<Batch>>& from) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return !from.empty() || (closed_ && &from == &full_); });
    if (from.empty()) return nullptr;
    auto b = std::move(from.front());
    from.pop_front();
    return b;
  }
  void give(std::deque<std::unique_ptr<Batch>>& to, std::unique_ptr<Batch> b) {
    std::lock_guard<std::mutex> lock(mutex_);
    to.push_back(std::move(b));
    changed_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<Batch>> free_, full_;
  bool closed_ = false;
};

void cost_batch(const Batch& b, unsigned warp, const BankModel& model, ReplayAccumulator& acc) {
  for (std::size_t i = 0; i < b.size(); ++i) {
    WarpRequest request{b.ops[i], b.widths[i], std::span<const std::uint64_t>(b.addr.data() + i * warp, warp)};
    if (b.source_at[i] != Batch::kNoSource)
      request.source = std::span<const std::uint64_t>(b.sources.data() + b.source_at[i], warp);
    acc.add(model, b.first_index + i, b.sites[i], request, active_lanes(request), [&] { return b.positions[i]; });
  }
}

/// A binary trace file cut into chunks that the threads decode from their
/// own buffers or mapped windows (ChunkAccess). The chunks start at the
/// bookmarks of the file's index (checked as each chunk ends), or, without
/// one, at those this thread finds by skimming the file (skip(): records checked, not handed out)
/// every `chunk` instructions while the other threads replay whole chunks
/// from their bookmarks; it joins them at the end. Each thread has its own
/// reader of the file, so no record is copied between threads. Any error or
/// wrong bookmark sends the file through one serial reader, which reports
/// the first error in file order exactly as replay() does.
class ChunkedReplay {
 public:
  ChunkedReplay(BinaryTraceReader& mapped, const BankModel& model, unsigned threads, ChunkAccess access)
      : access_(access), source_(&mapped), model_(model), partial_(threads) {
    const unsigned warp = mapped.warp();
    const std::uint64_t record_bytes = 8 * (1 + (mapped.address_bytes() == 8 ? warp : (warp + 1) / 2));
    const std::uint64_t estimate = std::filesystem::file_size(mapped.file_name()) / record_bytes;
    chunk_ = std::max<std::uint64_t>(kReplayBatchRecords * 4, estimate / (std::uint64_t{threads} * 16));
    if (auto index = read_trace_index(mapped.file_name())) {
      use_index(*index);
    } else if (access == ChunkAccess::read) {  // the skim reads too
      skimmer_.emplace(InputFile(mapped.file_name()), kChunkBufferBytes, BinaryReadMode::read);
      source_ = &*skimmer_;
    }
  }

  ReplaySummary run(const ReplayProgress& progress) {
    {
      std::vector<std::jthread> pool;
      for (std::size_t t = 1; t < partial_.size(); ++t) pool.emplace_back([this, t] { work(t); });
      if (!indexed_) skim();
      work(0);
    }
    if (progress) progress(done_.load());
    if (failed_) {
      BinaryTraceReader serial{InputFile(source_->file_name())};
      return replay(serial, model_);  // the first error in file order (a thread may have met a later one first)
    }
    for (std::size_t t = 1; t < partial_.size(); ++t) partial_[0].merge(partial_[t]);
    if (!indexed_) return partial_[0].summary(source_->sites(), model_, source_->warp());
    SiteTable sites;  // every site, from the index (the readers checked its names)
    for (const std::string& name : names_) sites.intern(name);
    return partial_[0].summary(sites, model_, source_->warp());
  }

 private:
  /// The writer's bookmarks instead of a skim: every stride-th, so that a
  /// chunk holds about chunk_ instructions. What they claim is checked as the
  /// chunks are read (matches()); a wrong one sends the file through the
  /// serial reader, like an error.
  void use_index(const TraceIndex& index) {
    const std::size_t stride = std::max<std::uint64_t>(1, chunk_ / kTraceIndexEvery);
    for (std::size_t k = 0; k < index.marks.size(); k += stride) marks_.push_back(index.marks[k]);
    names_ = index.sites;
    end_ = index.index_offset;
    total_ = index.instructions;
    skimmed_ = indexed_ = true;
  }

  /// Whether the reader of chunk k, stopped at the chunk's end, stands where
  /// the index says the next chunk starts (or, for the last, at the end).
  bool matches(const BinaryTraceReader& reader, std::size_t k) const {
    const TraceBookmark at = reader.bookmark();
    const bool last = k + 1 == marks_.size();
    if (last ? at.instructions != total_ || at.sites != names_.size()
             : at.records != marks_[k + 1].records || at.instructions != marks_[k + 1].instructions ||
                   at.sites != marks_[k + 1].sites || at.location != marks_[k + 1].location ||
                   at.executions != marks_[k + 1].executions)
      return false;
    for (std::size_t id = marks_[k].sites; id < at.sites; ++id)
      if (reader.sites().name(static_cast<std::uint32_t>(id)) != names_[id]) return false;
    return !reader.expected() || *reader.expected() == at.executions;  // the reader checked it at the end record
  }

  void skim() {
    try {
      publish(source_->bookmark());
      while (source_->skip())
        if (source_->instructions() % chunk_ == 0) publish(source_->bookmark());
    } catch (...) {
      failed_ = true;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    skimmed_ = true;
    end_ = failed_ ? 0 : source_->end_record_offset();
    changed_.notify_all();
  }

  /// On the skimming thread, the only one that touches source_: the mark and
  /// the names of the sites defined before it, copied for the other threads.
  void publish(const BinaryTraceReader::Bookmark& mark) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t id = names_.size(); id < mark.sites; ++id)
      names_.push_back(source_->sites().name(static_cast<std::uint32_t>(id)));
    marks_.push_back(mark);
    changed_.notify_all();
  }

  /// Chunk k's bookmark, where it stops and the sites defined before it,
  /// once the skim knows; false when there is no chunk k.
  bool chunk(std::size_t k, BinaryTraceReader::Bookmark& mark, std::uint64_t& stop, SiteTable& sites) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return marks_.size() > k + 1 || skimmed_; });
    if (k >= marks_.size() || failed_) return false;
    mark = marks_[k];
    stop = k + 1 < marks_.size() ? marks_[k + 1].offset : end_;
    // A thread takes its chunks in file order, so its table only grows.
    for (std::size_t id = sites.size(); id < mark.sites; ++id) sites.intern(names_[id]);
    return mark.offset < stop;
  }

  void work(std::size_t t) {
    BinaryTraceReader::Bookmark mark;
    std::uint64_t stop = 0;
    SiteTable defined;
    for (std::size_t k; !failed_ && chunk(k = next_.fetch_add(1), mark, stop, defined);) {
      try {
        BinaryTraceReader reader{InputFile(source_->file_name()), kChunkBufferBytes,
                                 access_ == ChunkAccess::map ? BinaryReadMode::automatic : BinaryReadMode::read};
        reader.resume(mark, defined, stop);
        reader.keep_repeats();  // a repeated record costed once, counted its times (replay() does the same)
        TraceRecord record;
        std::uint64_t index = mark.executions;  // of the record's first execution
        while (reader.next(record)) {
          partial_[t].add(model_, index, record.site, record.request, active_lanes(record.request),
                          [&reader] { return reader.position(); }, record.repeat);
          index += record.repeat;  // the reader checked the sum (executions())
        }
        if (indexed_ && !matches(reader, k)) failed_ = true;
        done_ += index - mark.executions;
      } catch (...) {
        failed_ = true;
      }
    }
  }

  /// A chunk's reader buffer: it stays in a core's L2 cache between reads.
  static constexpr std::size_t kChunkBufferBytes = std::size_t{1} << 20;
  ChunkAccess access_;
  std::optional<BinaryTraceReader> skimmer_;  // ChunkAccess::read without an index: the skim's own reader
  BinaryTraceReader* source_;                 // the skimming reader (skimmer_, or the caller's mapped one)
  const BankModel& model_;
  std::vector<ReplayAccumulator> partial_;
  std::uint64_t chunk_ = 0;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<BinaryTraceReader::Bookmark> marks_;
  std::vector<std::string> names_;  // the sites of the published marks (indexed: every site), in id order
  bool skimmed_ = false;
  bool indexed_ = false;    // the bookmarks come from the trace's index (no skim)
  std::uint64_t total_ = 0;  // indexed: the end record's instruction count
  std::uint64_t end_ = 0;
  std::atomic<std::size_t> next_{0};
  std::atomic<std::uint64_t> done_{0};
  std::atomic<bool> failed_{false};
};

}  // namespace

ReplaySummary replay_parallel(TraceSource& source, const BankModel& model, unsigned threads,
                              const ReplayProgress& progress, ChunkAccess access) {
  if (threads <= 1) return replay(source, model);
  check_warps(source, model);
  if (auto* binary = dynamic_cast<BinaryTraceReader*>(&source); binary && binary->mapped() && binary->bookmark().records == 0)
    return ChunkedReplay(*binary, model, threads, access).run(progress);
  const unsigned warp = source.warp();
  BatchQueue queue(2 * std::size_t{threads});
  std::vector<ReplayAccumulator> partial(threads);
  std::vector<std::thread> workers;
  std::exception_ptr worker_error;
  std::mutex error_mutex;
  for (unsigned t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      try {
        while (auto b = queue.take_full()) {
          cost_batch(*b, warp, model, partial[t]);
          b->clear();
          queue.give_free(std::move(b));
        }
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!worker_error) worker_error = std::current_exception();
        // Keep taking batches so the reader is never left waiting for a free one.
        while (auto b = queue.take_full()) queue.give_free(std::move(b));
      }
    });
  std::exception_ptr reader_error;
  try {
    TraceRecord record;
    std::uint64_t index = 0;
    auto batch = queue.take_free();
    batch->first_index = 0;
    while (source.next(record)) {
      batch->sites.push_back(record.site);
      batch->ops.push_back(record.request.op);
      batch->widths.push_back(static_cast<std::uint8_t>(record.request.width));
      batch->addr.insert(batch->addr.end(), record.request.addr.begin(), record.request.addr.end());
      batch->source_at.push_back(record.request.source.empty() ? Batch::kNoSource : batch->sources.size());
      batch->sources.insert(batch->sources.end(), record.request.source.begin(), record.request.source.end());
      batch->positions.push_back(source.position());
      if (++index % kReplayBatchRecords == 0) {
        queue.give_full(std::move(batch));
        if (progress) progress(index);
        batch = queue.take_free();
        batch->first_index = index;
      }
    }
    if (batch->size() > 0) queue.give_full(std::move(batch));
    if (progress) progress(index);
  } catch (...) {
    reader_error = std::current_exception();
  }
  queue.close();
  for (auto& w : workers) w.join();
  if (reader_error) std::rethrow_exception(reader_error);
  if (worker_error) std::rethrow_exception(worker_error);
  for (unsigned t = 1; t < threads; ++t) partial[0].merge(partial[t]);
  return partial[0].summary(source.sites(), model, warp);
}

}  // namespace bankcheck
