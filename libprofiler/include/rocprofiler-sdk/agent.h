// Agents: CPU agents (one per NUMA node, from /sys/devices/system/node, else one from
// /proc/cpuinfo) and GPU agents registered by backends. Fields follow rocprofiler-sdk's
// rocprofiler_agent_v0_t; a backend fills what its hardware has and leaves the rest 0.
// GPU agents exist once their backend is loaded (i.e. after a context configured a GPU kind,
// or rocprof_backend_discover_agents asked every backend for them).
#pragma once

#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

typedef enum rocprofiler_agent_type_t {
  ROCPROFILER_AGENT_TYPE_NONE = 0,
  ROCPROFILER_AGENT_TYPE_CPU = 1,
  ROCPROFILER_AGENT_TYPE_GPU = 2,
  ROCPROFILER_AGENT_TYPE_LAST,
} rocprofiler_agent_type_t;

typedef enum rocprofiler_agent_version_t {
  ROCPROFILER_AGENT_INFO_VERSION_NONE = 0,
  ROCPROFILER_AGENT_INFO_VERSION_0,
  ROCPROFILER_AGENT_INFO_VERSION_LAST,
} rocprofiler_agent_version_t;

typedef struct rocprofiler_agent_mem_bank_t {
  uint32_t heap_type;
  uint32_t flags;
  uint32_t width;
  uint32_t mem_clk_max;
  uint64_t size_in_bytes;
} rocprofiler_agent_mem_bank_t;

typedef struct rocprofiler_agent_cache_t {
  uint32_t processor_id_low;
  uint32_t size;  ///< KiB
  uint32_t level;
  uint32_t cache_line_size;
  uint32_t cache_lines_per_tag;
  uint32_t association;
  uint32_t latency;
  uint32_t type;
} rocprofiler_agent_cache_t;

typedef struct rocprofiler_agent_io_link_t {
  uint32_t type;
  uint32_t version_major;
  uint32_t version_minor;
  uint32_t node_from;
  uint32_t node_to;
  uint32_t weight;
  uint32_t min_latency;
  uint32_t max_latency;
  uint32_t min_bandwidth;
  uint32_t max_bandwidth;
  uint32_t recommended_transfer_size;
  uint32_t flags;
} rocprofiler_agent_io_link_t;

/// Named structs replace rocprofiler-sdk's anonymous bit-field overlays (not ISO C++).
typedef struct rocprofiler_agent_sdma_fw_version_t {
  uint32_t uCodeSDMA;
  uint32_t uCodeRes;
} rocprofiler_agent_sdma_fw_version_t;

typedef struct rocprofiler_agent_fw_version_t {
  uint32_t uCode;
  uint32_t Major;
  uint32_t Minor;
  uint32_t Stepping;
} rocprofiler_agent_fw_version_t;

typedef struct rocprofiler_agent_capability_t {
  uint32_t Value;  ///< raw KFD capability bits (0 where not applicable)
} rocprofiler_agent_capability_t;

typedef struct rocprofiler_agent_runtime_visibility_t {
  uint32_t hsa;
  uint32_t hip;
  uint32_t rccl;
  uint32_t rocdecode;
  uint32_t cuda;  ///< extension
} rocprofiler_agent_runtime_visibility_t;

typedef struct rocprofiler_uuid_t {
  uint8_t bytes[16];
} rocprofiler_uuid_t;

typedef struct rocprofiler_agent_v0_t {
  uint64_t size;
  rocprofiler_agent_id_t id;
  rocprofiler_agent_type_t type;
  uint32_t cpu_cores_count;
  uint32_t simd_count;
  uint32_t mem_banks_count;
  uint32_t caches_count;
  uint32_t io_links_count;
  uint32_t cpu_core_id_base;
  uint32_t simd_id_base;
  uint32_t max_waves_per_simd;
  uint32_t lds_size_in_kb;
  uint32_t gds_size_in_kb;
  uint32_t num_gws;
  uint32_t wave_front_size;  ///< CUDA: warp size
  uint32_t num_xcc;
  uint32_t cu_count;  ///< CUDA: SM count
  uint32_t array_count;
  uint32_t num_shader_banks;
  uint32_t simd_arrays_per_engine;
  uint32_t cu_per_simd_array;
  uint32_t simd_per_cu;
  uint32_t max_slots_scratch_cu;
  uint32_t gfx_target_version;  ///< CUDA: 10 * major + minor compute capability
  uint32_t vendor_id;
  uint32_t device_id;
  uint32_t location_id;  ///< PCI bus/device/function
  uint32_t domain;       ///< PCI domain
  uint32_t drm_render_minor;
  uint32_t num_sdma_engines;
  uint32_t num_sdma_xgmi_engines;
  uint32_t num_sdma_queues_per_engine;
  uint32_t num_cp_queues;
  uint32_t max_engine_clk_ccompute;  ///< MHz
  uint32_t max_engine_clk_fcompute;  ///< MHz
  rocprofiler_agent_sdma_fw_version_t sdma_fw_version;
  rocprofiler_agent_fw_version_t fw_version;
  rocprofiler_agent_capability_t capability;
  uint32_t cu_per_engine;
  uint32_t max_waves_per_cu;
  uint32_t family_id;
  uint32_t workgroup_max_size;
  uint32_t grid_max_size;
  uint64_t local_mem_size;
  uint64_t hive_id;
  uint64_t gpu_id;
  rocprofiler_dim3_t workgroup_max_dim;
  rocprofiler_dim3_t grid_max_dim;
  const rocprofiler_agent_mem_bank_t* mem_banks;
  const rocprofiler_agent_cache_t* caches;
  const rocprofiler_agent_io_link_t* io_links;
  const char* name;
  const char* vendor_name;
  const char* product_name;
  const char* model_name;
  uint32_t node_id;
  int32_t logical_node_id;
  int32_t logical_node_type_id;
  rocprofiler_agent_runtime_visibility_t runtime_visibility;
  rocprofiler_uuid_t uuid;
  /* Extensions, after rocprofiler-sdk's fields (0 where a backend does not know them). */
  uint32_t workgroup_max_lds_size;       ///< extension: LDS bytes one workgroup may use (CUDA:
                                         ///< shared memory per block)
  uint32_t max_engine_clk_fcompute_khz;  ///< extension: max_engine_clk_fcompute in kHz
} rocprofiler_agent_v0_t;

typedef rocprofiler_agent_v0_t rocprofiler_agent_t;

/// Called synchronously with every agent; the pointers stay valid until process exit.
typedef rocprofiler_status_t (*rocprofiler_query_available_agents_cb_t)(
    rocprofiler_agent_version_t version, const void** agents, size_t num_agents, void* user_data);

/// agent_size: sizeof(rocprofiler_agent_v0_t) as the caller knows it.
ROCPROFILER_API rocprofiler_status_t rocprofiler_query_available_agents(
    rocprofiler_agent_version_t version, rocprofiler_query_available_agents_cb_t callback,
    size_t agent_size, void* user_data) ROCPROFILER_NONNULL(2);

ROCPROFILER_EXTERN_C_FINI
