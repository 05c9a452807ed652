#include "mpi_ranks.hpp"

#include "rocprof/common/mpi_rank.hpp"

namespace rocprof::cli {

mpi_selection select_mpi_rank(const job& cli, const environment& base) {
  const std::string rank_var = cli.text("mpi_world_rank_variable").value_or("");
  const std::string size_var = cli.text("mpi_world_size_variable").value_or("");
  if (rank_var.empty() != size_var.empty())
    throw usage_error(
        "--mpi-world-rank-variable and --mpi-world-size-variable must be given together");
  std::string spec = cli.text("profile_mpi_ranks").value_or("");
  if (spec.empty()) spec = environment_value(base, "ROCPROF_MPI_RANKS");
  std::vector<std::pair<int64_t, int64_t>> ranges;
  std::string error;
  if (!spec.empty() && !common::parse_rank_ranges(spec, &ranges, &error))
    throw usage_error("--profile-mpi-ranks: " + error);

  const auto lookup = [&base](const char* name) -> const char* {
    const auto it = base.find(name);
    return it != base.end() ? it->second.c_str() : nullptr;
  };
  mpi_selection out;
  const auto identity = common::detect_mpi_rank(lookup, rank_var, size_var);
  if (!identity) {
    if (!rank_var.empty())
      throw usage_error("--mpi-world-rank-variable: " + rank_var +
                        " is not set to a rank (a non-negative integer)");
    return out;  // not an MPI rank: profiled, whatever the selection
  }
  out.exports["ROCPROF_MPI_RANK_VAR"] = identity->rank_variable;
  out.exports["ROCPROF_MPI_SIZE_VAR"] = identity->size_variable;
  out.profiled = spec.empty() || common::rank_in(ranges, identity->rank);
  return out;
}

}  // namespace rocprof::cli
