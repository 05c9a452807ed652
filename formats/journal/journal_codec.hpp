// Byte encoding of the journal's definition entries: one field list per definition struct
// (`fields(v, x)`), used by both directions, so what is written and what is read back cannot
// drift apart. Each list names every member; the static_asserts on the structs' sizes make a
// new member a compile error here until it is listed.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "rocprof/trace/model.hpp"
#include "rocprof/trace/output_plan.hpp"

namespace rocprof::trace::journal {

template <typename T>
struct is_vector : std::false_type {};
template <typename T>
struct is_vector<std::vector<T>> : std::true_type {};

class byte_writer {
 public:
  template <typename... Ts>
  void operator()(const Ts&... values) {
    (put(values), ...);
  }
  const std::string& bytes() const { return out_; }

 private:
  template <typename T>
  void put(const T& value);
  std::string out_;
};

class byte_reader {
 public:
  explicit byte_reader(std::string_view in) : in_(in) {}
  template <typename... Ts>
  void operator()(Ts&... values) {
    (get(values), ...);
  }
  bool ok() const { return ok_; }

 private:
  template <typename T>
  void get(T& value);
  bool take(void* to, size_t n) {
    if (!ok_ || in_.size() < n) return ok_ = false;
    std::memcpy(to, in_.data(), n);
    in_.remove_prefix(n);
    return true;
  }
  std::string_view in_;
  bool ok_ = true;
};

// Field lists. `x` is the struct; V is byte_writer or byte_reader.
#define ROCPROF_JOURNAL_FIELDS(TYPE, ...) \
  template <typename V>                   \
  void fields(V& v, const TYPE& x) {      \
    v(__VA_ARGS__);                       \
  }                                       \
  template <typename V>                   \
  void fields(V& v, TYPE& x) {            \
    v(__VA_ARGS__);                       \
  }

ROCPROF_JOURNAL_FIELDS(node_info, x.id, x.hash, x.machine_id, x.system_name, x.hostname, x.release,
                       x.version, x.hardware_name, x.domain_name)
ROCPROF_JOURNAL_FIELDS(process_info, x.pid, x.ppid, x.init_ns, x.fini_ns, x.start_ns, x.end_ns,
                       x.command, x.environment, x.config_json, x.realtime_offset_start_ns,
                       x.realtime_offset_end_ns, x.mpi_rank, x.mpi_size)
ROCPROF_JOURNAL_FIELDS(agent_info, x.id, x.type, x.node_id, x.logical_node_id,
                       x.logical_node_type_id, x.name, x.vendor_name, x.product_name, x.model_name,
                       x.uuid, x.cpu_cores_count, x.simd_count, x.cpu_core_id_base, x.simd_id_base,
                       x.max_waves_per_simd, x.lds_size_in_kb, x.gds_size_in_kb, x.num_gws,
                       x.wave_front_size, x.num_xcc, x.cu_count, x.array_count, x.num_shader_banks,
                       x.simd_arrays_per_engine, x.cu_per_simd_array, x.simd_per_cu,
                       x.max_slots_scratch_cu, x.gfx_target_version, x.vendor_id, x.device_id,
                       x.location_id, x.domain, x.drm_render_minor, x.num_sdma_engines,
                       x.num_sdma_xgmi_engines, x.num_sdma_queues_per_engine, x.num_cp_queues,
                       x.max_engine_clk_ccompute, x.max_engine_clk_fcompute, x.sdma_fw_version,
                       x.fw_version, x.capability, x.cu_per_engine, x.max_waves_per_cu, x.family_id,
                       x.workgroup_max_size, x.grid_max_size, x.local_mem_size, x.hive_id, x.gpu_id,
                       x.workgroup_max_dim, x.grid_max_dim, x.extdata_json)
ROCPROF_JOURNAL_FIELDS(code_object_info, x.id, x.agent_id, x.uri, x.load_base, x.load_size,
                       x.load_delta, x.storage_is_file, x.memory_base, x.memory_size, x.size,
                       x.extdata_json)
ROCPROF_JOURNAL_FIELDS(kernel_symbol_info, x.kernel_id, x.code_object_id, x.mangled_name,
                       x.demangled_name, x.truncated_name, x.display_name, x.kernel_object,
                       x.kernarg_segment_size, x.kernarg_segment_alignment, x.group_segment_size,
                       x.private_segment_size, x.sgpr_count, x.arch_vgpr_count, x.accum_vgpr_count,
                       x.extdata_json)
ROCPROF_JOURNAL_FIELDS(counter_dimension, x.id, x.name, x.instance_size)
ROCPROF_JOURNAL_FIELDS(counter_instance, x.instance_id, x.positions)
ROCPROF_JOURNAL_FIELDS(counter_info, x.id, x.agent_id, x.name, x.description, x.block, x.expression,
                       x.units, x.is_constant, x.is_derived, x.dimensions, x.instances)
ROCPROF_JOURNAL_FIELDS(output_options, x.output_directory, x.file_prefix, x.agent_index,
                       x.group_by_queue, x.kernel_rename, x.demangle, x.truncate, x.stats,
                       x.summary, x.summary_per_domain, x.summary_groups, x.summary_output,
                       x.summary_units, x.process_label)
ROCPROF_JOURNAL_FIELDS(output_plan, x.writers, x.options, x.minimum_output_bytes)
#undef ROCPROF_JOURNAL_FIELDS

// A new member changes the size: list it above, then update the size here.
static_assert(sizeof(node_info) == 240, "node_info changed: update its journal field list");
static_assert(sizeof(process_info) == 184, "process_info changed: update its journal field list");
static_assert(sizeof(agent_info) == 432, "agent_info changed: update its journal field list");
static_assert(sizeof(code_object_info) == 136,
              "code_object_info changed: update its journal field list");
static_assert(sizeof(kernel_symbol_info) == 216,
              "kernel_symbol_info changed: update its journal field list");
static_assert(sizeof(counter_dimension) == 48,
              "counter_dimension changed: update its journal field list");
static_assert(sizeof(counter_instance) == 32,
              "counter_instance changed: update its journal field list");
static_assert(sizeof(counter_info) == 232, "counter_info changed: update its journal field list");
static_assert(sizeof(output_options) == 168,
              "output_options changed: update its journal field list");

template <typename T>
void byte_writer::put(const T& value) {
  if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
    out_.append(reinterpret_cast<const char*>(&value), sizeof(T));
  } else if constexpr (std::is_same_v<T, std::string>) {
    put(static_cast<uint32_t>(value.size()));
    out_ += value;
  } else if constexpr (std::is_array_v<T>) {
    for (const auto& item : value)
      put(item);
  } else if constexpr (is_vector<T>::value) {
    put(static_cast<uint32_t>(value.size()));
    for (const auto& item : value)
      put(item);
  } else if constexpr (std::is_same_v<T, std::map<std::string, std::string>>) {
    put(static_cast<uint32_t>(value.size()));
    for (const auto& [key, item] : value)
      (*this)(key, item);
  } else {
    fields(*this, value);
  }
}

template <typename T>
void byte_reader::get(T& value) {
  if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
    take(&value, sizeof(T));
  } else if constexpr (std::is_same_v<T, std::string>) {
    uint32_t size = 0;
    get(size);
    if (!ok_ || in_.size() < size) {
      ok_ = false;
      return;
    }
    value.assign(in_.data(), size);
    in_.remove_prefix(size);
  } else if constexpr (std::is_array_v<T>) {
    for (auto& item : value)
      get(item);
  } else if constexpr (is_vector<T>::value) {
    uint32_t n = 0;
    get(n);
    value.clear();
    for (uint32_t i = 0; i < n && ok_; ++i)
      get(value.emplace_back());
  } else if constexpr (std::is_same_v<T, std::map<std::string, std::string>>) {
    uint32_t n = 0;
    get(n);
    value.clear();
    for (uint32_t i = 0; i < n && ok_; ++i) {
      std::string key, item;
      (*this)(key, item);
      value.emplace(std::move(key), std::move(item));
    }
  } else {
    fields(*this, value);
  }
}

}  // namespace rocprof::trace::journal
