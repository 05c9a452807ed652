// The v2 library's one door into the profiler core, in neutral types (core_events.hpp).
//
// The core is reached through a table of its functions looked up in the core's own object
// (dlsym on its handle), never through the linker: several v2 functions carry the same names
// as core functions (rocprofiler_create_buffer, rocprofiler_get_timestamp, ...), and a call
// from inside this library by such a name would bind to the v2 function.
//
// The library is a tool of the core (it exports rocprofiler_configure, found by the core's
// scan of loaded objects or handed over by rocprofiler_force_configure). While the core
// initialises, it sets up once: a tracing context (buffer tracing of the kinds below into one
// core buffer with its own delivery thread), a code-object context (always started) and a
// synchronous API context (callback tracing, for rocprofiler_set_api_trace_sync_callback).
// Sessions then only start and stop those contexts.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core_events.hpp"

namespace rocprof::v2::core_port {

/// Makes sure the core is initialised with this library among its tools. False when the core
/// was initialised before this library was loaded (then nothing can be traced; the reason
/// has been printed once).
bool connect();

/// True once this library's contexts exist in the core.
bool tracing_available();

/// Start/stop the tracing context (buffer records) and the synchronous API context.
bool start_tracing();
void stop_tracing();
bool start_sync_api();
void stop_sync_api();

/// Delivers what the core holds for the tracing context (synchronous), unless called from
/// the core's own delivery thread.
void flush();

/// Nanoseconds on the core's clock (CLOCK_BOOTTIME).
uint64_t timestamp();

/// The core's agents (GPUs register when a backend loads).
std::vector<core_agent> agents();

/// The name of an operation of an event class (static), or nullptr.
const char* operation_name(event_class what, uint32_t operation);
/// The operation of a name, by searching the class's operations; false when unknown.
bool operation_id(event_class what, const char* name, uint32_t* operation);

/// Device-wide counters of one GPU from the core's device counting service (for the device
/// profiling sessions; core_device_source.cpp): start, read what each counter accumulated since
/// the start (summed over its dimension instances, in the order of the names), stop. One
/// counter counts on a GPU at a time (start fails while another is started there).
class device_counter {
 public:
  virtual ~device_counter() = default;
  virtual bool start() = 0;
  virtual bool read(std::vector<double>& values) = 0;
  virtual void stop() = 0;
};
enum class device_counter_error {
  no_service,       // no GPU offers device counting, or the core was initialised before this
                    // library (nothing could be configured)
  no_gpu,           // no GPU agent of that index
  unknown_counter,  // a name the GPU does not know
  not_countable,    // the GPU cannot count these counters together
};
/// The counters `names` on GPU `gpu_index` (the index among the core's GPU agents), or nullptr
/// with the error and why.
std::unique_ptr<device_counter> open_device_counter(const std::vector<std::string>& names,
                                                    int gpu_index, device_counter_error& error,
                                                    std::string& why);

// ---- implemented by the v2 side, called by the port on the core's threads ----

/// Records delivered by the core's buffer (on its delivery thread).
void on_core_events(const core_event* events, size_t count);
/// Synchronous API call boundaries (on the calling thread; enter: true at ENTER).
void on_sync_event(const core_event& event, bool enter);
void on_code_object_load(const core_code_object& object);
void on_code_object_unload(uint64_t id, uint64_t timestamp);
void on_kernel_symbol(const core_kernel_symbol& symbol);

}  // namespace rocprof::v2::core_port
