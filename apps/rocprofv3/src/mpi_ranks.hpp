// MPI rank selection (rocprofv3's newer driver, facts §1.9): which rank this rocprofv3 runs
// in, whether `--profile-mpi-ranks` (or $ROCPROF_MPI_RANKS) selects it, and the variables the
// tool then reads the rank from.
#pragma once

#include "environment.hpp"
#include "job.hpp"

namespace rocprof::cli {

struct mpi_selection {
  bool profiled = true;  // false: run the application without the profiler
  environment exports;   // ROCPROF_MPI_RANK_VAR / ROCPROF_MPI_SIZE_VAR when a rank was found
};

// Throws usage_error for a malformed rank list, or one of the two variable options without
// the other.
mpi_selection select_mpi_rank(const job& cli, const environment& base);

}  // namespace rocprof::cli
