// The one clock of every record: CLOCK_BOOTTIME in nanoseconds (a vDSO call, no system call).
#pragma once

#include <time.h>

#include <cstdint>

namespace rocprof::core {

inline uint64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace rocprof::core
