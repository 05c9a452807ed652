// The core side of the v2 library (core_port*.cpp and core_records.cpp are the only files
// that include rocprofiler-sdk/ headers): the table of the core's functions and the conversion
// of the core's buffer records into neutral events.
#pragma once

#include "core_events.hpp"
#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/buffer.h"
#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "rocprofiler-sdk/context.h"
#include "rocprofiler-sdk/counter_config.h"
#include "rocprofiler-sdk/counters.h"
#include "rocprofiler-sdk/device_counting_service.h"
#include "rocprofiler-sdk/internal_threading.h"
#include "rocprofiler-sdk/registration.h"
#include "rocprofiler-sdk/rocprofiler.h"

namespace rocprof::v2::core_port {

// Every core function the library calls, looked up in the core's object (core_port.hpp).
#define ROCPROF_V2_CORE_FUNCTIONS(X)                      \
  X(rocprofiler_force_configure)                          \
  X(rocprofiler_is_initialized)                           \
  X(rocprofiler_create_context)                           \
  X(rocprofiler_start_context)                            \
  X(rocprofiler_stop_context)                             \
  X(rocprofiler_create_buffer)                            \
  X(rocprofiler_flush_buffer)                             \
  X(rocprofiler_create_callback_thread)                   \
  X(rocprofiler_assign_callback_thread)                   \
  X(rocprofiler_configure_buffer_tracing_service)         \
  X(rocprofiler_configure_callback_tracing_service)       \
  X(rocprofiler_query_buffer_tracing_kind_operation_name) \
  X(rocprofiler_iterate_buffer_tracing_kind_operations)   \
  X(rocprofiler_query_available_agents)                   \
  X(rocprofiler_get_timestamp)                            \
  X(rocprofiler_configure_device_counting_service)        \
  X(rocprofiler_sample_device_counting_service)           \
  X(rocprofiler_iterate_agent_supported_counters)         \
  X(rocprofiler_query_counter_info)                       \
  X(rocprofiler_query_record_counter_id)                  \
  X(rocprofiler_create_counter_config)

struct core_table {
#define ROCPROF_V2_MEMBER(name) decltype(&::name) name = nullptr;
  ROCPROF_V2_CORE_FUNCTIONS(ROCPROF_V2_MEMBER)
#undef ROCPROF_V2_MEMBER
  bool complete = false;
};

/// The core's functions, looked up once in the core's own object (core_port.hpp says why).
const core_table& core();

/// During the core's initialisation (initialize_tool): one device counting context per GPU
/// agent, for the device profiling sessions (core_device_source.cpp).
void configure_device_counting();

/// The core's static name of an operation of a buffer-tracing kind, or nullptr.
const char* kind_operation_name(rocprofiler_buffer_tracing_kind_t kind, int32_t operation);

/// One core buffer record as a neutral event; false for kinds the v2 library does not map.
/// Runs on the core's delivery threads (keeps a per-thread cache of operation names).
bool convert_record(const rocprofiler_record_header_t& header, core_event& event);

}  // namespace rocprof::v2::core_port
