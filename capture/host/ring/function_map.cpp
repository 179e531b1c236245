#include "capture/host/ring/function_map.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <stdexcept>

namespace bankcheck::capture {

std::string site_name(std::string_view function, std::uint64_t offset) {
  char hex[24];
  const auto r = std::to_chars(hex, hex + sizeof hex, offset, 16);
  return std::string(function) + "+0x" + std::string(hex, r.ptr);
}

std::optional<SiteRef> parse_site_name(std::string_view site) {
  const std::size_t plus = site.rfind("+0x");
  if (plus == std::string_view::npos || plus == 0) return std::nullopt;
  const std::string_view digits = site.substr(plus + 3);
  std::uint64_t offset = 0;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), offset, 16);
  if (digits.empty() || r.ec != std::errc{} || r.ptr != digits.data() + digits.size()) return std::nullopt;
  return SiteRef{std::string(site.substr(0, plus)), offset};
}

void FunctionMap::add(std::string name, std::uint64_t pc, std::uint64_t size) {
  if (size == 0) throw std::invalid_argument("function '" + name + "' has size 0");
  Range range{pc, size, std::move(name)};
  auto at = std::lower_bound(ranges_.begin(), ranges_.end(), pc, [](const Range& r, std::uint64_t p) { return r.pc < p; });
  if (at != ranges_.end() && at->pc == pc) {
    *at = std::move(range);  // reloaded at the same address: the newer name wins
  } else {
    ranges_.insert(at, std::move(range));
  }
  sites_.clear();  // cached names may now resolve differently
}

std::optional<std::pair<const std::string*, std::uint64_t>> FunctionMap::find(std::uint64_t pc) const {
  auto after = std::upper_bound(ranges_.begin(), ranges_.end(), pc, [](std::uint64_t p, const Range& r) { return p < r.pc; });
  if (after == ranges_.begin()) return std::nullopt;
  const Range& r = *(after - 1);
  if (pc - r.pc >= r.size) return std::nullopt;
  return std::make_pair(&r.name, pc - r.pc);
}

const std::string& FunctionMap::site(std::uint64_t pc) {
  if (auto it = sites_.find(pc); it != sites_.end()) return it->second;
  std::string name;
  if (auto f = find(pc)) {
    name = site_name(*f->first, f->second);
  } else {
    name = site_name("?", pc);
    ++unknown_pcs_;
  }
  return sites_.emplace(pc, std::move(name)).first->second;
}

namespace {

// ELF64 layout (System V gABI), little-endian: only what listing symbols needs.
constexpr unsigned char kElfMagic[4] = {0x7f, 'E', 'L', 'F'};
constexpr unsigned kElfClass64 = 2, kSymTab = 2, kSttFunc = 2;

template <class T>
bool read_at(std::span<const std::byte> image, std::uint64_t offset, T& out) {
  if (offset > image.size() || image.size() - offset < sizeof(T)) return false;
  std::memcpy(&out, image.data() + offset, sizeof(T));
  return true;
}

}  // namespace

std::vector<CubinFunction> cubin_functions(std::span<const std::byte> image) {
  std::vector<CubinFunction> names;
  if (image.size() < 64 || std::memcmp(image.data(), kElfMagic, 4) != 0 ||
      std::to_integer<unsigned>(image[4]) != kElfClass64)
    return names;
  std::uint64_t shoff = 0;
  std::uint16_t shentsize = 0, shnum = 0;
  if (!read_at(image, 0x28, shoff) || !read_at(image, 0x3a, shentsize) || !read_at(image, 0x3c, shnum)) return names;
  struct Section {
    std::uint32_t type = 0, link = 0;
    std::uint64_t offset = 0, size = 0, entsize = 0;
  };
  auto section = [&](std::uint32_t i, Section& s) {
    const std::uint64_t at = shoff + std::uint64_t{i} * shentsize;
    return read_at(image, at + 4, s.type) && read_at(image, at + 0x28, s.link) && read_at(image, at + 0x18, s.offset) &&
           read_at(image, at + 0x20, s.size) && read_at(image, at + 0x38, s.entsize);
  };
  for (std::uint32_t i = 0; i < shnum; ++i) {
    Section sym;
    if (!section(i, sym) || sym.type != kSymTab || sym.entsize < 24) continue;
    Section str;
    if (!section(sym.link, str)) continue;
    for (std::uint64_t at = sym.offset; at + 24 <= sym.offset + sym.size; at += sym.entsize) {
      std::uint32_t name = 0;
      std::uint8_t info = 0;
      std::uint64_t size = 0;
      if (!read_at(image, at, name) || !read_at(image, at + 4, info) || !read_at(image, at + 16, size)) break;
      if ((info & 0xf) != kSttFunc || size == 0 || name >= str.size) continue;
      const std::uint64_t from = str.offset + name;
      if (from >= image.size()) continue;
      const char* text = reinterpret_cast<const char*>(image.data() + from);
      const std::size_t length = strnlen(text, image.size() - from);
      names.push_back({std::string(text, length), (at - sym.offset) / sym.entsize});
    }
  }
  std::sort(names.begin(), names.end(), [](const CubinFunction& a, const CubinFunction& b) { return a.name < b.name; });
  return names;
}

std::vector<std::string> cubin_function_names(std::span<const std::byte> image) {
  std::vector<std::string> names;
  for (CubinFunction& f : cubin_functions(image)) names.push_back(std::move(f.name));
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace bankcheck::capture
