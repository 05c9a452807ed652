#include "rocprof/common/mpi_rank.hpp"

#include <time.h>

#include <cstdlib>

namespace rocprof::common {
namespace {

std::optional<int64_t> non_negative(const char* text) {
  if (text == nullptr || *text == '\0') return std::nullopt;
  char* end = nullptr;
  const long long v = std::strtoll(text, &end, 10);
  if (*end != '\0' || v < 0) return std::nullopt;
  return static_cast<int64_t>(v);
}

int64_t read_ns(clockid_t clock) {
  timespec ts{};
  ::clock_gettime(clock, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

}  // namespace

const std::vector<std::pair<const char*, const char*>>& mpi_rank_variables() {
  static const std::vector<std::pair<const char*, const char*>> pairs = {
      {"PBS_NODENUM", "PBS_O_TASKNUM"},
      {"SLURM_PROCID", "SLURM_NTASKS"},
      {"PMI_RANK", "PMI_SIZE"},
      {"MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_SIZE"},
      {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
      {"MPI_RANKID", "MPI_NRANKS"},
      {"MPI_LOCALRANKID", "MPI_LOCALNRANKS"},
      {"MPI_RANK", "MPI_SIZE"},
  };
  return pairs;
}

std::optional<mpi_identity> detect_mpi_rank(const env_lookup_fn& lookup,
                                            const std::string& rank_variable,
                                            const std::string& size_variable) {
  const auto identity = [&](const std::string& rank_var,
                            const std::string& size_var) -> std::optional<mpi_identity> {
    const auto rank = non_negative(lookup(rank_var.c_str()));
    if (!rank) return std::nullopt;
    mpi_identity id;
    id.rank = *rank;
    id.size = non_negative(lookup(size_var.c_str())).value_or(0);
    id.rank_variable = rank_var;
    id.size_variable = size_var;
    return id;
  };
  if (!rank_variable.empty()) return identity(rank_variable, size_variable);
  for (const auto& [rank_var, size_var] : mpi_rank_variables()) {
    if (const char* v = lookup(rank_var); v == nullptr || *v == '\0') continue;
    return identity(rank_var, size_var);
  }
  return std::nullopt;
}

bool parse_rank_ranges(const std::string& spec, std::vector<std::pair<int64_t, int64_t>>* ranges,
                       std::string* error) {
  ranges->clear();
  size_t pos = 0;
  const auto bad = [&](const std::string& why) {
    *error = "invalid rank list '" + spec + "': " + why;
    return false;
  };
  while (pos <= spec.size()) {
    size_t comma = spec.find(',', pos);
    if (comma == std::string::npos) comma = spec.size();
    const std::string item = spec.substr(pos, comma - pos);
    if (item.empty()) return bad("empty item");
    const size_t dash = item.find('-');
    const auto lo = non_negative(item.substr(0, dash).c_str());
    const auto hi = dash == std::string::npos ? lo : non_negative(item.substr(dash + 1).c_str());
    if (!lo || !hi) return bad("'" + item + "' is not N or N-M");
    if (*hi < *lo) return bad("'" + item + "' ends before it starts");
    ranges->emplace_back(*lo, *hi);
    pos = comma + 1;
  }
  return true;
}

bool rank_in(const std::vector<std::pair<int64_t, int64_t>>& ranges, int64_t rank) {
  for (const auto& [lo, hi] : ranges)
    if (rank >= lo && rank <= hi) return true;
  return false;
}

int64_t realtime_minus_boottime_ns() {
  int64_t best_gap = INT64_MAX, offset = 0;
  for (int i = 0; i < 5; ++i) {
    const int64_t before = read_ns(CLOCK_BOOTTIME);
    const int64_t real = read_ns(CLOCK_REALTIME);
    const int64_t after = read_ns(CLOCK_BOOTTIME);
    if (after - before < best_gap) {
      best_gap = after - before;
      offset = real - (before + (after - before) / 2);
    }
  }
  return offset;
}

}  // namespace rocprof::common
