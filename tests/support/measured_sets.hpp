#pragma once
// Every probe set of a validate/sm90 folder, found by its two files alone:
// cases/NAME.trace (the model's view of each single-instruction case) and
// measured/NAME.csv (what the H100/H200 measured), so that a new set is
// checked by tests/model/measured_sets_test.cpp without any other change
// (validate/README.md, "A probe set"; tests/docs/validate_readme_test.cpp
// follows that page on a scratch folder).
//
// The CSV's column header says what was measured: `site,wavefronts,conflicts`
// are the kernel-level counters of a one-instruction kernel (the
// microbenchmark's first sets), compared with kernel_counter_cost; any other
// `site,wavefronts,...` is the per-instruction "L1 Wavefronts Shared",
// compared with cost(). A set whose CSV starts otherwise, or has a column
// `requests` (a site's rows are several requests of the trace, each times it
// ran), or whose trace has several instructions for one site (a loop's
// executions), is read by a test of its own and reported here as not read,
// with the reason. A set whose every case is of a shape the model declines
// says so in a header line `# declined: WHY` (kept so that a rule for them is
// checked the day it is written); any other set must have a case it costs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "sim/trace/trace_file.hpp"
#include "sim/trace/trace_text.hpp"
#include "tests/support/sm90_measured.hpp"

namespace bankcheck::test {

/// What the regression check made of one set.
struct MeasuredSet {
  std::string name;
  std::string not_read;                 ///< why the set was left to its own test; empty when checked
  bool kernel_counters = false;         ///< compared with kernel_counter_cost (else cost())
  bool declined = false;                ///< its header says every case is of a declined shape
  std::size_t rows = 0, checked = 0, unmodelled = 0;
  std::vector<std::string> mismatches;  ///< "site: model X, measured Y"
};

namespace detail {

struct MeasuredRow {
  std::uint64_t wavefronts = 0, conflicts = 0;
};

/// The rows of measured/NAME.csv by site; `columns` gets its header.
inline std::map<std::string, MeasuredRow> read_measured_set(const std::filesystem::path& path,
                                                            std::vector<std::string>& columns, bool& declined) {
  const MeasuredCsv csv = read_measured_csv(path.string());
  columns = csv.columns;
  declined = declined || csv.declined;
  std::map<std::string, MeasuredRow> rows;
  if (columns.size() < 2 || columns[0] != "site" || columns[1] != "wavefronts") return rows;
  for (const auto& cells : csv.rows) {
    REQUIRE_MESSAGE(cells.size() >= 2, path << ": a row of " << cells.size() << " cells");
    MeasuredRow r;
    r.wavefronts = std::stoull(cells[1]);
    if (columns.size() > 2 && columns[2] == "conflicts") r.conflicts = std::stoull(cells.at(2));
    REQUIRE_MESSAGE(rows.emplace(cells[0], r).second, path << ": site " << cells[0] << " twice");
  }
  return rows;
}

}  // namespace detail

/// One set: every trace instruction against its row, by the counter the CSV's header names.
inline MeasuredSet check_measured_set(const std::filesystem::path& sm90, const std::string& name) {
  MeasuredSet set;
  set.name = name;
  std::vector<std::string> columns;
  const auto rows = detail::read_measured_set(sm90 / "measured" / (name + ".csv"), columns, set.declined);
  if (columns.size() < 2 || columns[0] != "site" || columns[1] != "wavefronts") {
    set.not_read = "its columns are not site,wavefronts,...";
    return set;
  }
  if (std::find(columns.begin(), columns.end(), "requests") != columns.end()) {
    set.not_read = "its rows name the trace's requests (a column requests), not one instruction each";
    return set;
  }
  set.kernel_counters = columns.size() > 2 && columns[2] == "conflicts";
  set.rows = rows.size();
  const BankModel sm90_model = make_preset("sm90");
  TextTraceReader trace(InputFile((sm90 / "cases" / (name + ".trace")).string()));
  TraceRecord rec;
  std::map<std::string, int> seen;
  while (trace.next(rec)) {
    const std::string site = trace.sites().name(rec.site);
    if (++seen[site] > 1) {
      set.not_read = "site " + site + " has several instructions in the trace";
      return set;
    }
    const auto row = rows.find(site);
    if (row == rows.end()) {
      set.mismatches.push_back(site + ": not in the measured file");
      continue;
    }
    const RequestCost c =
        set.kernel_counters ? sm90_model.kernel_counter_cost(rec.request) : sm90_model.cost(rec.request);
    if (!c.modelled) {
      ++set.unmodelled;
      continue;
    }
    ++set.checked;
    const bool equal = c.wavefronts == row->second.wavefronts &&
                       (!set.kernel_counters || c.conflicts() == row->second.conflicts);
    if (!equal)
      set.mismatches.push_back(site + ": model " + std::to_string(c.wavefronts) + "/" + std::to_string(c.conflicts()) +
                               ", measured " + std::to_string(row->second.wavefronts) + "/" +
                               std::to_string(row->second.conflicts));
  }
  if (seen.size() != rows.size())
    set.mismatches.push_back(std::to_string(rows.size()) + " measured rows, " + std::to_string(seen.size()) +
                             " sites in the trace");
  return set;
}

/// Every NAME with both cases/NAME.trace and measured/NAME.csv under `sm90`, by name.
inline std::vector<MeasuredSet> check_measured_sets(const std::filesystem::path& sm90) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(sm90 / "cases"))
    if (e.path().extension() == ".trace" && std::filesystem::exists(sm90 / "measured" / (e.path().stem().string() + ".csv")))
      names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  std::vector<MeasuredSet> sets;
  for (const std::string& name : names) sets.push_back(check_measured_set(sm90, name));
  return sets;
}

}  // namespace bankcheck::test
