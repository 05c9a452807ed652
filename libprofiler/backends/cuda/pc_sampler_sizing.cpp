// How big CUPTI's PC sampling buffers are and how often they are read, per sampling interval,
// and the environment's overrides (for measuring on a GPU without rebuilding).
//
// The numbers (H100 probes, notes in docs/gpu-verification.md):
// - A fully busy H100 (132 SMs) produced 63.7 M samples per second at 2^12 cycles: the rate
//   doubles with each halving of the interval.
// - With CUPTI's defaults (512 MiB hardware buffer, 1 MiB scratch buffer) and its decode
//   threads waking every 10 ms, 1-second kernels at 2^12 overflowed the hardware buffer in one
//   run of three, and at 2^11 every time; a 5-second run at 2^12 in the product overflowed
//   (GetData answered OUT_OF_MEMORY, and CUPTI returned no sample after it). The decode keeps up
//   only when it wakes often: the hardware buffer is emptied by CUPTI's worker threads, which
//   sleep `worker_sleep_ms` between rounds, not by our GetData.
// So: the worker wakes every 1 ms (a round on an idle GPU costs microseconds), our GetData runs
// every 5 ms, and the hardware buffer is twice CUPTI's default at 2^12 cycles and below (1 GiB
// of the H100's 80), halved per doubling of the interval down to that default: headroom for
// the bursts in which the workers fall behind, not more device memory than needed taken from
// the application. If CUPTI refuses a size, the sampler falls back to CUPTI's defaults.
// The scratch buffer holds decoded per-PC data until GetData: ~16 bytes per PC and stall reason
// (cupti_pcsampling.h), so 4 MiB keeps ~6500 PCs with all 40 reasons, more than one GetData
// (max_pcs 10000 PC records of the few reasons a PC really has) takes at a time.
#include <cstdlib>
#include <string_view>

#include "pc_sampler.hpp"

namespace rocprof::cuda {
namespace {

constexpr size_t mib = size_t{1} << 20;

// A positive integer from the environment within [1, max]; 0 when absent or invalid.
unsigned long env_number(const char* name, unsigned long max) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return 0;
  char* end = nullptr;
  const unsigned long v = std::strtoul(text, &end, 10);
  return end != nullptr && *end == '\0' && v > 0 && v <= max ? v : 0;
}

}  // namespace

pc_sampler_settings pc_sampler_default_settings(uint64_t interval) {
  pc_sampler_settings s;
  s.interval = interval;
  size_t buffer = size_t{1024} * mib;
  for (uint64_t i = uint64_t{1} << 12; i < interval && buffer > 512 * mib; i <<= 1)
    buffer /= 2;
  s.hardware_buffer_bytes = buffer;
  return s;
}

pc_sampler_settings pc_sampler_settings_from_env(uint64_t interval) {
  pc_sampler_settings s = pc_sampler_default_settings(interval);
  if (const char* mode = std::getenv("ROCPROF_CUDA_PC_SAMPLING_MODE"))
    s.serialized = std::string_view(mode) == "serialized";
  if (const unsigned long v = env_number("ROCPROF_CUDA_PC_SAMPLING_DRAIN_MS", 9999))
    s.drain_ms = static_cast<uint32_t>(v);
  if (const unsigned long v = env_number("ROCPROF_CUDA_PC_SAMPLING_WORKER_SLEEP_MS", 9999))
    s.worker_sleep_ms = static_cast<uint32_t>(v);
  if (const unsigned long v = env_number("ROCPROF_CUDA_PC_SAMPLING_HW_BUFFER_MB", 65536))
    s.hardware_buffer_bytes = v * mib;
  if (const unsigned long v = env_number("ROCPROF_CUDA_PC_SAMPLING_SCRATCH_KB", 4 << 20))
    s.scratch_buffer_bytes = v * 1024;
  if (const char* restart = std::getenv("ROCPROF_CUDA_PC_SAMPLING_RESTART_AFTER_OVERFLOW"))
    s.restart_after_overflow = std::string_view(restart) == "1";
  return s;
}

}  // namespace rocprof::cuda
