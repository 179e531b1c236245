#pragma once
// `bankcheck report`'s page: one self-contained HTML file (inline style,
// script and data; no server, no network) that ranks the kernels by the
// cycles their conflicts keep the shared-memory pipe busy (the model's
// measured time, model/shared_timing.hpp), shows each kernel's source lines
// with their wavefronts, ideal and conflicts in the margin and the SASS
// under each line, and for each instruction the bank grid of its worst
// execution and, where Nsight Compute was compared, its verdict.
#include <cstdint>
#include <string>

#include "model/bank_model.hpp"
#include "sim/html/report_document.hpp"

namespace bankcheck::html {

/// Source text kept per file at most (lines beyond it are shown without their text).
inline constexpr std::uintmax_t kMaxSourceBytes = 4u << 20;

/// The page's data block: kernels (ranked), instructions (with grids) and the source lines they name,
/// read from the files where they exist on this machine (context lines around each).
nlohmann::ordered_json report_data(const ReportInput& input, const BankModel& model);

/// The page.
std::string report_html(const ReportInput& input, const BankModel& model);

}  // namespace bankcheck::html
