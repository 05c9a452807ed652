#include "common/agent_json.hpp"

namespace rocprof::formats {
namespace {

using ojson = nlohmann::ordered_json;

struct bit_field {
  const char* name;
  unsigned offset, width;
};

// Layouts of the KFD words the model keeps packed (hsakmttypes.h: HSA_ENGINE_VERSION,
// HSA_ENGINE_ID, HSA_CAPABILITY), with the field names the agent loader asks for.
constexpr bit_field engine_version_fields[] = {{"uCodeSDMA", 0, 10}, {"uCodeRes", 10, 10}};
constexpr bit_field engine_id_fields[] = {
    {"uCode", 0, 10}, {"Major", 10, 6}, {"Minor", 16, 8}, {"Stepping", 24, 8}};
constexpr bit_field capability_fields[] = {{"HotPluggable", 0, 1},
                                           {"HSAMMUPresent", 1, 1},
                                           {"SharedWithGraphics", 2, 1},
                                           {"QueueSizePowerOfTwo", 3, 1},
                                           {"QueueSize32bit", 4, 1},
                                           {"QueueIdleEvent", 5, 1},
                                           {"VALimit", 6, 1},
                                           {"WatchPointsSupported", 7, 1},
                                           {"WatchPointsTotalBits", 8, 4},
                                           {"DoorbellType", 12, 2},
                                           {"AQLQueueDoubleMap", 14, 1},
                                           {"DebugTrapSupported", 15, 1},
                                           {"WaveLaunchTrapOverrideSupported", 16, 1},
                                           {"WaveLaunchModeSupported", 17, 1},
                                           {"PreciseMemoryOperationsSupported", 18, 1},
                                           {"DEPRECATED_SRAM_EDCSupport", 19, 1},
                                           {"Mem_EDCSupport", 20, 1},
                                           {"RASEventNotify", 21, 1},
                                           {"ASICRevision", 22, 4},
                                           {"SRAM_EDCSupport", 26, 1},
                                           {"SVMAPISupported", 27, 1},
                                           {"CoherentHostAccess", 28, 1},
                                           {"DebugSupportedFirmware", 29, 1}};

template <size_t N>
ojson split(uint64_t word, const bit_field (&fields)[N]) {
  ojson j = ojson::object();
  for (const auto& f : fields)
    j[f.name] = (word >> f.offset) & ((uint64_t{1} << f.width) - 1);
  return j;
}

ojson dim3(const uint32_t (&v)[3]) {
  return {{"x", v[0]}, {"y", v[1]}, {"z", v[2]}};
}

}  // namespace

ojson agent_json(const trace::agent_info& a) {
  auto j = ojson::parse(a.extdata_json, nullptr, false);
  if (j.is_discarded() || !j.is_object()) j = ojson::object();
  j["size"] = sizeof(trace::agent_info);
  j["id"] = {{"handle", a.id}};
  j["type"] = static_cast<int>(a.type);  // rocprofiler_agent_type_t: 1 CPU, 2 GPU
  j["cpu_cores_count"] = a.cpu_cores_count;
  j["simd_count"] = a.simd_count;
  j["mem_banks_count"] = 0;
  j["caches_count"] = 0;
  j["io_links_count"] = 0;
  j["cpu_core_id_base"] = a.cpu_core_id_base;
  j["simd_id_base"] = a.simd_id_base;
  j["max_waves_per_simd"] = a.max_waves_per_simd;
  j["lds_size_in_kb"] = a.lds_size_in_kb;
  j["gds_size_in_kb"] = a.gds_size_in_kb;
  j["num_gws"] = a.num_gws;
  j["wave_front_size"] = a.wave_front_size;
  j["num_xcc"] = a.num_xcc;
  j["cu_count"] = a.cu_count;
  j["array_count"] = a.array_count;
  j["num_shader_banks"] = a.num_shader_banks;
  j["simd_arrays_per_engine"] = a.simd_arrays_per_engine;
  j["cu_per_simd_array"] = a.cu_per_simd_array;
  j["simd_per_cu"] = a.simd_per_cu;
  j["max_slots_scratch_cu"] = a.max_slots_scratch_cu;
  j["gfx_target_version"] = a.gfx_target_version;
  j["vendor_id"] = a.vendor_id;
  j["device_id"] = a.device_id;
  j["location_id"] = a.location_id;
  j["domain"] = a.domain;
  j["drm_render_minor"] = a.drm_render_minor;
  j["num_sdma_engines"] = a.num_sdma_engines;
  j["num_sdma_xgmi_engines"] = a.num_sdma_xgmi_engines;
  j["num_sdma_queues_per_engine"] = a.num_sdma_queues_per_engine;
  j["num_cp_queues"] = a.num_cp_queues;
  j["max_engine_clk_ccompute"] = a.max_engine_clk_ccompute;
  j["max_engine_clk_fcompute"] = a.max_engine_clk_fcompute;
  j["sdma_fw_version"] = split(a.sdma_fw_version, engine_version_fields);
  j["fw_version"] = split(a.fw_version, engine_id_fields);
  j["capability"] = split(a.capability, capability_fields);
  j["cu_per_engine"] = a.cu_per_engine;
  j["max_waves_per_cu"] = a.max_waves_per_cu;
  j["family_id"] = a.family_id;
  j["workgroup_max_size"] = a.workgroup_max_size;
  j["grid_max_size"] = a.grid_max_size;
  j["local_mem_size"] = a.local_mem_size;
  j["hive_id"] = a.hive_id;
  j["gpu_id"] = a.gpu_id;
  j["workgroup_max_dim"] = dim3(a.workgroup_max_dim);
  j["grid_max_dim"] = dim3(a.grid_max_dim);
  j["name"] = a.name;
  j["vendor_name"] = a.vendor_name;
  j["product_name"] = a.product_name;
  j["model_name"] = a.model_name;
  j["node_id"] = a.node_id;
  j["logical_node_id"] = a.logical_node_id;
  j["logical_node_type_id"] = a.logical_node_type_id;
  j["runtime_visibility"] = ojson::object();
  j["uuid"] = {{"text", a.uuid}};
  j["mem_banks"] = ojson::array();
  j["caches"] = ojson::array();
  j["io_links"] = ojson::array();
  j["gpu_index"] =
      a.type == trace::agent_type::gpu ? static_cast<int64_t>(a.logical_node_type_id) : -1;
  // Ours: the agent handle the records use, and the device UUID text where known.
  j["handle"] = a.id;
  j["device_uuid"] = a.uuid;
  return j;
}

}  // namespace rocprof::formats
