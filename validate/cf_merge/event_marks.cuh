#pragma once
// cf_sort_table --profile's marks for the dispatch (kernels/cf_merge_sort.cuh calls
// marks(stage, pass) after each launch): a CUDA event after every launch, so
// the time between two events is one launch's kernel plus its launch gap.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "kernels/cf_sort_bench_common.cuh"

namespace {

/// The dispatch's marks: an event recorded on the default stream after each launch.
class EventMarks {
 public:
  EventMarks() : events_(512) {
    for (auto& e : events_) CHECK_CUDA(cudaEventCreate(&e));
  }
  ~EventMarks() {
    for (auto& e : events_) cudaEventDestroy(e);
  }
  EventMarks(const EventMarks&) = delete;
  EventMarks& operator=(const EventMarks&) = delete;
  /// Before a sort: the start event.
  void start() {
    labels_.clear();
    CHECK_CUDA(cudaEventRecord(events_[0], 0));
  }
  void operator()(const char* stage, int pass) {
    if (labels_.size() + 1 >= events_.size()) {
      std::fprintf(stderr, "EventMarks: more than %zu launches\n", events_.size() - 1);
      std::exit(1);
    }
    labels_.push_back(pass < 0 ? std::string(stage) : std::string(stage) + ", pass " + std::to_string(pass));
    CHECK_CUDA(cudaEventRecord(events_[labels_.size()], 0));
  }
  /// After a sort (synchronized): each stage's ms, in launch order.
  std::vector<std::pair<std::string, float>> stages() const {
    std::vector<std::pair<std::string, float>> out;
    for (std::size_t i = 0; i < labels_.size(); ++i) {
      float ms = 0;
      CHECK_CUDA(cudaEventElapsedTime(&ms, events_[i], events_[i + 1]));
      out.push_back({labels_[i], ms});
    }
    return out;
  }

 private:
  std::vector<cudaEvent_t> events_;
  std::vector<std::string> labels_;
};

}  // namespace
