// Plugin ABI between the profiler core and its backends (internal but stable; plain C).
//
// A backend is the file ROCPROF_BACKEND_FILE_PREFIX <name> ROCPROF_BACKEND_FILE_SUFFIX
// (librocprofiler-sdk-<name>.so) in the backend directory: $ROCPROF_BACKEND_DIR, else
// ROCPROF_BACKEND_SUBDIR next to librocprofiler-sdk.so. It exports
//   * the data symbol `rocprof_backend_manifest` (rocprof_backend_manifest_t): its name and
//     the buffer and callback kinds it records. The core finds backends by this symbol (read
//     from the file's dynamic symbol table, so other libraries of the directory are never
//     loaded) and builds its kind -> backend map from the manifests: it names no vendor;
//   * rocprofiler_status_t rocprof_backend_register(const rocprof_core_services_t* core,
//                                                   rocprof_backend_t* out);
//     The backend keeps `core` (valid until shutdown returns), fills `out`, and may register
//     its agents right away.
// The core reads the manifests the first time a context configures a kind that the core does
// not record itself (markers, code objects), and registers the backend whose manifest lists
// that kind; rocprof_backend_request(name) registers one by name (e.g. from CUDA's
// InitializeInjection), rocprof_backend_discover_agents every backend of a directory (agent
// listings). A backend that cannot be loaded or whose register fails is reported once on
// stderr; everything else keeps working.
//
// Every service below may be called from any thread. The ones marked HOT take no lock, do not
// allocate and make no system call beyond clock_gettime.
#pragma once

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "rocprofiler-sdk/counter_config.h"
#include "rocprofiler-sdk/external_correlation.h"
#include "rocprofiler-sdk/fwd.h"
#include "rocprofiler-sdk/pc_sampling.h"
#include "rocprofiler-sdk/pc_sampling_instructions.h"

ROCPROFILER_EXTERN_C_INIT

#define ROCPROF_BACKEND_ABI_VERSION 3

/// Where backends are: the variable naming their directory, the directory's name next to
/// librocprofiler-sdk.so otherwise, and the file name around a backend's <name>.
#define ROCPROF_BACKEND_DIR_ENV "ROCPROF_BACKEND_DIR"
#define ROCPROF_BACKEND_SUBDIR "rocprofiler-sdk"
#define ROCPROF_BACKEND_FILE_PREFIX "librocprofiler-sdk-"
#define ROCPROF_BACKEND_FILE_SUFFIX ".so"
/// The manifest's symbol name.
#define ROCPROF_BACKEND_MANIFEST_SYMBOL "rocprof_backend_manifest"
/// The most contexts one API call can report to through callback tracing.
#define ROCPROF_BACKEND_MAX_CALLBACK_CONTEXTS 8
/// Kind bit sets: bit k of word k / 64 is kind k.
#define ROCPROF_BACKEND_KIND_WORDS 2

/// The scope of one traced API call on the calling thread, kept on the caller's stack between
/// api_enter and api_exit. Filled by the core; the backend treats it as opaque except for
/// correlation_id (the ids to put into buffer records of this call and of its async work).
typedef struct rocprof_api_scope_t {
  uint64_t size;
  rocprofiler_callback_tracing_kind_t kind;
  rocprofiler_tracing_operation_t operation;
  rocprofiler_correlation_id_t correlation_id;
  rocprofiler_timestamp_t start_timestamp;  ///< taken by api_enter (given to api_enter_at)
  uint64_t previous_api;                    ///< internal: the enclosing call's internal id
  uint32_t num_contexts;                    ///< internal: callback subscribers found at ENTER
  uint32_t reserved;
  rocprofiler_context_id_t contexts[ROCPROF_BACKEND_MAX_CALLBACK_CONTEXTS];
  rocprofiler_user_data_t user_data[ROCPROF_BACKEND_MAX_CALLBACK_CONTEXTS];
} rocprof_api_scope_t;

/// What a backend records, exported as `const rocprof_backend_manifest_t
/// rocprof_backend_manifest` (static storage). A kind listed by several backends belongs to the
/// first one the core reads (file name order).
typedef struct rocprof_backend_manifest_t {
  uint64_t size;
  uint32_t abi_version;  ///< ROCPROF_BACKEND_ABI_VERSION
  uint32_t counters;     ///< non-zero: the backend serves counter collection
  const char* name;      ///< the <name> of its file, e.g. "cuda"
  const rocprofiler_buffer_tracing_kind_t* buffer_kinds;
  uint64_t buffer_kinds_count;
  const rocprofiler_callback_tracing_kind_t* callback_kinds;
  uint64_t callback_kinds_count;
  /// Appended (read only when size covers it): the environment variable through which the
  /// vendor runtime loads this file itself (e.g. "CUDA_INJECTION64_PATH"), or NULL. A core
  /// preloaded without ROCPROFILER_LIBRARY_CTOR sets it to this file while it loads, unless the
  /// variable is set already, so that the runtime's start starts its tools.
  const char* injection_env;
} rocprof_backend_manifest_t;

/// The most agents PC sampling can run on at once.
#define ROCPROF_BACKEND_MAX_PC_SAMPLING_AGENTS 16

/// One agent's PC sampling configuration (rocprofiler_configure_pc_sampling_service), already
/// checked against the configurations the backend offered for that agent.
typedef struct rocprof_pc_sampling_request_t {
  rocprofiler_agent_id_t agent_id;
  rocprofiler_pc_sampling_method_t method;
  rocprofiler_pc_sampling_unit_t unit;
  uint64_t interval;
} rocprof_pc_sampling_request_t;

/// Which kinds some active context asked for (passed to start).
typedef struct rocprof_enabled_kinds_t {
  uint64_t size;
  uint64_t buffer_kinds[ROCPROF_BACKEND_KIND_WORDS];    ///< rocprofiler_buffer_tracing_kind_t
  uint64_t callback_kinds[ROCPROF_BACKEND_KIND_WORDS];  ///< rocprofiler_callback_tracing_kind_t
  int counters;  ///< non-zero: some context configured counter collection
  /// PC sampling services of the active contexts, one per agent (appended in ABI 2: read them
  /// only when size covers them).
  uint32_t pc_sampling_count;
  uint32_t reserved;
  rocprof_pc_sampling_request_t pc_sampling[ROCPROF_BACKEND_MAX_PC_SAMPLING_AGENTS];
  /// Bit k: some active context configured the external-correlation-id request service for
  /// rocprofiler_external_correlation_id_request_kind_t k (appended: read it only when size
  /// covers it). A backend that can attribute GPU work without a launch-time hook keeps the
  /// hook when the request service for that work is configured.
  uint64_t external_request_kinds;
} rocprof_enabled_kinds_t;

/// Flags of emit_buffer_record.
#define ROCPROF_EMIT_FILL_EXTERNAL \
  1u  ///< core sets correlation_id.external per context from
      ///< the calling thread's stack (synchronous records)

/// One dispatch the counting service was asked about (counting_dispatch_begin). The backend
/// keeps it unchanged from begin until it passes it to counting_dispatch_end (or drops it);
/// only `counter_set` is meant for the backend.
typedef struct rocprof_counted_dispatch_t {
  uint64_t size;
  uint64_t counter_set;    ///< the backend's set to collect (create_counter_set); 0: none
  uint64_t config;         ///< internal: the chosen config, 0 when not counted
  uint32_t context_index;  ///< internal
  uint32_t reserved;
  rocprofiler_user_data_t user_data;  ///< internal: what the dispatch callback set
  rocprofiler_async_correlation_id_t correlation_id;
  rocprofiler_kernel_dispatch_info_t dispatch_info;
} rocprof_counted_dispatch_t;

/// One native counter of an agent, as a backend lists it (list_counters). Strings and arrays
/// need to live only during the callback: the core copies them.
typedef struct rocprof_backend_counter_t {
  uint64_t size;
  const char* name;  ///< collectable as is (NVIDIA: "smsp__warps_launched.sum")
  const char* description;
  const char* block;                   ///< hardware unit ("sm", "dram", ...)
  const char* const* dimension_names;  ///< dimensions_count names; none: one value
  const uint64_t* dimension_sizes;     ///< dimensions_count sizes
  uint64_t dimensions_count;
  int32_t is_constant;            ///< an agent property: constant_value, never collected
  int32_t accumulates_per_cycle;  ///< accumulate(X, HIGH_RES | LOW_RES) accepts it
  double constant_value;
} rocprof_backend_counter_t;

/// Receives `count` counters (list_counters may call it several times).
typedef void (*rocprof_backend_counter_cb_t)(const rocprof_backend_counter_t* counters,
                                             uint64_t count, void* user_data);

/// Where a device sampler delivers its samples (device_sampler_start), on a thread of the
/// backend or inside device_sampler_drain / device_sampler_stop; never concurrently for one
/// sampler. values: the sampler's counters in the order given to start, each one value
/// (device-wide); start/end: the span the values accumulated over, CLOCK_BOOTTIME ns; index:
/// 1, 2, ... (a gap means samples the hardware lost).
typedef struct rocprof_device_sample_sink_t {
  uint64_t size;
  void* user_data;
  void (*sample)(void* user_data, uint64_t index, rocprofiler_timestamp_t start,
                 rocprofiler_timestamp_t end, const double* values, uint64_t count);
} rocprof_device_sample_sink_t;

typedef struct rocprof_core_services_t {
  uint64_t size;
  uint32_t abi_version;  ///< ROCPROF_BACKEND_ABI_VERSION
  uint32_t reserved;

  /// HOT. CLOCK_BOOTTIME nanoseconds.
  rocprofiler_timestamp_t (*timestamp)(void);
  /// HOT. Cached OS thread id of the caller.
  rocprofiler_thread_id_t (*thread_id)(void);
  /// HOT. A new internal correlation id (global, increasing, starts at 1).
  uint64_t (*next_correlation_id)(void);
  /// HOT. Internal id of the traced API call the calling thread is inside (0 if none).
  uint64_t (*current_ancestor)(void);
  /// HOT. Innermost external id pushed on the calling thread for `context` (handle 0: for the
  /// first active context that has one). {0} if none.
  rocprofiler_user_data_t (*external_correlation_id)(rocprofiler_context_id_t context);

  /// HOT. Non-zero if some active context traces this kind and operation into a buffer
  /// (operation < 0: any operation of the kind).
  int (*buffer_kind_enabled)(rocprofiler_buffer_tracing_kind_t kind,
                             rocprofiler_tracing_operation_t operation);
  /// HOT. Same for callback tracing.
  int (*callback_kind_enabled)(rocprofiler_callback_tracing_kind_t kind,
                               rocprofiler_tracing_operation_t operation);

  /// HOT. Copies `record` (a buffer record struct of `kind`, starting with its size; its
  /// operation field at offset 12 is used for filtering) into every buffer of every active
  /// context that traces that kind and operation. flags: ROCPROF_EMIT_*.
  void (*emit_buffer_record)(rocprofiler_buffer_tracing_kind_t kind, const void* record,
                             uint32_t flags);

  /// HOT. Starts a traced API call on this thread: allocates its internal correlation id,
  /// sets ancestor and external id, makes it the thread's current call, and invokes ENTER of
  /// every active context's callback service for kind/operation with `payload`.
  void (*api_enter)(rocprof_api_scope_t* scope, rocprofiler_callback_tracing_kind_t kind,
                    rocprofiler_tracing_operation_t operation, void* payload);
  /// HOT. Invokes EXIT for the same contexts (with their user data) and restores the thread's
  /// current call. payload may differ from ENTER's (e.g. now holding the return value).
  void (*api_exit)(rocprof_api_scope_t* scope, void* payload);

  /// Registers a GPU agent (copied, strings and arrays included; id and size are set by the
  /// core). Returns its handle, {0} on failure.
  rocprofiler_agent_id_t (*register_agent)(const rocprofiler_agent_v0_t* agent);

  /// Reports a code object load (phase LOAD) or unload (UNLOAD) or kernel symbol registration
  /// to the CODE_OBJECT callback kind. `data` is the matching
  /// rocprofiler_callback_tracing_code_object_*_data_t. The core keeps a deep copy and
  /// replays loads/registrations to contexts that start later.
  void (*report_code_object)(rocprofiler_code_object_operation_t operation,
                             rocprofiler_callback_phase_t phase, const void* data);

  /// Adds `count` to the drop count of every buffer that traces `kind` (reported with the
  /// next delivery).
  void (*report_dropped)(rocprofiler_buffer_tracing_kind_t kind, uint64_t count);

  /// Prints "rocprofiler: <message>" to stderr the first time `key` is seen.
  void (*warn_once)(const char* key, const char* message);

  // ---- dispatch counting (ABI 3) ----

  /// HOT. Non-zero while an active context counts dispatches: one load. When zero, a backend
  /// launches without asking counting_dispatch_begin.
  int (*counting_active)(void);
  /// Before a kernel dispatch, on the launching thread: the counting context's dispatch
  /// callback chooses a config for `info` (its dispatch_id and the correlation id must be
  /// the ones the kernel trace will carry). Fills *dispatch; returns the backend counter set
  /// to collect (dispatch->counter_set), 0 when this dispatch is not counted or needs nothing
  /// collected. When dispatch->config is non-zero the backend must call counting_dispatch_end
  /// once (with no values when the set is 0).
  uint64_t (*counting_dispatch_begin)(rocprof_counted_dispatch_t* dispatch,
                                      const rocprofiler_kernel_dispatch_info_t* info,
                                      rocprofiler_async_correlation_id_t correlation_id);
  /// After the dispatch completed, on any thread: the set's values, name by name in the order
  /// the set was created with, each name's values row-major over its dimensions (one value for
  /// a counter without dimensions); count: how many in all. values NULL: collection failed
  /// (the core reports it once and delivers nothing). start/end: when it ran (0 when unknown). The
  /// core evaluates the config's counters and delivers them (record callback or buffer).
  void (*counting_dispatch_end)(const rocprof_counted_dispatch_t* dispatch, const double* values,
                                uint64_t count, rocprofiler_timestamp_t start,
                                rocprofiler_timestamp_t end);
  // --- appended; a backend reads them only when `size` covers them ---

  /// Asks the active contexts that configured the external-correlation-id request service for
  /// `kind` (in context order, the first answer wins) for the external id of the GPU work the
  /// calling thread's API call `operation` (internal id `internal_id`) launches. Returns
  /// non-zero and sets *external when a tool answered. Cheap when no context asks (one bit
  /// test); otherwise it runs the tools' callbacks on the calling thread.
  int (*request_external_correlation_id)(rocprofiler_external_correlation_id_request_kind_t kind,
                                         rocprofiler_tracing_operation_t operation,
                                         uint64_t internal_id, rocprofiler_user_data_t* external);
  /// Copies a ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING record of `kind` (starting with its size)
  /// into the buffer of every active context sampling `agent`. Not HOT: called by a backend's
  /// drain thread. Appended in ABI 2 (check size before use).
  void (*emit_pc_sampling_record)(rocprofiler_agent_id_t agent,
                                  rocprofiler_pc_sampling_record_kind_t kind, const void* record);
  /// HOT. api_enter for a backend that has read the clock at the call's start already (it
  /// stamps its own records): the scope's start_timestamp is `start` and the core reads no
  /// clock. Appended (check size before use).
  void (*api_enter_at)(rocprof_api_scope_t* scope, rocprofiler_callback_tracing_kind_t kind,
                       rocprofiler_tracing_operation_t operation, void* payload,
                       rocprofiler_timestamp_t start);
} rocprof_core_services_t;

/// One argument of an API call, for iterate_args below (the parameters of
/// rocprofiler_callback_tracing_operation_args_cb_t without kind and operation).
typedef int (*rocprof_backend_arg_cb_t)(uint32_t arg_number, const void* arg_value_addr,
                                        int32_t arg_indirection_count, const char* arg_type,
                                        const char* arg_name, const char* arg_value_str,
                                        int32_t arg_dereference_count, void* data);

typedef struct rocprof_backend_t {
  uint64_t size;
  const char* name;    ///< static, e.g. "cuda"
  void* backend_data;  ///< passed back to every entry point

  /// The set of enabled kinds changed and is not empty: (re)start what is needed.
  /// Serialised by the core: never concurrent with another entry point of this backend.
  rocprofiler_status_t (*start)(void* backend_data, const rocprof_enabled_kinds_t* kinds);
  /// No active context needs this backend any more.
  void (*stop)(void* backend_data);
  /// Push everything pending (e.g. CUPTI activity buffers) through emit_buffer_record before
  /// returning. Called before buffers are flushed at finalisation and on rocprofiler_flush_*.
  void (*flush)(void* backend_data);
  /// Last call: release everything. core services must not be used afterwards.
  void (*shutdown)(void* backend_data);

  /// Names of operations of kinds this backend owns (CUDA API ids); NULL if unknown.
  /// is_buffer_kind: 1 kind is a rocprofiler_buffer_tracing_kind_t, 0 a callback kind.
  const char* (*operation_name)(void* backend_data, int is_buffer_kind, uint32_t kind,
                                rocprofiler_tracing_operation_t operation);
  /// Number of operation ids (0 .. count-1) of such a kind.
  int32_t (*operation_count)(void* backend_data, int is_buffer_kind, uint32_t kind);

  /// For agent listings (rocprof_backend_discover_agents): registers, through register_agent,
  /// every agent the backend sees now, even though no context asked for its kinds; it may
  /// initialise the vendor's driver in the calling process. Returns how many it registered;
  /// with none, sets *why (static storage of the backend) to the reason. NULL: cannot list.
  uint64_t (*discover_agents)(void* backend_data, const char** why);

  // ---- counters (ABI 3); NULL when the backend collects none ----

  /// The native counters of `agent` through `cb`, and in *architecture (static storage of the
  /// backend) the name its counter definitions use ("sm_90"). AGENT_NOT_FOUND: not this
  /// backend's agent. May take long the first time (CUDA: CUPTI's host API, ~0.5 s).
  rocprofiler_status_t (*list_counters)(void* backend_data, rocprofiler_agent_id_t agent,
                                        const char** architecture, rocprof_backend_counter_cb_t cb,
                                        void* user_data);
  /// A native counter that list_counters did not list but the backend can collect (NVIDIA:
  /// a sub-metric such as "dram__bytes_read.sum.per_second"), described through `cb` (one
  /// counter). COUNTER_NOT_FOUND when it cannot; *why (static storage) then says why.
  rocprofiler_status_t (*describe_counter)(void* backend_data, rocprofiler_agent_id_t agent,
                                           const char* name, rocprof_backend_counter_cb_t cb,
                                           void* user_data, const char** why);
  /// Prepares collecting these native counters together on `agent`; values come back to
  /// counting_dispatch_end in this order. *set: a non-zero handle; *passes: hardware passes
  /// they take. EXCEEDS_HW_LIMIT when they cannot be collected together (*why says why).
  /// Called at any time (also from a dispatch callback), never concurrently for one backend.
  rocprofiler_status_t (*create_counter_set)(void* backend_data, rocprofiler_agent_id_t agent,
                                             const char* const* names, uint64_t count,
                                             uint64_t* set, uint64_t* passes, const char** why);
  // --- appended; the core reads them only when `size` covers them ---

  /// The arguments of one call of a kind this backend owns: `params` is the call's argument
  /// block as the callback payload or the buffer record carries it (params_size bytes; 0: a
  /// live block of the call in progress, whose size the backend knows). Pointers are followed
  /// at most max_dereference_count times (0 for buffer records). Calls `callback` per argument
  /// until it returns non-zero. ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND: not a kind whose
  /// arguments it knows; ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND: an unknown operation or
  /// a block of the wrong size. NULL: the backend shows no arguments.
  rocprofiler_status_t (*iterate_args)(void* backend_data, int is_buffer_kind, uint32_t kind,
                                       rocprofiler_tracing_operation_t operation,
                                       const void* params, uint64_t params_size,
                                       int32_t max_dereference_count,
                                       rocprof_backend_arg_cb_t callback, void* data);

  // ---- device sampling (device counting service, SPM); present when `size` covers them and
  // ---- non-NULL. Never called concurrently for one backend, except drain from any thread.

  /// Starts sampling native counters device-wide on `agent` every interval_ns (the hardware's
  /// timer), until device_sampler_stop. The sink (copied) receives every sample. *sampler: a
  /// non-zero handle. EXCEEDS_HW_LIMIT: the counters need more than one pass; INVALID_ARGUMENT:
  /// interval below the hardware minimum; CONTEXT_CONFLICT: the agent is sampled already;
  /// *why (thread-local storage of the backend, valid until its next call) says which.
  rocprofiler_status_t (*device_sampler_start)(void* backend_data, rocprofiler_agent_id_t agent,
                                               const char* const* names, uint64_t count,
                                               uint64_t interval_ns,
                                               const rocprof_device_sample_sink_t* sink,
                                               uint64_t* sampler, const char** why);
  /// Delivers every sample the hardware completed so far to the sink before returning.
  rocprofiler_status_t (*device_sampler_drain)(void* backend_data, uint64_t sampler);
  /// Drains, stops and forgets the sampler; its sink is never called afterwards.
  void (*device_sampler_stop)(void* backend_data, uint64_t sampler);
  /// PC sampling configurations `agent` offers (the backend's own agents only): writes up to
  /// `capacity` of them to `out` and returns how many there are; 0 for an agent that is not
  /// the backend's or cannot sample. Appended in ABI 2; NULL: the backend cannot sample.
  uint64_t (*pc_sampling_configurations)(void* backend_data, rocprofiler_agent_id_t agent,
                                         rocprofiler_pc_sampling_configuration_t* out,
                                         uint64_t capacity);
  /// What the sampler of `agent` lost so far; non-zero if `agent` is the backend's.
  int (*pc_sampling_loss)(void* backend_data, rocprofiler_agent_id_t agent,
                          rocprofiler_pc_sampling_loss_t* loss);
  /// The instruction text of the PCs sampled so far, one call of `cb` each (at the end of a
  /// run: it may run a disassembler). Appended; present when `size` covers it and non-NULL.
  void (*pc_sampling_instructions)(void* backend_data, rocprofiler_pc_sampling_instruction_cb_t cb,
                                   void* user_data);
} rocprof_backend_t;

/// Whether a backend table (as filled by its register, `size` set) has the device sampler.
#define ROCPROF_BACKEND_HAS_DEVICE_SAMPLER(b)                                     \
  ((b)->size >= sizeof(rocprof_backend_t) && (b)->device_sampler_start != NULL && \
   (b)->device_sampler_drain != NULL && (b)->device_sampler_stop != NULL)

typedef rocprofiler_status_t (*rocprof_backend_register_fn_t)(const rocprof_core_services_t* core,
                                                              rocprof_backend_t* out);

/// Exported by the core: loads backend `name` now if not loaded yet (once; failures warn once).
ROCPROFILER_API rocprofiler_status_t rocprof_backend_request(const char* name);

/// Exported by the core: registers backend `name` like rocprof_backend_request but leaves the
/// tools uninitialised (a backend whose entry point runs where tools must not run yet, e.g.
/// inside CUDA's cuInit, asks with rocprof_backend_request later, when it is safe).
ROCPROFILER_API rocprofiler_status_t rocprof_backend_attach(const char* name);

/// One backend file found by rocprof_backend_discover_agents, or (name NULL) none at all.
typedef struct rocprof_backend_discovery_t {
  uint64_t size;
  const char* directory;  ///< the directory searched
  const char* name;       ///< the backend's <name>; NULL when the directory holds no backend
  const char* path;       ///< its file; NULL with name
  int loaded;             ///< non-zero: loaded and registered
  uint64_t agents;        ///< agents it registered now
  const char* why;        ///< with no agent: why (could not load, the driver's error, ...)
} rocprof_backend_discovery_t;

typedef void (*rocprof_backend_discovery_cb_t)(const rocprof_backend_discovery_t* found,
                                               void* user_data);

/// Exported by the core, for agent listings (rocprofv3 --list-avail): loads every backend of
/// `directory` (NULL or "": where the core looks for backends, see above) and asks each to
/// register the agents it sees, which rocprofiler_query_available_agents then lists. Calls
/// `callback` once per backend file, in name order, or once with name NULL when there is
/// none; the pointers are valid during the call. Initialises no tool and writes nothing to
/// stderr.
ROCPROFILER_API rocprofiler_status_t rocprof_backend_discover_agents(
    const char* directory, rocprof_backend_discovery_cb_t callback, void* user_data);

ROCPROFILER_EXTERN_C_FINI
