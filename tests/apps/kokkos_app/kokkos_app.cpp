// Kokkos sample (Debian's Kokkos 3.7 is built with the Serial backend only) for --kokkos-trace.
// Usage: kokkos_app <iterations> Per iteration: parallel_for "axpy", parallel_reduce "dot",
// parallel_scan "prefix", all inside a profile region "iteration"; then once: a profile section
// "section-a" started and stopped, an event "checkpoint", and a global fence.
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 3;
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000;
    Kokkos::View<double*> x("x", n), y("y", n);
    double total = 0.0;
    for (int it = 0; it < iterations; ++it) {
      Kokkos::Profiling::pushRegion("iteration");
      Kokkos::parallel_for(
          "axpy", n, KOKKOS_LAMBDA(const int i) {
            x(i) = 1.0;
            y(i) = 2.0 * x(i) + y(i);
          });
      double dot = 0.0;
      Kokkos::parallel_reduce(
          "dot", n, KOKKOS_LAMBDA(const int i, double& sum) { sum += x(i) * y(i); }, dot);
      total += dot;
      Kokkos::parallel_scan(
          "prefix", n, KOKKOS_LAMBDA(const int i, double& partial, const bool final) {
            partial += x(i);
            if (final) y(i) = partial;
          });
      Kokkos::Profiling::popRegion();
    }
    uint32_t section = 0;
    Kokkos::Profiling::createProfileSection("section-a", &section);
    Kokkos::Profiling::startSection(section);
    Kokkos::Profiling::stopSection(section);
    Kokkos::Profiling::destroyProfileSection(section);
    Kokkos::Profiling::markEvent("checkpoint");
    Kokkos::fence();
    std::printf("kokkos_app: total %.1f\n", total);
  }
  Kokkos::finalize();
  return 0;
}
