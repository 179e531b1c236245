#pragma once
// What the captured program asked the driver about its device and kernels,
// and the answers it got: OUT/queries.csv, one row per query the program
// made (the runtime's and the driver's; a driver query the runtime made
// inside one of the program's runtime queries is that row, not another),
// written by the injection library as each call returns. Occupancy and
// function attributes are answers about a kernel, which the tool patches:
// they are where a launch configuration that differs from a plain run's
// would come from (on the H200 the suite's occupancy probe got the same 56
// answers plainly and under capture, a 168-register kernel's included:
// docs/capture.md). Device attributes do not concern the patch. Version 1.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bankcheck::capture {

struct DriverQuery {
  std::uint64_t id = 0;    ///< in the order the calls returned
  std::string api;         ///< "driver" or "runtime"
  std::string call;        ///< the API function, "cudaOccupancyMaxActiveClusters"
  std::string function;    ///< the kernel asked about (mangled), empty for a device query or when unknown
  std::string arguments;   ///< "block 384 smem 0", "attribute 16", "grid 64x1x1 block 128x1x1 smem 0 cluster 2x1x1"
  std::string answer;      ///< "1", "numRegs=168 maxThreadsPerBlock=384", or "error N"
  /// An answer about a kernel (occupancy, function attributes), which the tool patches: the kind of answer
  /// that could differ from a plain run's (none did in the H200 probe).
  bool may_differ = false;
};

/// Whether a query of `call` answers about a kernel's compiled resources (occupancy,
/// function attributes), which the tool patches; false for device queries.
bool answer_depends_on_kernel(std::string_view call);

/// The header line of queries.csv.
std::string driver_query_header();
/// One row of queries.csv, ending in '\n'.
std::string driver_query_line(const DriverQuery& q);
/// queries.csv as written by driver_query_line; a missing file is no queries.
/// @throws std::invalid_argument naming the file and line for another header or a bad row.
std::vector<DriverQuery> read_driver_queries(const std::string& path);

/// The queries whose answers may differ under the tool, counted by call:
/// "cudaOccupancyMaxActiveClusters 3, cudaFuncGetAttributes 1"; empty when none.
std::string differing_query_counts(const std::vector<DriverQuery>& queries);

/// Where a launch of `kernel` (mangled) that ran another grid under the tool
/// than under ncu may have got it: the program's queries about that kernel, or
/// about a kernel the library could not name (a runtime query names none),
/// "cudaOccupancyMaxActiveClusters (grid 64x1x1 ...) answered 1"; empty when it made none.
std::string grid_difference_reason(const std::vector<DriverQuery>& queries, const std::string& kernel);

}  // namespace bankcheck::capture
