#pragma once
// The picture of one instruction's worst execution for the HTML report:
// `bankcheck draw`'s bank grid (sim/draw/bank_grid.hpp: one row per bank,
// one column per row of shared memory, each cell labelled with the lanes
// that touch it, cells of a bank holding two or more distinct words marked
// as a conflict), kept sparse: only the columns the request touches. With
// it go the model's words per bank (summed over the request's phases), the
// cost and the culprit (bank, lanes, words), so the grid reads without
// colour.
#include <nlohmann/json.hpp>

#include "model/bank_model.hpp"
#include "sim/replay/replay.hpp"

namespace bankcheck::html {

/// Columns a grid keeps at most: a request scattered wider is cut there (and says so).
inline constexpr std::size_t kMaxGridColumns = 64;

/// {"banks", "columns": [shared-memory rows], "cells": [[bank, column index, state, lanes]...],
///  "states": [...], "bank_words", "cost", "culprit", "phases", "cut"}; state 0 touched elsewhere,
/// 1 accessed, 2 conflict. {"none": why} where there is nothing to draw.
nlohmann::ordered_json grid_json(const BankModel& model, const WorstInstruction& worst);

}  // namespace bankcheck::html
