// MPI rank of this process from its launcher's variables, and rocprofv3's rank selection
// (`--profile-mpi-ranks 0-3,8`). Shared by the CLI (which ranks run profiled, %rank%) and the
// tool library (which rank a database belongs to).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rocprof::common {

struct mpi_identity {
  int64_t rank = -1, size = 0;
  std::string rank_variable, size_variable;  // the variables it was read from
};

// (rank, size) variable pairs in the order rocprofv3 checks them (its newer driver: PBS, Slurm,
// PMI (MPICH, Intel MPI), MVAPICH, Open MPI, then the generic names); the first pair whose rank
// variable is set wins.
const std::vector<std::pair<const char*, const char*>>& mpi_rank_variables();

using env_lookup_fn = std::function<const char*(const char*)>;

// The identity from `rank_variable`/`size_variable` when given (--mpi-world-rank-variable), else
// from the first pair of mpi_rank_variables() that is set. nullopt when none is (not an MPI
// rank) or the rank is not a non-negative integer.
std::optional<mpi_identity> detect_mpi_rank(const env_lookup_fn& lookup,
                                            const std::string& rank_variable = {},
                                            const std::string& size_variable = {});

// "0-3,8,10-15" as inclusive ranges. False (with *error) for an empty or malformed spec.
bool parse_rank_ranges(const std::string& spec, std::vector<std::pair<int64_t, int64_t>>* ranges,
                       std::string* error);
bool rank_in(const std::vector<std::pair<int64_t, int64_t>>& ranges, int64_t rank);

// CLOCK_REALTIME - CLOCK_BOOTTIME in ns, from the closest of a few bracketing reads (the error
// is at most half the gap between the two CLOCK_BOOTTIME reads, well under a microsecond).
int64_t realtime_minus_boottime_ns();

}  // namespace rocprof::common
