#include "capture/host/launch/driver_queries.hpp"

#include <fstream>
#include <map>
#include <stdexcept>

#include "capture/host/csv.hpp"

namespace bankcheck::capture {

namespace {
constexpr const char* kQueryHeader = "id,api,call,function,arguments,answer,may_differ";
constexpr std::size_t kQueryColumns = 7;
constexpr std::size_t kMostQueriesListed = 4;  // queries named in one reason; the rest are counted
}  // namespace

bool answer_depends_on_kernel(std::string_view call) {
  // cuOccupancy*/cudaOccupancy*: blocks or clusters per SM from the kernel's registers and shared memory;
  // cuFuncGetAttribute/cudaFuncGetAttributes: the registers, local memory and block limit themselves.
  return call.find("Occupancy") != std::string_view::npos || call.starts_with("cuFuncGetAttribute") ||
         call.starts_with("cudaFuncGetAttributes");
}

std::string driver_query_header() { return std::string(kQueryHeader) + "\n"; }

std::string driver_query_line(const DriverQuery& q) {
  return csv_line({std::to_string(q.id), q.api, q.call, q.function, q.arguments, q.answer, q.may_differ ? "yes" : "no"});
}

std::vector<DriverQuery> read_driver_queries(const std::string& path) {
  std::ifstream in(path);
  std::vector<DriverQuery> rows;
  if (!in) return rows;
  std::string line;
  if (!std::getline(in, line)) return rows;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line != kQueryHeader)
    throw std::invalid_argument(path + ":1: not a queries table (version 1 header: " + std::string(kQueryHeader) + ")");
  for (std::size_t number = 2; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    std::vector<std::string> f;
    try {
      f = parse_csv_line(line);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(where + e.what());
    }
    if (f.size() != kQueryColumns || (f[6] != "yes" && f[6] != "no") || f[0].empty() ||
        f[0].find_first_not_of("0123456789") != std::string::npos || f[0].size() > 19)
      throw std::invalid_argument(where + "a row needs " + std::to_string(kQueryColumns) +
                                  " fields: a number id, ..., may_differ yes or no");
    rows.push_back({std::stoull(f[0]), f[1], f[2], f[3], f[4], f[5], f[6] == "yes"});
  }
  return rows;
}

std::string differing_query_counts(const std::vector<DriverQuery>& queries) {
  std::map<std::string, std::uint64_t> counts;
  for (const DriverQuery& q : queries)
    if (q.may_differ) ++counts[q.call];
  std::string text;
  for (const auto& [call, n] : counts) text += (text.empty() ? "" : ", ") + call + " " + std::to_string(n);
  return text;
}

std::string grid_difference_reason(const std::vector<DriverQuery>& queries, const std::string& kernel) {
  std::string listed;
  std::size_t count = 0;
  for (const DriverQuery& q : queries) {
    if (!q.may_differ || (!q.function.empty() && q.function != kernel)) continue;
    if (++count > kMostQueriesListed) continue;
    listed += (listed.empty() ? "" : "; ") + q.call + (q.function.empty() ? " (of a kernel not named)" : "") +
              (q.arguments.empty() ? "" : " (" + q.arguments + ")") + " answered " + q.answer;
  }
  if (count == 0) return "";
  if (count > kMostQueriesListed) listed += "; " + std::to_string(count - kMostQueriesListed) + " more";
  return "under capture the program asked the driver about this kernel, from which it may have sized the grid "
         "(queries.csv): " + listed;
}

}  // namespace bankcheck::capture
