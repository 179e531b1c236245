#pragma once
// Minimal CSV (RFC 4180: comma-separated, fields with a comma, quote or
// newline quoted, quotes doubled) for the capture's tables: launches.csv,
// sass.csv, and Nsight Compute's --csv output. Hand-written so that the
// injection library needs nothing beyond the C++ standard library; a field
// is quoted by the project's one csv_field (sim/report/csv.hpp, inline).
#include <string>
#include <string_view>
#include <vector>

#include "sim/report/csv.hpp"

namespace bankcheck::capture {

/// One field, quoted when it needs to be.
using report::csv_field;

/// Fields joined by commas, each quoted when it needs to be, ending in '\n'.
std::string csv_line(const std::vector<std::string>& fields);

/// Split one line (no newline inside quoted fields: the tables here have
/// none) into fields. A trailing '\r' is dropped.
/// @throws std::invalid_argument for an unterminated quote.
std::vector<std::string> parse_csv_line(std::string_view line);

}  // namespace bankcheck::capture
