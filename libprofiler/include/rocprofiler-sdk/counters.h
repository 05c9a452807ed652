// Hardware counters: which counters an agent offers, what each one is, and how to read the
// instance ids of counter records. Names, types and semantics follow rocprofiler-sdk.
//
// Counters of an agent are its backend's native counters (NVIDIA: every metric name with its
// roll-up and sub-metric, e.g. "smsp__warps_launched.sum", plus agent constants such as
// "simd_count") and the derived counters of the counter definitions (the shipped
// counter_defs.yaml and what rocprofiler_load_counter_definition / rocprofiler_create_counter
// added) whose expression resolves on that agent (e.g. "SQ_WAVES").
//
// Counter ids are one per name for the whole process: the same name has the same id on every
// agent. A counter without a hardware dimension (every CUDA range-profiler metric) reports one
// dimension, "DIMENSION_INSTANCE" of size 1, as rocprofv3 lists it.
//
// Every function here may be called at any time after the core initialised (also from a
// dispatch callback), from any thread. Strings and arrays they return belong to the core and
// stay valid until process exit.
#pragma once

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/deprecated/counters.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/// What a counter is (rocprofiler_query_counter_info, ROCPROFILER_COUNTER_INFO_VERSION_0).
/// (rocprofiler-sdk declares the two flags as uint8_t bit-fields, which ISO C does not allow;
/// unsigned int bit-fields give the same offsets and bits.)
typedef struct rocprofiler_counter_info_v0_t {
  rocprofiler_counter_id_t id;
  const char* name;
  const char* description;
  const char* block;         ///< hardware unit of a native counter ("" for derived counters)
  const char* expression;    ///< expression of a derived counter ("" for native counters)
  uint32_t is_constant : 1;  ///< an agent property (no collection needed)
  uint32_t is_derived : 1;   ///< defined by an expression
} rocprofiler_counter_info_v0_t;

/// One dimension of one counter instance: the dimension's name and the instance's position in
/// it.
typedef struct rocprofiler_counter_dimension_info_t {
  uint64_t size;  ///< sizeof(rocprofiler_counter_dimension_info_t)
  const char* dimension_name;
  size_t index;  ///< zero-based position
} rocprofiler_counter_dimension_info_t;

/// One possible instance of a counter: its instance id and its position in every dimension.
typedef struct rocprofiler_counter_record_dimension_instance_info_t {
  uint64_t size;  ///< sizeof(rocprofiler_counter_record_dimension_instance_info_t)
  rocprofiler_counter_instance_id_t instance_id;  ///< as counter records carry it
  uint64_t counter_id;
  uint64_t dimensions_count;
  const rocprofiler_counter_dimension_info_t** dimensions;  ///< dimensions_count entries
} rocprofiler_counter_record_dimension_instance_info_t;

/// Version 0 plus the counter's dimensions and every instance it can report
/// (ROCPROFILER_COUNTER_INFO_VERSION_1).
typedef struct rocprofiler_counter_info_v1_t {
  uint64_t size;  ///< set by the core: sizeof(rocprofiler_counter_info_v1_t)
  rocprofiler_counter_id_t id;
  const char* name;
  const char* description;
  const char* block;
  const char* expression;
  uint32_t is_constant : 1;
  uint32_t is_derived : 1;
  uint64_t dimensions_count;
  /// dimensions_count pointers into one contiguous array (so *dimensions is that array).
  const rocprofiler_counter_record_dimension_info_t** dimensions;
  /// The product of the dimensions' sizes: one instance per value a dispatch reports.
  uint64_t dimensions_instances_count;
  const rocprofiler_counter_record_dimension_instance_info_t** dimensions_instances;
} rocprofiler_counter_info_v1_t;

/// The counter of a record's instance id. Always succeeds for ids taken from records.
ROCPROFILER_API rocprofiler_status_t rocprofiler_query_record_counter_id(
    rocprofiler_counter_instance_id_t id, rocprofiler_counter_id_t* counter_id)
    ROCPROFILER_NONNULL(2);

/// The position of a record's instance in dimension `dim` (a rocprofiler_counter_record_
/// dimension_info_t::id of its counter). dim 0: the flat position among all of the counter's
/// values. A dimension the counter does not have gives position 0, as in rocprofiler-sdk.
ROCPROFILER_API rocprofiler_status_t rocprofiler_query_record_dimension_position(
    rocprofiler_counter_instance_id_t id, rocprofiler_counter_dimension_id_t dim, size_t* pos)
    ROCPROFILER_NONNULL(3);

/// Fills `info`, a rocprofiler_counter_info_v0_t or _v1_t as `version` says.
/// Returns COUNTER_NOT_FOUND for an unknown id, INCOMPATIBLE_ABI for an unknown version.
ROCPROFILER_API rocprofiler_status_t rocprofiler_query_counter_info(
    rocprofiler_counter_id_t counter_id, rocprofiler_counter_info_version_id_t version, void* info)
    ROCPROFILER_NONNULL(3);

/// Receives every counter an agent offers, in one call: native counters in the backend's
/// order, then derived counters in the definitions' order. `counters` belongs to the core and
/// is valid during the call only. The return value is ignored.
typedef rocprofiler_status_t (*rocprofiler_available_counters_cb_t)(
    rocprofiler_agent_id_t agent_id, rocprofiler_counter_id_t* counters, size_t num_counters,
    void* user_data);

/// Calls `cb` once, synchronously, with the agent's counters. The first call for an agent
/// builds its counter catalogue (the backend lists its native counters; the definitions are
/// read): it may take a moment (CUDA: ~0.5 s for CUPTI's first host object).
/// Returns AGENT_NOT_FOUND for an unknown agent, AGENT_ARCH_NOT_SUPPORTED when the agent
/// offers no counter (a CPU, a GPU whose backend collects none, or no definitions file),
/// BACKEND_NOT_LOADED when its backend is missing.
ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_agent_supported_counters(
    rocprofiler_agent_id_t agent_id, rocprofiler_available_counters_cb_t cb, void* user_data)
    ROCPROFILER_NONNULL(2);

/// Adds a derived counter to one agent: `expr` in the definitions' expression language (e.g.
/// "SQ_WAVES*2" or "reduce(TCC_HIT,sum)"); description may be NULL. The counter exists for
/// configs created afterwards. Slow (rebuilds the agent's catalogue): not for a dispatch
/// callback. Returns AGENT_NOT_FOUND, INVALID_ARGUMENT (empty or taken name),
/// AST_GENERATION_FAILED (the expression does not parse or does not resolve on the agent).
ROCPROFILER_API rocprofiler_status_t rocprofiler_create_counter(
    const char* name, size_t name_len, const char* expr, size_t expr_len, const char* description,
    size_t description_len, rocprofiler_agent_id_t agent, rocprofiler_counter_id_t* counter_id)
    ROCPROFILER_NONNULL(1, 3, 8);

/// Extension: the id of counter `name` on an agent. Counters the agent lists are found by
/// name; a native counter the backend can collect but does not list (NVIDIA: the sub-metrics
/// of a metric beyond its roll-ups, e.g. "dram__bytes_read.sum.per_second") is added to the
/// agent's counters first (slow: rebuilds the agent's catalogue; not for a dispatch callback).
/// Returns AGENT_NOT_FOUND, AGENT_ARCH_NOT_SUPPORTED, COUNTER_NOT_FOUND.
ROCPROFILER_API rocprofiler_status_t rocprofiler_find_counter(rocprofiler_agent_id_t agent,
                                                              const char* name,
                                                              rocprofiler_counter_id_t* counter_id)
    ROCPROFILER_NONNULL(2, 3);

ROCPROFILER_EXTERN_C_FINI
