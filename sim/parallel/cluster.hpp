#pragma once
// The processes of one bankcheck run: a single process, or the ranks of an
// MPI job (OpenMPI from Debian, found by CMake; optional at build time) when
// bankcheck is started by mpirun or srun. Commands split their work with
// shard_of(), each rank computes its shard, and gather() brings every
// rank's outcome to rank 0 in rank order, which merges them exactly as the
// single-process run would and alone prints. A rank that fails sends its
// error instead of a result, so rank 0 can end the run with that message:
// a partial result is never presented as complete.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace bankcheck {

/// One rank's outcome: its serialized result, or why it failed.
struct ShardOutcome {
  bool ok = true;
  std::string payload;  ///< the result (ok) or the error message (!ok)
};

/// Items [begin, end) of a contiguous split of `items` over `size` parts.
struct Shard {
  std::size_t begin = 0, end = 0;
  std::size_t size() const { return end - begin; }
};

/// Part `rank` of `size` near-equal contiguous parts; the first `items % size` parts get one more.
/// @pre 0 <= rank < size.
Shard shard_of(std::size_t items, int rank, int size);

class Cluster {
 public:
  /// The run's processes (a single process until ClusterSession starts MPI).
  static Cluster& instance();
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }
  /// Rank 0 receives every rank's outcome in rank order; other ranks receive an empty vector.
  std::vector<ShardOutcome> gather(const ShardOutcome& mine) const;
  /// Rank 0's `text` on every rank (small control data such as a chosen seed).
  std::string broadcast(const std::string& text) const;
  /// Every rank's `mine`, merged on rank 0 by `merge` (the payloads in rank
  /// order), returned on every rank, so all ranks go on with the same result.
  /// @throws std::runtime_error on every rank when a rank failed (its message
  ///         and rank) or `merge` threw: no rank goes on with a partial result.
  std::string reduce(const ShardOutcome& mine,
                     const std::function<std::string(const std::vector<std::string>&)>& merge) const;
  /// Whether this build can run as an MPI job.
  static bool mpi_available();

 private:
  friend class ClusterSession;
  int rank_ = 0, size_ = 1;
};

/// Starts MPI for the duration of main when bankcheck was launched by an MPI
/// launcher (the launcher's environment says so) and this build has MPI;
/// otherwise does nothing. Finalizes on destruction.
class ClusterSession {
 public:
  ClusterSession(int& argc, char**& argv);
  ~ClusterSession();
  ClusterSession(const ClusterSession&) = delete;
  ClusterSession& operator=(const ClusterSession&) = delete;

 private:
  bool started_ = false;
};

}  // namespace bankcheck
