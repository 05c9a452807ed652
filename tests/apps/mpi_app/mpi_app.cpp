// A 4-rank MPI program with ROCTx ranges per rank, for the multi-process tests
// (tests/integration/mpi): every rank pushes "rank<R>_compute_<I>" ranges of different lengths,
// and all ranks wrap the same MPI_Barrier calls in "barrier_<N>" ranges, so that after `rocpd
// merge` the barrier exits of every rank must line up.
#include <mpi.h>
#include <rocprofiler-sdk-roctx/roctx.h>

#include <chrono>
#include <string>
#include <thread>

namespace {

void busy_for(std::chrono::microseconds how_long) {
  const auto until = std::chrono::steady_clock::now() + how_long;
  while (std::chrono::steady_clock::now() < until) {
  }
}

void barrier(int n) {
  const std::string name = "barrier_" + std::to_string(n);
  roctxRangePush(name.c_str());
  MPI_Barrier(MPI_COMM_WORLD);
  roctxRangePop();
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  roctxMark(("rank" + std::to_string(rank) + "_start").c_str());
  barrier(0);
  for (int i = 0; i < 3; ++i) {
    const std::string name = "rank" + std::to_string(rank) + "_compute_" + std::to_string(i);
    roctxRangePush(name.c_str());
    // Ranks work for different times, so the barrier exits are the only common instants.
    busy_for(std::chrono::microseconds{2000 * (rank + 1)});
    roctxRangePop();
    barrier(i + 1);
  }
  MPI_Finalize();
  return 0;
}
