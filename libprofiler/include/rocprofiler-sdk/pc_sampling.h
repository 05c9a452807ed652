// PC sampling service (experimental in rocprofiler-sdk; needs ROCPROFILER_PC_SAMPLING_BETA_ENABLED
// in the environment, as AMD's library does). Names, types, field order, bit widths and enum
// values follow rocprofiler-sdk's pc_sampling.h, so a tool written for it compiles unchanged.
//
// What each vendor delivers (docs/user-guide.md, "PC sampling", compares them field by field):
//   * AMD host-trap / stochastic: one record per sample (rocprofiler_pc_sampling_record_*_v0_t),
//     with its timestamp, hardware id, exec mask and wave position.
//   * NVIDIA (CUPTI): the hardware counts samples per PC and warp state; there is no timestamp,
//     wave id or exec mask per sample. Those samples arrive as the extension kind
//     ROCPROFILER_PC_SAMPLING_RECORD_AGGREGATED_V0_SAMPLE (rocprofiler_pc_sampling_record_
//     aggregated_v0_t): one record per (dispatch, PC, warp state) with a sample count. A tool
//     gets them only when it asks (ROCPROFILER_PC_SAMPLING_CONFIGURE_FLAG_AGGREGATED_RECORDS).
//     Any other tool, e.g. one written for rocprofiler-sdk that knows the AMD kinds only, gets
//     ROCPROFILER_PC_SAMPLING_RECORD_STOCHASTIC_V0_SAMPLE records, one per sample, whose fields
//     are either what the hardware reported or zero where NVIDIA measures nothing (the table in
//     docs/user-guide.md, "PC sampling records for SDK tools").
#pragma once

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/// How samples are taken. Values as rocprofiler-sdk's fwd.h.
typedef enum rocprofiler_pc_sampling_method_t {
  ROCPROFILER_PC_SAMPLING_METHOD_NONE = 0,
  ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC,  ///< hardware samples (AMD MI300+; NVIDIA's CUPTI)
  ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP,   ///< a host thread traps the waves (AMD MI200+)
  ROCPROFILER_PC_SAMPLING_METHOD_LAST,
} rocprofiler_pc_sampling_method_t;

/// Unit of the sampling interval. Values as rocprofiler-sdk's fwd.h.
typedef enum rocprofiler_pc_sampling_unit_t {
  ROCPROFILER_PC_SAMPLING_UNIT_NONE = 0,
  ROCPROFILER_PC_SAMPLING_UNIT_INSTRUCTIONS,
  ROCPROFILER_PC_SAMPLING_UNIT_CYCLES,
  ROCPROFILER_PC_SAMPLING_UNIT_TIME,  ///< nanoseconds
  ROCPROFILER_PC_SAMPLING_UNIT_LAST,
} rocprofiler_pc_sampling_unit_t;

/// Kinds of ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING records (rocprofiler_record_header_t::kind).
typedef enum rocprofiler_pc_sampling_record_kind_t {
  ROCPROFILER_PC_SAMPLING_RECORD_NONE = 0,
  ROCPROFILER_PC_SAMPLING_RECORD_INVALID_SAMPLE,       ///< rocprofiler_pc_sampling_record_invalid_t
  ROCPROFILER_PC_SAMPLING_RECORD_HOST_TRAP_V0_SAMPLE,  ///< ..._record_host_trap_v0_t
  ROCPROFILER_PC_SAMPLING_RECORD_STOCHASTIC_V0_SAMPLE,  ///< ..._record_stochastic_v0_t
  /// Extension: rocprofiler_pc_sampling_record_aggregated_v0_t (NVIDIA agents).
  ROCPROFILER_PC_SAMPLING_RECORD_AGGREGATED_V0_SAMPLE,
  ROCPROFILER_PC_SAMPLING_RECORD_LAST,
} rocprofiler_pc_sampling_record_kind_t;

typedef enum rocprofiler_pc_sampling_configuration_flags_t {
  ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_NONE = 0,
  ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2,  ///< interval must be a power of 2
  ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_LAST
} rocprofiler_pc_sampling_configuration_flags_t;

/// One way an agent can sample. min_interval is the highest sampling frequency, max_interval
/// the lowest, both in `unit`.
typedef struct rocprofiler_pc_sampling_configuration_t {
  uint64_t size;
  rocprofiler_pc_sampling_method_t method;
  rocprofiler_pc_sampling_unit_t unit;
  size_t min_interval;
  size_t max_interval;
  uint64_t flags;  ///< a rocprofiler_pc_sampling_configuration_flags_t value
} rocprofiler_pc_sampling_configuration_t;

/// Called once, on the calling thread, with every configuration the agent offers now (when a
/// context already sampled on the agent: only the configuration in use). `configs` lives for
/// the call only.
typedef rocprofiler_status_t (*rocprofiler_available_pc_sampling_configurations_cb_t)(
    const rocprofiler_pc_sampling_configuration_t* configs, size_t num_config, void* user_data);

/// What `agent_id` can do. ERROR_AGENT_NOT_FOUND: no such agent; ERROR_NOT_AVAILABLE: the agent
/// (or its backend) cannot sample PCs, or the beta opt-in is missing.
rocprofiler_status_t rocprofiler_query_pc_sampling_agent_configurations(
    rocprofiler_agent_id_t agent_id, rocprofiler_available_pc_sampling_configurations_cb_t cb,
    void* user_data) ROCPROFILER_API ROCPROFILER_NONNULL(2, 3);

/// Values of the `flags` argument of rocprofiler_configure_pc_sampling_service (a bit set;
/// rocprofiler-sdk reserves the argument "for future use" and accepts 0). Extension.
typedef enum rocprofiler_pc_sampling_configure_flags_t {
  ROCPROFILER_PC_SAMPLING_CONFIGURE_FLAG_NONE = 0,
  /// The tool takes ROCPROFILER_PC_SAMPLING_RECORD_AGGREGATED_V0_SAMPLE records (one per PC,
  /// warp state and drain, with a sample count) where the hardware aggregates samples (NVIDIA).
  /// Without it such samples are expanded into one STOCHASTIC_V0 record per sample. A high bit,
  /// clear of the low values rocprofiler-sdk may give the argument one day.
  ROCPROFILER_PC_SAMPLING_CONFIGURE_FLAG_AGGREGATED_RECORDS = 1 << 30,
} rocprofiler_pc_sampling_configure_flags_t;

/// Samples PCs of `agent_id` into `buffer_id` while `context_id` is active. Only during tool
/// initialisation. Statuses (rocprofiler-sdk's constraints):
///   * ERROR_NOT_AVAILABLE: the beta opt-in (ROCPROFILER_PC_SAMPLING_BETA_ENABLED) is missing,
///     the agent cannot sample, or the agent already samples with another configuration (one
///     configuration per agent; query again to see the one in use);
///   * ERROR_INVALID_ARGUMENT: method/unit/interval match none of the agent's configurations
///     (INTERVAL_POW2: a power of two in [min_interval, max_interval]), or `flags` holds a
///     bit other than those of rocprofiler_pc_sampling_configure_flags_t;
///   * ERROR_SERVICE_ALREADY_CONFIGURED: this context already samples this agent, or another
///     context of the process holds PC sampling (one context per process);
///   * ERROR_CONTEXT_CONFLICT: counter collection is configured (the hardware serves one of
///     them at a time; on NVIDIA both are one CUPTI profiling session per CUDA context);
///   * ERROR_AGENT_NOT_FOUND, ERROR_CONTEXT_NOT_FOUND, ERROR_BUFFER_NOT_FOUND,
///     ERROR_CONFIGURATION_LOCKED as for the other services.
rocprofiler_status_t rocprofiler_configure_pc_sampling_service(
    rocprofiler_context_id_t context_id, rocprofiler_agent_id_t agent_id,
    rocprofiler_pc_sampling_method_t method, rocprofiler_pc_sampling_unit_t unit, uint64_t interval,
    rocprofiler_buffer_id_t buffer_id, int flags) ROCPROFILER_API;

/// Where the sampled wave ran (AMD). Bit widths as rocprofiler-sdk.
typedef struct rocprofiler_pc_sampling_hw_id_v0_t {
  uint64_t chiplet : 6;
  uint64_t wave_id : 7;
  uint64_t simd_id : 2;
  uint64_t pipe_id : 4;
  uint64_t cu_or_wgp_id : 4;
  uint64_t shader_array_id : 1;
  uint64_t shader_engine_id : 5;
  uint64_t workgroup_id : 7;
  uint64_t vm_id : 6;
  uint64_t queue_id : 4;
  uint64_t microengine_id : 2;
  uint64_t reserved0 : 16;
} rocprofiler_pc_sampling_hw_id_v0_t;

/// A sampled PC: the loaded code object (ROCPROFILER_CODE_OBJECT_ID_NONE, 0, when unknown) and
/// the offset from its load base (for NVIDIA: the SASS offset within the cubin's function as
/// CUPTI reports it, with the cubin as code object).
typedef struct rocprofiler_pc_t {
  uint64_t code_object_id;
  uint64_t code_object_offset;
} rocprofiler_pc_t;

typedef struct rocprofiler_pc_sampling_record_host_trap_v0_t {
  uint64_t size;
  rocprofiler_pc_sampling_hw_id_v0_t hw_id;
  rocprofiler_pc_t pc;
  uint64_t exec_mask;
  uint64_t timestamp;
  uint64_t dispatch_id;
  rocprofiler_async_correlation_id_t correlation_id;
  rocprofiler_dim3_t workgroup_id;
  uint32_t wave_in_group : 8;
  uint32_t reserved0 : 24;
} rocprofiler_pc_sampling_record_host_trap_v0_t;

typedef struct rocprofiler_pc_sampling_record_stochastic_header_t {
  uint8_t has_memory_counter : 1;
  uint8_t reserved_type : 7;
} rocprofiler_pc_sampling_record_stochastic_header_t;

/// Values as rocprofiler-sdk.
typedef enum rocprofiler_pc_sampling_instruction_type_t {
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NONE = 0,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_VALU,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_MATRIX,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_SCALAR,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_TEX,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LDS,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LDS_DIRECT,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_FLAT,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_EXPORT,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_MESSAGE,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BARRIER,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BRANCH_NOT_TAKEN,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BRANCH_TAKEN,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_JUMP,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_OTHER,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NO_INST,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_DUAL_VALU,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LAST
} rocprofiler_pc_sampling_instruction_type_t;

/// Why the sampled wave issued nothing. Values as rocprofiler-sdk.
typedef enum rocprofiler_pc_sampling_instruction_not_issued_reason_t {
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE = 0,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NO_INSTRUCTION_AVAILABLE,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ALU_DEPENDENCY,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_INTERNAL_INSTRUCTION,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_BARRIER_WAIT,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_NOT_WIN,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_OTHER_WAIT,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_SLEEP_WAIT,
  ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_LAST
} rocprofiler_pc_sampling_instruction_not_issued_reason_t;

/// The arbiter's state when the sample was taken (AMD stochastic). Bit widths as rocprofiler-sdk.
typedef struct rocprofiler_pc_sampling_snapshot_v0_t {
  uint32_t reason_not_issued : 4;  ///< a rocprofiler_pc_sampling_instruction_not_issued_reason_t
  uint32_t reserved0 : 1;
  uint32_t arb_state_issue_valu : 1;
  uint32_t arb_state_issue_matrix : 1;
  uint32_t arb_state_issue_lds : 1;
  uint32_t arb_state_issue_lds_direct : 1;
  uint32_t arb_state_issue_scalar : 1;
  uint32_t arb_state_issue_vmem_tex : 1;
  uint32_t arb_state_issue_flat : 1;
  uint32_t arb_state_issue_exp : 1;
  uint32_t arb_state_issue_misc : 1;
  uint32_t arb_state_issue_brmsg : 1;
  uint32_t arb_state_issue_reserved : 1;
  uint32_t arb_state_stall_valu : 1;
  uint32_t arb_state_stall_matrix : 1;
  uint32_t arb_state_stall_lds : 1;
  uint32_t arb_state_stall_lds_direct : 1;
  uint32_t arb_state_stall_scalar : 1;
  uint32_t arb_state_stall_vmem_tex : 1;
  uint32_t arb_state_stall_flat : 1;
  uint32_t arb_state_stall_exp : 1;
  uint32_t arb_state_stall_misc : 1;
  uint32_t arb_state_stall_brmsg : 1;
  uint32_t arb_state_state_reserved : 1;
  uint32_t dual_issue_valu : 1;
  uint32_t reserved1 : 1;
  uint32_t reserved2 : 3;
} rocprofiler_pc_sampling_snapshot_v0_t;

/// Outstanding memory instructions of the sampled wave (AMD gfx12). Bit widths as rocprofiler-sdk.
typedef struct rocprofiler_pc_sampling_memory_counters_t {
  uint32_t load_cnt : 6;
  uint32_t store_cnt : 6;
  uint32_t bvh_cnt : 3;
  uint32_t sample_cnt : 6;
  uint32_t ds_cnt : 6;
  uint32_t km_cnt : 5;
} rocprofiler_pc_sampling_memory_counters_t;

typedef struct rocprofiler_pc_sampling_record_stochastic_v0_t {
  uint64_t size;
  rocprofiler_pc_sampling_record_stochastic_header_t flags;
  uint8_t wave_in_group;
  uint8_t wave_issued : 1;
  uint8_t inst_type : 5;  ///< a rocprofiler_pc_sampling_instruction_type_t
  uint8_t reserved : 2;
  rocprofiler_pc_sampling_hw_id_v0_t hw_id;
  rocprofiler_pc_t pc;
  uint64_t exec_mask;
  rocprofiler_dim3_t workgroup_id;
  uint32_t wave_count;
  uint64_t timestamp;
  uint64_t dispatch_id;
  rocprofiler_async_correlation_id_t correlation_id;
  rocprofiler_pc_sampling_snapshot_v0_t snapshot;
  rocprofiler_pc_sampling_memory_counters_t memory_counters;
} rocprofiler_pc_sampling_record_stochastic_v0_t;

typedef struct rocprofiler_pc_sampling_record_invalid_t {
  uint64_t size;
} rocprofiler_pc_sampling_record_invalid_t;

/// Name of an instruction type ("ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_VALU"); NULL if out of
/// range.
const char* rocprofiler_get_pc_sampling_instruction_type_name(
    rocprofiler_pc_sampling_instruction_type_t instruction_type) ROCPROFILER_API;

/// Name of a not-issued reason ("ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT");
/// NULL if out of range.
const char* rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(
    rocprofiler_pc_sampling_instruction_not_issued_reason_t not_issued_reason) ROCPROFILER_API;

// ---- Extension: aggregated samples (NVIDIA) ----

/// Warp states NVIDIA's PC sampling reports (CUPTI's stall reasons without their
/// "smsp__pcsamp_warps_issue_stalled_" prefix and "_not_issued" suffix). Each maps to the closest
/// not-issued reason (rocprofiler_pc_sampling_map_warp_state; table in docs/user-guide.md).
typedef enum rocprofiler_pc_sampling_warp_state_t {
  ROCPROFILER_PC_SAMPLING_WARP_STATE_NONE = 0,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_BARRIER,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_BRANCH_RESOLVING,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_DISPATCH_STALL,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_DRAIN,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_IMC_MISS,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_LG_THROTTLE,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_LONG_SCOREBOARD,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_MATH_PIPE_THROTTLE,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_MEMBAR,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_MIO_THROTTLE,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_MISC,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_NO_INSTRUCTIONS,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_NOT_SELECTED,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_SELECTED,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_SHORT_SCOREBOARD,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_SLEEPING,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_TEX_THROTTLE,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_WAIT,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_WARPGROUP_ARRIVE,
  ROCPROFILER_PC_SAMPLING_WARP_STATE_LAST
} rocprofiler_pc_sampling_warp_state_t;

/// How NVIDIA's samples are tied to their kernels (extension). CUPTI's CONTINUOUS collection
/// costs nothing measurable but reports no correlation id, so samples are attributed by
/// function; KERNEL_SERIALIZED gives each launch's correlation id at about twice the run time.
typedef enum rocprofiler_pc_sampling_attribution_t {
  ROCPROFILER_PC_SAMPLING_ATTRIBUTION_NONE = 0,
  ROCPROFILER_PC_SAMPLING_ATTRIBUTION_DISPATCH,  ///< dispatch_id and correlation_id are exact
  ROCPROFILER_PC_SAMPLING_ATTRIBUTION_KERNEL,    ///< the kernel is exact; dispatch_id is the
                                                 ///< latest dispatch of it when the data was read
  ROCPROFILER_PC_SAMPLING_ATTRIBUTION_LAST
} rocprofiler_pc_sampling_attribution_t;

/// Extension record ROCPROFILER_PC_SAMPLING_RECORD_AGGREGATED_V0_SAMPLE: `sample_count` samples
/// of warps at `pc` in `warp_state`, `not_issued_count` of them issuing no instruction, taken
/// while the data was read between two drains. Every field is what the hardware reported; none
/// is invented (no timestamp, wave id, exec mask or hardware id exists for these samples).
typedef struct rocprofiler_pc_sampling_record_aggregated_v0_t {
  uint64_t size;
  rocprofiler_agent_id_t agent_id;
  rocprofiler_pc_t pc;
  uint64_t dispatch_id;  ///< 0 when the kernel could not be identified
  rocprofiler_async_correlation_id_t correlation_id;
  rocprofiler_kernel_id_t kernel_id;  ///< 0 when unknown
  uint64_t sample_count;
  uint64_t not_issued_count;
  uint32_t warp_state;         ///< rocprofiler_pc_sampling_warp_state_t
  uint32_t reason_not_issued;  ///< rocprofiler_pc_sampling_instruction_not_issued_reason_t
  uint32_t attribution;        ///< rocprofiler_pc_sampling_attribution_t
  uint32_t source_line;        ///< 0 when unknown (the code has no line information)
  /// Source file of the PC (NVIDIA: CUPTI's SASS-to-source correlation of a -lineinfo cubin);
  /// NULL when unknown. Owned by the backend, valid until the process exits.
  const char* source_file;
} rocprofiler_pc_sampling_record_aggregated_v0_t;

/// Extension: samples a backend could not deliver, per agent (CUPTI's droppedSamples,
/// nonUsrKernelsTotalSamples, hardware-buffer overflows). The tool reports non-zero counts.
/// Zeroes when none. Versioned by `size` (fields past it are absent).
typedef struct rocprofiler_pc_sampling_loss_t {
  uint64_t size;
  uint64_t total_samples;         ///< samples the hardware took
  uint64_t dropped_samples;       ///< lost because a buffer was full
  uint64_t unattributed_samples;  ///< samples of code no loaded module holds (non-user kernels)
  /// Times the hardware buffer was found full (CUPTI_ERROR_OUT_OF_MEMORY from GetData): the
  /// samples lost then are not counted anywhere, so any non-zero value means missing data.
  uint64_t hardware_buffer_full_events;
} rocprofiler_pc_sampling_loss_t;

/// Extension: what the agent's sampler lost so far. ERROR_AGENT_NOT_FOUND / ERROR_NOT_AVAILABLE
/// as above.
rocprofiler_status_t rocprofiler_query_pc_sampling_loss(rocprofiler_agent_id_t agent_id,
                                                        rocprofiler_pc_sampling_loss_t* loss)
    ROCPROFILER_API ROCPROFILER_NONNULL(2);

/// Extension: the not-issued reason closest to an NVIDIA warp state (NONE for SELECTED: the warp
/// issued; NONE for out-of-range values).
rocprofiler_pc_sampling_instruction_not_issued_reason_t rocprofiler_pc_sampling_map_warp_state(
    rocprofiler_pc_sampling_warp_state_t state) ROCPROFILER_API;

/// Extension: lower-case name of a warp state as NVIDIA spells it ("long_scoreboard"); NULL if
/// out of range.
const char* rocprofiler_get_pc_sampling_warp_state_name(rocprofiler_pc_sampling_warp_state_t state)
    ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI
