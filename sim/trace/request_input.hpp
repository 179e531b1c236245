#pragma once
// A warp request given by a caller rather than read from a trace (the
// Python module's Model.cost): its op by trace token, and the checks a
// trace reader makes on a record, so that BankModel::cost's preconditions
// hold for any input and a bad one is an error that says what is wrong.
#include <optional>
#include <string_view>

#include "model/warp_request.hpp"

namespace bankcheck {

/// The op whose trace token (op_name) is `token`, if any.
std::optional<Op> op_from_name(std::string_view token);

/// @throws std::invalid_argument naming the accepted tokens.
Op parse_op(std::string_view token);

/// check_writable (lanes, width, sources), and every active address a
/// multiple of the access alignment and not one of the reserved values.
/// @throws std::invalid_argument naming the lane and what is wrong.
void check_request(const WarpRequest& request, unsigned warp);

}  // namespace bankcheck
