#include "sim/trace/trace_index.hpp"

#include <cstring>
#include <fstream>

namespace bankcheck {
namespace {

constexpr std::uint64_t kEndBytes = 16;  // the end record: its head and the instruction count

}  // namespace

std::optional<TraceIndex> read_trace_index(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  unsigned char header[kBinaryTraceHeaderBytes];
  if (!in.read(reinterpret_cast<char*>(header), sizeof header)) return std::nullopt;
  std::uint16_t version;
  std::memcpy(&version, header + 8, 2);
  if (std::memcmp(header, kBinaryTraceMagic, sizeof kBinaryTraceMagic) != 0 || version < 4) return std::nullopt;
  in.seekg(0, std::ios::end);
  const auto size = static_cast<std::uint64_t>(in.tellg());
  if (size < kBinaryTraceHeaderBytes + kEndBytes + 24 || size % 8 != 0) return std::nullopt;
  std::uint64_t tail[3];  // the index's last word (its own offset), then the end record
  in.seekg(static_cast<std::streamoff>(size - sizeof tail));
  if (!in.read(reinterpret_cast<char*>(tail), sizeof tail)) return std::nullopt;
  const std::uint64_t at = tail[0];
  if (tail[1] != static_cast<std::uint64_t>(BinaryRecordKind::end) || at < kBinaryTraceHeaderBytes || at % 8 != 0 ||
      at + 24 > size - kEndBytes)
    return std::nullopt;
  std::vector<std::uint64_t> w((size - kEndBytes - at) / 8);
  in.seekg(static_cast<std::streamoff>(at));
  if (!in.read(reinterpret_cast<char*>(w.data()), static_cast<std::streamsize>(w.size() * 8))) return std::nullopt;
  if ((w[0] & 0xffffffffu) != static_cast<std::uint64_t>(BinaryRecordKind::index)) return std::nullopt;
  const std::uint64_t marks = w[0] >> 32, names = w[1];
  const std::uint64_t per_mark = version >= 5 ? 9 : 8;  // version 5: the executions before the mark
  if (marks < 2 || 2 + per_mark * marks + names + 1 > w.size()) return std::nullopt;
  TraceIndex index;
  index.index_offset = at;
  index.instructions = tail[2];
  std::size_t p = 2;
  for (std::uint64_t i = 0; i < marks; ++i, p += per_mark) {
    TraceBookmark m{w[p], w[p + 1], w[p + 2], static_cast<std::size_t>(w[p + 3]), std::nullopt,
                    per_mark == 9 ? w[p + 8] : w[p + 2]};
    if (w[p + 7] > 1) return std::nullopt;
    if (w[p + 7] == 1)
      m.location = TraceLocation{w[p + 4],
                                 {static_cast<std::uint32_t>(w[p + 5]), static_cast<std::uint32_t>(w[p + 5] >> 32),
                                  static_cast<std::uint32_t>(w[p + 6])},
                                 static_cast<std::uint32_t>(w[p + 6] >> 32)};
    const TraceBookmark* before = index.marks.empty() ? nullptr : &index.marks.back();
    const bool ordered = before == nullptr
                             ? m.instructions == 0 && m.sites == 0 && m.executions == 0  // before the first instruction
                             : m.offset > before->offset && m.records > before->records &&
                                   m.instructions > before->instructions && m.sites >= before->sites &&
                                   m.executions > before->executions;
    if (!ordered || m.offset >= at || m.offset % 8 != 0 || m.sites > names || m.instructions > index.instructions)
      return std::nullopt;
    index.marks.push_back(m);
  }
  for (std::uint64_t i = 0; i < names; ++i) {
    if (p >= w.size() - 1 || w[p] > kMaxSiteNameBytes) return std::nullopt;
    const std::size_t length = static_cast<std::size_t>(w[p]), words = (length + 7) / 8;
    if (p + 1 + words > w.size() - 1) return std::nullopt;
    index.sites.emplace_back(reinterpret_cast<const char*>(w.data() + p + 1), length);
    p += 1 + words;
  }
  if (p != w.size() - 1 || w[p] != at) return std::nullopt;
  return index;
}

}  // namespace bankcheck
