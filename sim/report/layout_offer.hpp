#pragma once
// A layout offered beside another result (docs/capture.md, "Comparing with
// Nsight Compute"): where `compare` reports conflicting instructions on a
// shared-memory buffer for which `bankcheck suggest` finds a map with fewer
// wavefronts, it points at that map in one line. The search and its evidence
// are `suggest`'s (proofs/capture_suggestion.hpp); this is what the report
// says of it, in text, JSON and CSV, with no search of its own.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bankcheck::report {

struct LayoutOffer {
  std::uint64_t launch = 0;
  std::string kernel;                      ///< demangled
  std::uint64_t base = 0, bytes = 0;       ///< the buffer: its lowest byte address and its length
  std::string map;                         ///< the new byte offset of `b` as C++ ("b ^ ((b >> 5) & 0x7c)")
  std::string cute;                        ///< "Swizzle<B,M,S> on byte offsets" or "none: why"
  std::uint64_t before = 0, after = 0, ideal = 0;  ///< wavefronts of the buffer's traced executions
  std::string evidence;                    ///< what the fits rest on (suggest's per-launch evidence)
  std::vector<std::string> conflicting;    ///< its instructions above their ideal (sites), in order
  std::uint64_t saved() const { return before - after; }  ///< @pre after <= before
};

/// "launch 0 K: buffer at 1024 (4096 bytes): map b ^ (...) (Swizzle<...> on byte offsets) gives 1056 -> 64
/// wavefronts (ideal 64), 992 saved; conflicting: SITE, SITE (bankcheck suggest for the fits)".
std::string offer_text(const LayoutOffer& o);
/// The JSON object of an offer (fields as LayoutOffer, plus `saved`).
nlohmann::json offer_json(const LayoutOffer& o);
/// The CSV cell of an instruction's offer: "b ^ (...): buffer at 1024, 1056 -> 64 wavefronts".
std::string offer_cell(const LayoutOffer& o);

}  // namespace bankcheck::report
