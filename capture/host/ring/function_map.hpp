#pragma once
// Program counters to trace sites: a captured instruction is named
// `FUNCTION+0xOFFSET`, FUNCTION the mangled name of the device function
// whose code holds the pc and OFFSET the pc's byte offset in it (hex), so
// that it joins with the SASS (nvdisasm's /*OFFSET*/) and with Nsight
// Compute's per-instruction table (address minus the function's first
// address). The injection library fills the map per module from
// sanitizerGetFunctionPcAndSize.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace bankcheck::capture {

/// "NAME+0xOFFSET" (lower-case hex, no leading zeros).
std::string site_name(std::string_view function, std::uint64_t offset);

/// A site name split back into function and offset; nullopt if it is not of that form.
struct SiteRef {
  std::string function;
  std::uint64_t offset = 0;
};
std::optional<SiteRef> parse_site_name(std::string_view site);

class FunctionMap {
 public:
  /// Register a function's code range [pc, pc + size).
  /// @throws std::invalid_argument when size is 0.
  void add(std::string name, std::uint64_t pc, std::uint64_t size);

  /// The function holding `pc` and the offset in it; nullopt when no registered range holds it.
  std::optional<std::pair<const std::string*, std::uint64_t>> find(std::uint64_t pc) const;

  /// The site of `pc`: "FUNCTION+0xOFFSET", or "?+0xPC" (the absolute pc) for an unknown pc.
  /// Cached per pc: a trace has few distinct pcs and many records.
  const std::string& site(std::uint64_t pc);

  /// How many distinct pcs site() could not place in a function.
  std::uint64_t unknown_pcs() const { return unknown_pcs_; }
  std::size_t size() const { return ranges_.size(); }

 private:
  struct Range {
    std::uint64_t pc, size;
    std::string name;
  };
  std::vector<Range> ranges_;  // sorted by pc
  std::unordered_map<std::uint64_t, std::string> sites_;
  std::uint64_t unknown_pcs_ = 0;
};

/// A function defined in a cubin: its name and its index in the symbol
/// table (what `nvdisasm -fun` takes).
struct CubinFunction {
  std::string name;
  std::uint64_t symbol = 0;
};

/// The functions defined in a cubin (ELF64 symbols of type FUNC with a
/// nonzero size), by name. Empty when the image is not an ELF64 cubin.
std::vector<CubinFunction> cubin_functions(std::span<const std::byte> image);

/// Their names, sorted, each once.
std::vector<std::string> cubin_function_names(std::span<const std::byte> image);

}  // namespace bankcheck::capture
