#include "proofs/affine_address_fit.hpp"

#include <bit>
#include <sstream>

namespace bankcheck::proofs {

bool FitVariables::representable() const {
  return lane < (1u << kLaneBits) && warp < (1u << kWarpBits) && iteration < (1u << kIterationBits) &&
         block < (1u << kBlockBits);
}

std::uint64_t FitVariables::packed() const {
  std::uint64_t v = 1;
  unsigned at = 1;
  v |= std::uint64_t{lane} << at, at += kLaneBits;
  v |= std::uint64_t{warp} << at, at += kWarpBits;
  v |= std::uint64_t{iteration} << at, at += kIterationBits;
  v |= std::uint64_t{block} << at;
  return v;
}

std::string fit_variable_name(unsigned bit) {
  const unsigned l = FitVariables::kLaneBits, w = FitVariables::kWarpBits, i = FitVariables::kIterationBits;
  if (bit == 0) return "1";
  --bit;
  if (bit < l) return "lane." + std::to_string(bit);
  bit -= l;
  if (bit < w) return "warp." + std::to_string(bit);
  bit -= w;
  if (bit < i) return "iteration." + std::to_string(bit);
  return "block." + std::to_string(bit - i);
}

std::optional<std::uint64_t> AffineAddressFit::reduce(std::uint64_t vars, std::uint64_t address) const {
  while (vars != 0) {
    const unsigned lead = 63 - static_cast<unsigned>(std::countl_zero(vars));
    if (vars_[lead] == 0) return std::nullopt;
    vars ^= vars_[lead];
    address ^= addr_[lead];
  }
  return address;
}

bool AffineAddressFit::add(const FitVariables& x, std::uint64_t address) {
  if (contradiction_) return false;
  ++samples_;
  std::uint64_t vars = x.packed(), a = address;
  while (vars != 0) {
    const unsigned lead = 63 - static_cast<unsigned>(std::countl_zero(vars));
    if (vars_[lead] == 0) {
      vars_[lead] = vars;
      addr_[lead] = a;
      return true;
    }
    vars ^= vars_[lead];
    a ^= addr_[lead];
  }
  if (a == 0) return true;
  contradiction_ = true;
  first_bad_ = std::make_pair(x, address);
  return false;
}

std::optional<std::uint64_t> AffineAddressFit::predict(const FitVariables& x) const { return reduce(x.packed(), 0); }

std::optional<std::uint64_t> AffineAddressFit::column(unsigned packed_bit) const {
  return reduce(std::uint64_t{1} << packed_bit, 0);
}

std::string AffineAddressFit::text() const {
  std::ostringstream os;
  const auto c = reduce(1, 0);
  if (c) os << "0x" << std::hex << *c << std::dec;
  else os << "c";
  std::string group;
  for (unsigned b = 1; b < 64; ++b) {
    const auto col = column(b);
    if (!col || *col == 0) continue;
    const std::string name = fit_variable_name(b);
    const std::size_t dot = name.find('.');
    const std::string g = name.substr(0, dot);
    if (g != group) os << (group.empty() ? "" : "]") << " ^ " << g << "[";
    else os << " ";
    group = g;
    os << name.substr(dot + 1) << ":0x" << std::hex << *col << std::dec;
  }
  if (!group.empty()) os << "]";
  return os.str();
}

}  // namespace bankcheck::proofs
