// How big CUPTI's PC sampling buffers are and how often they are read, per sampling interval
// and GPU, and the environment's overrides (for measuring on a GPU without rebuilding).
//
// The numbers (H100 probes and runs, docs/gpu-verification.md):
// - The hardware takes one sample per SM per interval: a fully busy H100 (132 SMs at 1.98 GHz)
//   produced 63.7 M samples per second at 2^12 cycles (132 x 1.98e9 / 4096 = 63.8 M).
// - The hardware buffer is emptied by CUPTI's decode threads (woken every worker_sleep_ms), not
//   by our GetData, and once it overflows CUPTI returns nothing more for the range. With
//   CUPTI's 512 MiB, 1-second kernels at 2^12 overflowed one run in three; with 1 GiB, a
//   5-second run at 2^12 still had 212 GetData calls answered "hardware buffer full": the decode
//   falls behind a fully busy GPU for long stretches, so the buffer must hold seconds of
//   samples, not milliseconds.
// So the hardware buffer holds k_buffered_seconds of the GPU's full sampling rate at
// k_bytes_per_sample (an assumption: the hardware record's size is not documented; 32 bytes is
// a PC, a warp id, a reason and a timestamp), rounded up to a power of two, at least CUPTI's
// 512 MiB, at most 4 GiB and 1/16 of the device memory. On the H100: 4 GiB at 2^12 and below,
// 2 GiB at 2^13, 1 GiB at 2^14, 512 MiB from 2^15. The decode threads wake every 1 ms (a
// round on an idle GPU costs microseconds); GetData runs every 2 ms at rates above 16 M
// samples per second (it frees the scratch buffer the decode threads write into) and every
// 5 ms below. The scratch buffer holds decoded per-PC data until GetData: ~16 bytes per PC and
// stall reason (cupti_pcsampling.h), so 4 MiB keeps ~6500 PCs with all 40 reasons, more than
// one GetData (max_pcs 10000 PC records of the few reasons a PC really has) takes at a time.
// If CUPTI refuses a size, the sampler falls back to CUPTI's defaults.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "callback_guard.hpp"
#include "device_info.hpp"
#include "pc_sampler.hpp"

namespace rocprof::cuda {
namespace {

constexpr size_t mib = size_t{1} << 20;
constexpr double k_bytes_per_sample = 32;
constexpr double k_buffered_seconds = 2;
constexpr size_t k_min_hardware_buffer = 512 * mib;  // CUPTI's default
constexpr size_t k_max_hardware_buffer = 4096 * mib;
constexpr double k_fast_drain_rate = 16e6;  // samples per second

// A positive integer from the environment within [1, max]; 0 when absent or invalid.
unsigned long env_number(const char* name, unsigned long max) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return 0;
  char* end = nullptr;
  const unsigned long v = std::strtoul(text, &end, 10);
  return end != nullptr && *end == '\0' && v > 0 && v <= max ? v : 0;
}

size_t hardware_buffer_for(const pc_sampling_gpu& gpu, uint64_t interval) {
  const double wanted =
      pc_samples_per_second(gpu, interval) * k_bytes_per_sample * k_buffered_seconds;
  size_t ceiling = k_max_hardware_buffer;
  if (gpu.memory_bytes > 0)
    ceiling =
        std::min<size_t>(ceiling, std::max<size_t>(gpu.memory_bytes / 16, k_min_hardware_buffer));
  size_t bytes = k_min_hardware_buffer;
  while (bytes < ceiling && static_cast<double>(bytes) < wanted)
    bytes *= 2;
  return std::min(bytes, ceiling);
}

}  // namespace

double pc_samples_per_second(const pc_sampling_gpu& gpu, uint64_t interval) {
  if (interval == 0) return 0;
  return static_cast<double>(gpu.sm_count) * gpu.clock_khz * 1e3 / static_cast<double>(interval);
}

pc_sampler_settings pc_sampler_default_settings(uint64_t interval, const pc_sampling_gpu& gpu) {
  pc_sampler_settings s;
  s.interval = interval;
  s.hardware_buffer_bytes = hardware_buffer_for(gpu, interval);
  s.drain_ms = pc_samples_per_second(gpu, interval) >= k_fast_drain_rate ? 2 : 5;
  return s;
}

pc_sampler_settings pc_sampler_sized_for(const pc_sampler_settings& base,
                                         const pc_sampling_gpu& gpu) {
  pc_sampler_settings s = base;
  if (!s.buffer_size_from_env) s.hardware_buffer_bytes = hardware_buffer_for(gpu, s.interval);
  return s;
}

pc_sampling_gpu largest_sampled_gpu() {
  pc_sampling_gpu best;
  const device_query q = [] {
    backend_call_scope scope;  // our own driver calls are not the application's
    return query_devices();
  }();
  double best_rate = -1;
  for (const gpu_agent& a : q.devices) {
    pc_sampling_gpu g;
    g.sm_count = a.sm_count;
    g.clock_khz = a.clock_khz;
    g.memory_bytes = a.total_memory;
    if (g.sm_count == 0 || g.clock_khz == 0) continue;
    const double rate = pc_samples_per_second(g, 1);
    if (rate > best_rate) {
      best = g;
      best_rate = rate;
    }
  }
  return best;
}

std::string describe_sizing(const pc_sampler_settings& s, const pc_sampling_gpu& gpu) {
  char line[320];
  std::snprintf(line, sizeof(line),
                "PC sampling every %llu cycles on %u SMs at %u MHz: up to %.1f M samples/s; "
                "hardware buffer %zu MiB%s, scratch buffer %zu KiB, CUPTI decode every %u ms, "
                "GetData every %u ms",
                static_cast<unsigned long long>(s.interval), gpu.sm_count, gpu.clock_khz / 1000,
                pc_samples_per_second(gpu, s.interval) / 1e6, s.hardware_buffer_bytes / mib,
                s.buffer_size_from_env ? " (environment)" : "", s.scratch_buffer_bytes / 1024,
                s.worker_sleep_ms, s.drain_ms);
  return line;
}

pc_sampler_settings pc_sampler_settings_from_env(uint64_t interval) {
  pc_sampler_settings s = pc_sampler_default_settings(interval);
  if (const char* mode = std::getenv("ROCPROF_CUDA_PC_SAMPLING_MODE"))
    s.serialized = std::string_view(mode) == "serialized";
  if (const unsigned long v = env_number("ROCPROF_CUDA_PC_SAMPLING_DRAIN_MS", 9999))
    s.drain_ms = static_cast<uint32_t>(v);
  if (const unsigned long v = env_number("ROCPROF_CUDA_PC_SAMPLING_WORKER_SLEEP_MS", 9999))
    s.worker_sleep_ms = static_cast<uint32_t>(v);
  if (const unsigned long v = env_number("ROCPROF_CUDA_PC_SAMPLING_HW_BUFFER_MB", 65536)) {
    s.hardware_buffer_bytes = v * mib;
    s.buffer_size_from_env = true;
  }
  if (const unsigned long v = env_number("ROCPROF_CUDA_PC_SAMPLING_SCRATCH_KB", 4 << 20))
    s.scratch_buffer_bytes = v * 1024;
  if (const char* restart = std::getenv("ROCPROF_CUDA_PC_SAMPLING_RESTART_AFTER_OVERFLOW"))
    s.restart_after_overflow = std::string_view(restart) == "1";
  return s;
}

}  // namespace rocprof::cuda
