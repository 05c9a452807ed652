// The counted dispatches of one CUDA context whose ranges are still inside the running range
// profiler (batched collection, launch_counting.hpp). AutoRange gives every kernel the context
// runs a range, numbered in the order the driver got the launches; counted launches of a
// context are serialised (the range session's mutex is held from a launch's ENTER to its EXIT)
// and the profiler is stopped before any other work that could take a range (an unselected
// launch, a copy or memset, a graph, a capture), so the i-th new range of a Stop belongs to
// the i-th dispatch here. The counts are checked: a Stop whose ranges do not match the batch
// one for one gives no values to any of its dispatches rather than values of another kernel.
//
// Pure bookkeeping, no CUDA call: unit-tested with synthetic batches.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "counters/graph_counting.hpp"

namespace rocprof::cuda {

class dispatch_batch {
 public:
  // A counted launch about to be made.
  void push(const rocprof_counted_dispatch_t& counted, uint64_t start_ns);
  // The last pushed launch returned: `launched` false when the driver refused it (no kernel
  // ran, so no range): it is finished without values.
  void returned(bool launched, uint64_t end_ns, std::vector<finished_dispatch>& ready);

  size_t size() const { return pending_.size(); }
  bool empty() const { return pending_.empty(); }

  // The ranges of the Stop that ended the batch (`ok` false: Stop or decode failed): each
  // pending dispatch finished with its range's values, in launch order. The batch is empty
  // afterwards. `why` says what went wrong when values were withheld.
  void resolve(bool ok, std::vector<std::vector<double>> ranges,
               std::vector<finished_dispatch>& ready, std::string& why);

 private:
  struct pending {
    rocprof_counted_dispatch_t counted{};
    uint64_t start_ns = 0, end_ns = 0;
  };
  std::vector<pending> pending_;
};

}  // namespace rocprof::cuda
