// Core life cycle: initialisation (finding and configuring tools), the configuration lock,
// finalisation at exit.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

namespace rocprof::core {

/// 1 while the core is initialised and not finalising: the hot path's one check.
inline std::atomic<int> g_core_ready{0};

bool ensure_initialized_slow();

/// Makes sure the core is initialised (tools found and configured). Returns false while the
/// calling thread is itself inside initialisation or after finalisation began.
inline bool ensure_initialized() {
  if (__builtin_expect(g_core_ready.load(std::memory_order_acquire) == 1, 1)) return true;
  return ensure_initialized_slow();
}
/// True only on the initialising thread while tools are being initialised.
bool configuration_open();
/// Index of the tool being initialised (for ownership of the contexts it creates).
uint32_t current_tool();
/// The client name of the tool being initialised ("" when none or unnamed).
const char* current_tool_name();
/// Serialises configuration changes (create, start/stop, backend loading).
std::recursive_mutex& config_mutex();
/// True once finalisation started: nothing blocks waiting for delivery any more.
bool finalizing();

}  // namespace rocprof::core
