#include "sim/trace/request_input.hpp"

#include <stdexcept>
#include <string>

#include "sim/trace/trace.hpp"

namespace bankcheck {

std::optional<Op> op_from_name(std::string_view token) {
  for (unsigned op = 0; op < kOpCount; ++op)
    if (token == op_name(static_cast<Op>(op))) return static_cast<Op>(op);
  return std::nullopt;
}

Op parse_op(std::string_view token) {
  if (const auto op = op_from_name(token)) return *op;
  std::string names;
  for (unsigned op = 0; op < kOpCount; ++op) names += (op ? ", " : "") + std::string(op_name(static_cast<Op>(op)));
  throw std::invalid_argument("unknown op '" + std::string(token) + "' (expected one of " + names + ")");
}

void check_request(const WarpRequest& request, unsigned warp) {
  check_writable(request, warp);
  for (std::size_t l = 0; l < request.addr.size(); ++l) {
    const std::uint64_t a = request.addr[l];
    if (a == kInactive) continue;
    if (a == kZeroFill)
      throw std::invalid_argument("address " + std::to_string(a) + " of lane " + std::to_string(l) + " is reserved");
    if (!is_aligned_access(a, request.width))
      throw std::invalid_argument("misaligned address " + std::to_string(a) + " of lane " + std::to_string(l) +
                                  ": not a multiple of " + std::to_string(access_alignment(request.width)) +
                                  " (width " + std::to_string(request.width) + ")");
  }
}

}  // namespace bankcheck
