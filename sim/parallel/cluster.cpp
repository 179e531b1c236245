#include "sim/parallel/cluster.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>

#if BANKCHECK_HAVE_MPI
#include <mpi.h>
#endif

namespace bankcheck {

Shard shard_of(std::size_t items, int rank, int size) {
  if (size < 1 || rank < 0 || rank >= size)
    throw std::invalid_argument("shard_of: rank must be in 0.." + std::to_string(size - 1));
  const auto r = static_cast<std::size_t>(rank), n = static_cast<std::size_t>(size);
  const std::size_t base = items / n, extra = items % n;
  const std::size_t begin = r * base + std::min(r, extra);
  return {begin, begin + base + (r < extra ? 1 : 0)};
}

Cluster& Cluster::instance() {
  static Cluster cluster;
  return cluster;
}

bool Cluster::mpi_available() { return BANKCHECK_HAVE_MPI != 0; }

namespace {

/// A launcher's environment: OpenMPI's mpirun, PMIx (OpenMPI 5, Slurm) or Slurm's srun.
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"})
    if (std::getenv(v)) return true;
  return false;
}

}  // namespace

#if BANKCHECK_HAVE_MPI

ClusterSession::ClusterSession(int& argc, char**& argv) {
  if (!launched_by_mpi()) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  started_ = true;
  // A rank's failure reaches rank 0 through gather(); a crash aborts the job.
  MPI_Comm_rank(MPI_COMM_WORLD, &Cluster::instance().rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &Cluster::instance().size_);
}

ClusterSession::~ClusterSession() {
  if (started_) MPI_Finalize();
}

std::vector<ShardOutcome> Cluster::gather(const ShardOutcome& mine) const {
  if (size_ == 1) return {mine};
  // Each rank sends a status byte followed by its payload.
  std::string message(1, mine.ok ? '1' : '0');
  message += mine.payload;
  if (message.size() > static_cast<std::size_t>(INT32_MAX))
    throw std::length_error("a rank's result exceeds 2 GiB: too large to gather");
  const int length = static_cast<int>(message.size());
  std::vector<int> lengths(root() ? size_ : 0), offsets(root() ? size_ : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (root()) {
    std::int64_t total = 0;
    for (int r = 0; r < size_; ++r) {
      offsets[r] = static_cast<int>(total);
      total += lengths[r];
      if (total > INT32_MAX) throw std::length_error("the ranks' results exceed 2 GiB together: too large to gather");
    }
    all.resize(static_cast<std::size_t>(total));
  }
  MPI_Gatherv(message.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
              MPI_COMM_WORLD);
  std::vector<ShardOutcome> out;
  for (int r = 0; root() && r < size_; ++r) {
    const std::string one = all.substr(offsets[r], lengths[r]);
    out.push_back({one[0] == '1', one.substr(1)});
  }
  return out;
}

std::string Cluster::broadcast(const std::string& text) const {
  if (size_ == 1) return text;
  std::uint64_t length = text.size();
  MPI_Bcast(&length, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  std::string out = root() ? text : std::string(length, '\0');
  MPI_Bcast(out.data(), static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD);
  return out;
}

#else

ClusterSession::ClusterSession(int&, char**&) {
  if (launched_by_mpi() && std::getenv("BANKCHECK_IGNORE_MPI") == nullptr)
    throw std::runtime_error(
        "bankcheck was started by an MPI launcher but built without MPI: every rank would do the whole run. "
        "Install OpenMPI (openmpi-bin, libopenmpi-dev) and rebuild, or run without mpirun");
}

ClusterSession::~ClusterSession() = default;

std::vector<ShardOutcome> Cluster::gather(const ShardOutcome& mine) const { return {mine}; }
std::string Cluster::broadcast(const std::string& text) const { return text; }

#endif

std::string Cluster::reduce(const ShardOutcome& mine,
                            const std::function<std::string(const std::vector<std::string>&)>& merge) const {
  const std::vector<ShardOutcome> all = gather(mine);
  std::string merged;  // "1" and the result, or "0" and the error
  if (root()) {
    try {
      std::vector<std::string> payloads;
      for (std::size_t r = 0; r < all.size(); ++r) {
        if (!all[r].ok)
          throw std::runtime_error(all[r].payload + (all.size() > 1 ? " (rank " + std::to_string(r) + ")" : ""));
        payloads.push_back(all[r].payload);
      }
      merged = merge(payloads);
      merged.insert(merged.begin(), '1');
    } catch (const std::exception& e) {
      merged = e.what();
      merged.insert(merged.begin(), '0');
    }
  }
  merged = broadcast(merged);
  if (merged.empty() || merged[0] != '1')
    throw std::runtime_error(merged.substr(merged.empty() ? 0 : 1) +
                             (size_ > 1 ? "; no result: the run failed" : ""));
  return merged.substr(1);
}

}  // namespace bankcheck
