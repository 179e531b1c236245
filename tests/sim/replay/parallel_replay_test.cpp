// The parallel replay equals the sequential one, field by field, for every
// thread count: on a trace with many sites, conflicts of every degree,
// repeated worst degrees (the lowest index must win), kinds the model does
// not cost, and more records than one batch; and a mapped binary trace cut
// into chunks (8- and 4-byte addresses): the same summary, the same byte
// positions, and the same first error whichever reader meets it.
#include "sim/replay/parallel_replay.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/trace/trace_binary.hpp"
#include "sim/trace/trace_file.hpp"
#include "sim/trace/trace_index.hpp"
#include "tests/scratch.hpp"

using namespace bankcheck;

namespace {

TraceBuffer mixed_trace(std::uint64_t seed, std::size_t records) {
  std::mt19937_64 rng(seed);
  TraceBuffer b;
  b.begin(32);
  std::vector<std::uint64_t> addr(32);
  for (std::size_t i = 0; i < records; ++i) {
    const unsigned stride = 1u << (rng() % 6);  // 1..32 words: degree 1..32
    const std::uint64_t base = 4 * (rng() % 1024);
    for (unsigned l = 0; l < 32; ++l) addr[l] = rng() % 7 == 0 ? kInactive : base + 4ull * stride * l;
    const unsigned pick = static_cast<unsigned>(rng() % 10);
    // ldsm is not modelled on the DMM: counted apart, in its own sites; gld goes to the global model
    const Op op = pick == 0 ? Op::ldsm : pick == 9 ? Op::gld : pick < 4 ? Op::store : Op::load;
    const unsigned width = op == Op::ldsm ? 16 : 4;
    if (op == Op::ldsm)
      for (auto& a : addr)
        if (a != kInactive) a = a / 16 * 16;
    b.record("site" + std::to_string(rng() % 53), WarpRequest{op, width, addr});
  }
  return b;
}

void check_equal(const ReplaySummary& a, const ReplaySummary& b) {
  CHECK(a.totals == b.totals);
  CHECK(a.unmodelled == b.unmodelled);
  CHECK(a.global == b.global);
  REQUIRE(a.sites.size() == b.sites.size());
  for (std::size_t i = 0; i < a.sites.size(); ++i) {
    CAPTURE(a.sites[i].site);
    CHECK(a.sites[i].site == b.sites[i].site);
    CHECK(a.sites[i].totals == b.sites[i].totals);
    CHECK(a.sites[i].unmodelled == b.sites[i].unmodelled);
    CHECK(a.sites[i].global == b.sites[i].global);
    CHECK(a.sites[i].worst.present == b.sites[i].worst.present);
    CHECK(a.sites[i].worst.index == b.sites[i].worst.index);
    CHECK(a.sites[i].worst.addr == b.sites[i].worst.addr);
    CHECK(a.sites[i].worst.cost.degree == b.sites[i].worst.cost.degree);
  }
  CHECK(a.worst.index == b.worst.index);
  CHECK(a.worst.site == b.worst.site);
  CHECK(a.worst.cost.degree == b.worst.cost.degree);
}

}  // namespace

TEST_CASE("every thread count gives replay()'s summary") {
  const BankModel dmm = make_preset("dmm", 32);
  for (std::size_t records : {std::size_t{0}, std::size_t{1}, kReplayBatchRecords - 1, 3 * kReplayBatchRecords + 17}) {
    CAPTURE(records);
    const TraceBuffer trace = mixed_trace(records + 11, records);
    BufferSource one(trace);
    const ReplaySummary want = replay(one, dmm);
    for (unsigned threads : {1u, 2u, 3u, 4u, 8u}) {
      CAPTURE(threads);
      BufferSource src(trace);
      std::uint64_t seen = 0;
      const ReplaySummary got = replay_parallel(src, dmm, threads, [&](std::uint64_t n) { seen = n; });
      check_equal(got, want);
      if (threads > 1) CHECK(seen == records);
    }
  }
}

TEST_CASE("a warp mismatch is refused before any thread starts") {
  TraceBuffer b;
  b.begin(4);
  BufferSource src(b);
  CHECK_THROWS_AS(replay_parallel(src, make_preset("sm90"), 4), std::invalid_argument);
}

namespace {

/// `trace` written as a binary file with `address_bytes` per address.
std::string binary_file(const TraceBuffer& trace, const std::string& name, unsigned address_bytes) {
  const std::string path = bankcheck::test::scratch(name);
  BufferSource source(trace);
  auto sink = create_trace(path, TraceFormat::binary, address_bytes);
  copy_trace(source, *sink);
  return path;
}

/// The message replay() of the file throws ("" if none).
template <class Replay>
std::string error_of(const Replay& run) {
  try {
    run();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a binary trace file is cut into chunks that the threads decode: replay()'s summary and positions") {
  const BankModel sm90 = make_preset("sm90");
  const std::size_t records = 3 * 4 * kReplayBatchRecords + 5;  // four chunks at the smallest chunk size
  const TraceBuffer trace = mixed_trace(5, records);
  for (unsigned address_bytes : {8u, 4u}) {
    CAPTURE(address_bytes);
    const std::string path = binary_file(trace, "chunks" + std::to_string(address_bytes) + ".bktrace", address_bytes);
    auto one = open_trace(path);
    const ReplaySummary want = replay(*one, sm90);
    for (ChunkAccess access : {ChunkAccess::read, ChunkAccess::map, ChunkAccess::mapped_skim}) {
      for (unsigned threads : {2u, 3u, 8u}) {
        CAPTURE(static_cast<int>(access));
        CAPTURE(threads);
        auto source = open_trace(path);
        REQUIRE(dynamic_cast<BinaryTraceReader*>(source.get())->mapped());
        std::uint64_t seen = 0;
        const ReplaySummary got = replay_parallel(*source, sm90, threads, [&](std::uint64_t n) { seen = n; }, access);
        check_equal(got, want);
        CHECK(got.worst.position.value == want.worst.position.value);  // byte offsets from the chunk readers
        for (std::size_t i = 0; i < got.sites.size(); ++i)
          CHECK(got.sites[i].worst.position.value == want.sites[i].worst.position.value);
        CHECK(seen == records);
      }
    }
  }
}

TEST_CASE("an indexed trace is cut at its bookmarks; bookmarks that lie are caught and the result is replay()'s") {
  const BankModel sm90 = make_preset("sm90");
  const TraceBuffer trace = mixed_trace(11, 4 * kTraceIndexEvery + 3);
  const std::string good = binary_file(trace, "indexed.bktrace", 4);
  auto one = open_trace(good);
  const ReplaySummary want = replay(*one, sm90);
  const auto index = read_trace_index(good);
  REQUIRE(index);
  REQUIRE(index->marks.size() == 5);
  struct Lie {
    const char* what;
    std::size_t mark, field;  // a bookmark's word: 0 offset, 1 records, 2 instructions, 3 sites, 8 executions
    std::int64_t by;
  };
  const Lie lies[] = {{"the truth", 1, 0, 0},
                      {"an offset inside a record", 2, 0, 8},
                      {"an offset one record early", 2, 0, -8 * 17},
                      {"one instruction too many", 1, 2, 1},
                      {"one record too few", 3, 1, -1},
                      {"a site too few", 1, 3, -1},
                      {"one execution too many", 2, 8, 1}};
  for (const Lie& lie : lies) {
    CAPTURE(lie.what);
    const std::string path = bankcheck::test::scratch("indexed-lie.bktrace");
    std::filesystem::copy_file(good, path, std::filesystem::copy_options::overwrite_existing);
    const std::uint64_t at = index->index_offset + 8 * (2 + 9 * lie.mark + lie.field);  // version 5: 9 words a bookmark
    std::FILE* f = std::fopen(path.c_str(), "r+b");
    REQUIRE(f != nullptr);
    std::uint64_t word = 0;
    std::fseek(f, static_cast<long>(at), SEEK_SET);
    REQUIRE(std::fread(&word, 8, 1, f) == 1);
    word = static_cast<std::uint64_t>(static_cast<std::int64_t>(word) + lie.by);
    std::fseek(f, static_cast<long>(at), SEEK_SET);
    std::fwrite(&word, 8, 1, f);
    std::fclose(f);
    REQUIRE(read_trace_index(path));  // well formed: only the chunks' readers can tell the lie
    for (ChunkAccess access : {ChunkAccess::read, ChunkAccess::map}) {
      for (unsigned threads : {2u, 5u}) {
        CAPTURE(threads);
        auto source = open_trace(path);
        check_equal(replay_parallel(*source, sm90, threads, {}, access), want);
      }
    }
  }
}

TEST_CASE("a chunked replay reports the first error in file order, as replay() does") {
  const BankModel sm90 = make_preset("sm90");
  const std::size_t records = 3 * 4 * kReplayBatchRecords;
  const TraceBuffer trace = mixed_trace(9, records);
  const std::string good = binary_file(trace, "chunk-errors.bktrace", 8);
  // Byte offsets of two late instructions, in different chunks.
  std::vector<std::uint64_t> offset(records);
  {
    BinaryTraceReader reader{InputFile(good)};
    TraceRecord r;
    for (std::size_t i = 0; reader.next(r); ++i) offset[i] = reader.position().value;
  }
  const std::uint64_t early = offset[records / 2], late = offset[records - 3];
  struct Case {
    const char* what;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> words;  // (byte offset, new word)
  };
  const std::vector<Case> cases = {
      {"a misaligned address (seen only by a chunk reader)", {{early + 8, 6}}},
      {"an unknown record kind (seen by the skim)", {{late, 9}}},
      {"both: the misaligned address comes first", {{early + 8, 6}, {late, 9}}},
      {"a wrong end count", {{std::filesystem::file_size(good) - 8, records + 1}}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const std::string bad = bankcheck::test::scratch("chunk-bad.bktrace");
    std::filesystem::copy_file(good, bad, std::filesystem::copy_options::overwrite_existing);
    {
      std::FILE* f = std::fopen(bad.c_str(), "r+b");
      REQUIRE(f != nullptr);
      for (const auto& [at, word] : c.words) {
        std::fseek(f, static_cast<long>(at), SEEK_SET);
        std::fwrite(&word, 8, 1, f);
      }
      std::fclose(f);
    }
    const std::string want = error_of([&] {
      auto s = open_trace(bad);
      replay(*s, sm90);
    });
    REQUIRE(!want.empty());
    for (ChunkAccess access : {ChunkAccess::read, ChunkAccess::map, ChunkAccess::mapped_skim}) {
      for (unsigned threads : {2u, 4u}) {
        CAPTURE(static_cast<int>(access));
        CAPTURE(threads);
        CHECK(error_of([&] {
                auto s = open_trace(bad);
                replay_parallel(*s, sm90, threads, {}, access);
              }) == want);
      }
    }
  }
}
