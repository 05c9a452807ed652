// Contexts, buffers and services of the tool, configured through the core's public C API only.
//
//   main context       buffer tracing of every requested domain (started at once unless
//                      --selected-regions or --collection-period say otherwise)
//   control context    always started: pause/resume callbacks (they stop/start the main
//                      context: roctxProfilerPause/Resume and --selected-regions), thread-name
//                      callbacks, and the MARKER_CONTROL_API records themselves
//   code-object ctx    always started: code objects and kernel symbols for the definitions
//   rename context     --kernel-rename: pushes the message of each enclosing ROCTx range as the
//                      external correlation id of the main context on the calling thread
//
// The domains come from the schema's domain table: each tracing row that is on names the record
// kinds it traces (by the core's kind names) and whether they share a buffer. Buffers follow
// rocprofv3: 16 pages with a 15-page watermark, LOSSLESS, one dedicated callback thread each;
// rows naming the same shared buffer (HSA, HIP, CUDA API) share one, every other kind has its
// own.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <thread>

#include "api_selection.hpp"
#include "counter_collection.hpp"
#include "host_callstack_service.hpp"
#include "pc_sampling_service.hpp"
#include "record_convert.hpp"
#include "rocprof/common/cuda_api_names.hpp"
#include "rocprof/common/gpu_uuid.hpp"
#include "rocprof/config/schema.hpp"
#include "rocprof/formats/symbol_names.hpp"
#include "spm_collection.hpp"
#include "tool_state.hpp"

namespace rocprof::tool {
namespace {

void report(const char* what, rocprofiler_status_t status) {
  if (status == ROCPROFILER_STATUS_SUCCESS) return;
  std::fprintf(stderr, "rocprofv3: %s failed: %s\n", what, rocprofiler_get_status_string(status));
}

void on_buffer(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
               rocprofiler_record_header_t** headers, size_t count, void* data,
               uint64_t drop_count) {
  convert_records(*static_cast<tool_state*>(data), headers, count, drop_count);
}

}  // namespace

bool make_buffer(tool_state& tool, rocprofiler_context_id_t context, rocprofiler_buffer_id_t* out) {
  const long page = ::sysconf(_SC_PAGESIZE) > 0 ? ::sysconf(_SC_PAGESIZE) : 4096;
  const auto size = static_cast<size_t>(16 * page);
  const auto watermark = static_cast<size_t>(15 * page);
  auto status = rocprofiler_create_buffer(
      context, size, watermark, ROCPROFILER_BUFFER_POLICY_LOSSLESS, on_buffer, &tool, out);
  report("rocprofiler_create_buffer", status);
  if (status != ROCPROFILER_STATUS_SUCCESS) return false;
  rocprofiler_callback_thread_t thread{};
  if (rocprofiler_create_callback_thread(&thread) == ROCPROFILER_STATUS_SUCCESS)
    report("rocprofiler_assign_callback_thread", rocprofiler_assign_callback_thread(*out, thread));
  tool.buffers.push_back(*out);
  return true;
}

namespace {

// The core's buffer-tracing kind of that name (the names the schema's rows use), or NONE.
rocprofiler_buffer_tracing_kind_t buffer_kind_named(std::string_view name) {
  for (int k = ROCPROFILER_BUFFER_TRACING_NONE + 1; k < ROCPROFILER_BUFFER_TRACING_LAST; ++k) {
    const auto kind = static_cast<rocprofiler_buffer_tracing_kind_t>(k);
    const char* text = nullptr;
    uint64_t length = 0;
    if (rocprofiler_query_buffer_tracing_kind_name(kind, &text, &length) ==
            ROCPROFILER_STATUS_SUCCESS &&
        text != nullptr && name == std::string_view(text, length))
      return kind;
  }
  return ROCPROFILER_BUFFER_TRACING_NONE;
}

// Pause and resume must be recorded while the main context is paused, so their records go to
// the always-started control context.
rocprofiler_context_id_t context_for(const tool_state& tool,
                                     rocprofiler_buffer_tracing_kind_t kind) {
  return kind == ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API ? tool.control_context
                                                               : tool.main_context;
}

// Buffer tracing of every kind of every domain that is on, in the schema's order.
void trace_domains(tool_state& tool) {
  std::map<std::string_view, rocprofiler_buffer_id_t> shared;  // shared buffer -> its buffer
  const auto& include = tool.settings.cuda_api_include;
  const auto exclude =
      common::cuda_api_exclusions(tool.settings.cuda_api_include, tool.settings.cuda_api_exclude,
                                  tool.settings.cuda_api_queries);
  for (const auto& spec : config::schema()) {
    if (spec.kinds.empty() || !tool.settings.traces(spec.key)) continue;
    for (const auto name : config::words(spec.kinds)) {
      const auto kind = buffer_kind_named(name);
      const auto context = context_for(tool, kind);
      api_operation_choice choice;
      if (is_cuda_api_kind(kind)) {
        choice = choose_operations(kind, include, exclude);
        if (!choice.all && choice.operations.empty()) continue;  // no function of it kept
      }
      rocprofiler_buffer_id_t buffer{};
      const auto known = shared.find(spec.shared_buffer);
      auto status = ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
      if (kind == ROCPROFILER_BUFFER_TRACING_NONE) {
        // reported below
      } else if (!spec.shared_buffer.empty() && known != shared.end()) {
        buffer = known->second;
      } else if (!make_buffer(tool, context, &buffer)) {
        continue;  // make_buffer reported it
      } else if (!spec.shared_buffer.empty()) {
        shared.emplace(spec.shared_buffer, buffer);
      }
      if (kind != ROCPROFILER_BUFFER_TRACING_NONE)
        status = rocprofiler_configure_buffer_tracing_service(
            context, kind, choice.operations.empty() ? nullptr : choice.operations.data(),
            choice.operations.size(), buffer);
      if (status != ROCPROFILER_STATUS_SUCCESS) {
        std::fprintf(stderr, "rocprofv3: tracing %.*s is not available: %s\n",
                     static_cast<int>(name.size()), name.data(),
                     rocprofiler_get_status_string(status));
      }
    }
  }
}

// The main context and the counter context start and stop together (pause/resume,
// --selected-regions, --collection-period), as rocprofv3's counters honour them.
void set_collecting(tool_state& tool, bool on) {
  if (on) {
    rocprofiler_start_context(tool.main_context);
    start_counting(tool);
    start_spm(tool);
  } else {
    rocprofiler_stop_context(tool.main_context);
    stop_counting(tool);
    stop_spm(tool);
  }
}

void on_control(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*,
                void* data) {
  auto& tool = *static_cast<tool_state*>(data);
  if (record.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API) {
    if (record.phase != ROCPROFILER_CALLBACK_PHASE_ENTER || record.payload == nullptr) return;
    const auto* payload =
        static_cast<const rocprofiler_callback_tracing_marker_api_data_t*>(record.payload);
    if (record.operation == ROCPROFILER_MARKER_NAME_API_ID_roctxNameOsThread &&
        payload->args.roctxNameOsThread.name != nullptr)
      tool.defs->name_thread(static_cast<int64_t>(record.thread_id),
                             payload->args.roctxNameOsThread.name);
    return;
  }
  if (record.kind != ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API) return;
  // As rocprofv3: stop at the pause's ENTER, start at the resume's EXIT, so neither call's own
  // marker work is counted inside the collected region.
  if (record.operation == ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause &&
      record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
    set_collecting(tool, false);
  else if (record.operation == ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerResume &&
           record.phase == ROCPROFILER_CALLBACK_PHASE_EXIT)
    set_collecting(tool, true);
}

void on_rename(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void* data) {
  auto& tool = *static_cast<tool_state*>(data);
  if (record.operation != ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA) return;
  if (record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) {
    const auto* payload =
        static_cast<const rocprofiler_callback_tracing_marker_api_data_t*>(record.payload);
    rocprofiler_user_data_t external{};
    // The core interns messages for the whole run, so the pointer identifies the region name.
    external.ptr =
        const_cast<char*>(payload != nullptr ? payload->args.roctxThreadRangeA.message : nullptr);
    rocprofiler_push_external_correlation_id(tool.main_context, record.thread_id, external);
  } else if (record.phase == ROCPROFILER_CALLBACK_PHASE_EXIT) {
    rocprofiler_pop_external_correlation_id(tool.main_context, record.thread_id, nullptr);
  }
}

std::string text_or(const char* text, const char* fallback) {
  return text != nullptr ? std::string(text) : std::string(fallback);
}

void on_code_object(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*,
                    void* data) {
  auto& tool = *static_cast<tool_state*>(data);
  if (record.kind != ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT || record.payload == nullptr ||
      record.phase != ROCPROFILER_CALLBACK_PHASE_LOAD)
    return;
  if (record.operation == ROCPROFILER_CODE_OBJECT_LOAD) {
    const auto* in =
        static_cast<const rocprofiler_callback_tracing_code_object_load_data_t*>(record.payload);
    trace::code_object_info info;
    info.id = in->code_object_id;
    info.agent_id = in->agent_id.handle;
    info.uri = text_or(in->uri, "");
    info.load_base = in->load_base;
    info.load_size = in->load_size;
    info.load_delta = static_cast<uint64_t>(in->load_delta);
    info.storage_is_file = in->storage_type == ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_FILE;
    info.memory_base = in->memory_base;
    info.memory_size = in->memory_size;
    info.size = in->load_size;
    tool.defs->add_code_object(std::move(info));
  } else if (record.operation == ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER) {
    const auto* in = static_cast<const rocprofiler_kernel_symbol_data_t*>(record.payload);
    trace::kernel_symbol_info info;
    info.kernel_id = in->kernel_id;
    info.code_object_id = in->code_object_id;
    std::string name = text_or(in->kernel_name, "");
    // rocprofv3 strips a trailing ".kd" before demangling; the writers format the rest.
    if (name.size() > 3 && name.compare(name.size() - 3, 3, ".kd") == 0)
      name.resize(name.size() - 3);
    info.mangled_name = name;
    formats::format_symbol_names(info, tool.settings.demangle, tool.settings.truncate);
    note_kernel_symbol(tool, info.kernel_id, info.display_name);
    info.kernel_object = in->kernel_object;
    info.kernarg_segment_size = in->kernarg_segment_size;
    info.kernarg_segment_alignment = in->kernarg_segment_alignment;
    info.group_segment_size = in->group_segment_size;
    info.private_segment_size = in->private_segment_size;
    info.sgpr_count = in->sgpr_count;
    info.arch_vgpr_count = in->arch_vgpr_count;
    info.accum_vgpr_count = in->accum_vgpr_count;
    tool.defs->add_kernel_symbol(std::move(info));
  }
}

uint64_t timestamp() {
  rocprofiler_timestamp_t ts = 0;
  rocprofiler_get_timestamp(&ts);
  return ts;
}

void run_collection_periods(tool_state* tool) {
  size_t index = 0;  // repetitions so far, over all periods
  for (const auto& period : tool->settings.collection_periods) {
    const uint64_t times = period.repeat == 0 ? 1 : period.repeat;  // rocprofv3: 0 runs once
    for (uint64_t i = 0; i < times && !tool->stop_periods.load(); ++i, ++index) {
      period_window window;
      window.delay_begin = timestamp();
      std::this_thread::sleep_for(std::chrono::nanoseconds(period.delay_ns));
      window.delay_end = timestamp();
      if (tool->stop_periods.load()) {
        tool->periods.record(index, window);
        return;
      }
      window.start_begin = timestamp();
      set_collecting(*tool, true);
      window.start_end = timestamp();
      tool->periods.record(index, window);
      std::this_thread::sleep_for(std::chrono::nanoseconds(period.duration_ns));
      window.stop_begin = timestamp();
      set_collecting(*tool, false);
      window.stop_end = timestamp();
      tool->periods.record(index, window);
    }
  }
}

}  // namespace

int configure_services(tool_state& tool) {
  const auto& s = tool.settings;
  report("rocprofiler_create_context", rocprofiler_create_context(&tool.main_context));
  report("rocprofiler_create_context", rocprofiler_create_context(&tool.control_context));
  report("rocprofiler_create_context", rocprofiler_create_context(&tool.code_object_context));

  // Pause/resume and thread names matter even without marker records (--selected-regions with
  // other domains), so they are always configured.
  report("control callback tracing",
         rocprofiler_configure_callback_tracing_service(
             tool.control_context, ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API, nullptr, 0,
             on_control, &tool));
  report("thread-name callback tracing",
         rocprofiler_configure_callback_tracing_service(
             tool.control_context, ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API, nullptr, 0,
             on_control, &tool));
  report("code object tracing",
         rocprofiler_configure_callback_tracing_service(tool.code_object_context,
                                                        ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
                                                        nullptr, 0, on_code_object, &tool));

  trace_domains(tool);
  // Before the code-object context starts: the kernel filters see every symbol.
  configure_counter_collection(tool);
  configure_spm_collection(tool);
  configure_pc_sampling(tool);
  configure_host_callstacks(tool);

  if (s.kernel_rename) {
    report("rocprofiler_create_context", rocprofiler_create_context(&tool.rename_context));
    const rocprofiler_tracing_operation_t ops[] = {
        ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA};
    report("kernel-rename callback tracing",
           rocprofiler_configure_callback_tracing_service(
               tool.rename_context, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API, ops, 1,
               on_rename, &tool));
    rocprofiler_start_context(tool.rename_context);
  }

  rocprofiler_start_context(tool.control_context);
  rocprofiler_start_context(tool.code_object_context);
  const bool deferred = s.selected_regions || !s.collection_periods.empty();
  if (!deferred) {
    report("rocprofiler_start_context", rocprofiler_start_context(tool.main_context));
    start_counting(tool);
    start_spm(tool);
  }
  if (!s.collection_periods.empty()) {
    // Signals go to the application's threads, not to this one.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    try {
      std::thread(run_collection_periods, &tool).detach();
    } catch (...) {
      std::fprintf(stderr, "rocprofv3: cannot start the collection-period thread\n");
    }
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  }
  return 0;
}

void drain_services(tool_state& tool) {
  tool.stop_periods.store(true);
  for (auto buffer : tool.buffers)
    rocprofiler_flush_buffer(buffer);
  rocprofiler_stop_context(tool.main_context);
  for (auto buffer : tool.buffers)
    rocprofiler_flush_buffer(buffer);
}

void collect_agents(tool_state& tool) {
  auto callback = [](rocprofiler_agent_version_t, const void** agents, size_t count,
                     void* data) -> rocprofiler_status_t {
    auto& t = *static_cast<tool_state*>(data);
    for (size_t i = 0; i < count; ++i) {
      const auto* a = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
      trace::agent_info info;
      info.id = a->id.handle;
      info.type = a->type == ROCPROFILER_AGENT_TYPE_CPU   ? trace::agent_type::cpu
                  : a->type == ROCPROFILER_AGENT_TYPE_GPU ? trace::agent_type::gpu
                                                          : trace::agent_type::unknown;
      info.node_id = a->node_id;
      info.logical_node_id = static_cast<uint32_t>(a->logical_node_id);
      info.logical_node_type_id = static_cast<uint32_t>(a->logical_node_type_id);
      info.name = text_or(a->name, "");
      info.vendor_name = text_or(a->vendor_name, "");
      info.product_name = text_or(a->product_name, "");
      info.model_name = text_or(a->model_name, "");
      info.cpu_cores_count = a->cpu_cores_count;
      info.simd_count = a->simd_count;
      info.cpu_core_id_base = a->cpu_core_id_base;
      info.simd_id_base = a->simd_id_base;
      info.max_waves_per_simd = a->max_waves_per_simd;
      info.lds_size_in_kb = a->lds_size_in_kb;
      info.gds_size_in_kb = a->gds_size_in_kb;
      info.num_gws = a->num_gws;
      info.wave_front_size = a->wave_front_size;
      info.num_xcc = a->num_xcc;
      info.cu_count = a->cu_count;
      info.array_count = a->array_count;
      info.num_shader_banks = a->num_shader_banks;
      info.simd_arrays_per_engine = a->simd_arrays_per_engine;
      info.cu_per_simd_array = a->cu_per_simd_array;
      info.simd_per_cu = a->simd_per_cu;
      info.max_slots_scratch_cu = a->max_slots_scratch_cu;
      info.gfx_target_version = a->gfx_target_version;
      info.vendor_id = a->vendor_id;
      info.device_id = a->device_id;
      info.location_id = a->location_id;
      info.domain = a->domain;
      info.drm_render_minor = a->drm_render_minor;
      info.num_sdma_engines = a->num_sdma_engines;
      info.num_sdma_xgmi_engines = a->num_sdma_xgmi_engines;
      info.num_sdma_queues_per_engine = a->num_sdma_queues_per_engine;
      info.num_cp_queues = a->num_cp_queues;
      info.max_engine_clk_ccompute = a->max_engine_clk_ccompute;
      info.max_engine_clk_fcompute = a->max_engine_clk_fcompute;
      info.sdma_fw_version = a->sdma_fw_version.uCodeSDMA;
      info.fw_version = a->fw_version.uCode;
      info.capability = a->capability.Value;
      info.cu_per_engine = a->cu_per_engine;
      info.max_waves_per_cu = a->max_waves_per_cu;
      info.family_id = a->family_id;
      info.workgroup_max_size = a->workgroup_max_size;
      info.grid_max_size = a->grid_max_size;
      info.local_mem_size = a->local_mem_size;
      info.hive_id = a->hive_id;
      info.gpu_id = a->gpu_id;
      info.workgroup_max_dim[0] = a->workgroup_max_dim.x;
      info.workgroup_max_dim[1] = a->workgroup_max_dim.y;
      info.workgroup_max_dim[2] = a->workgroup_max_dim.z;
      info.grid_max_dim[0] = a->grid_max_dim.x;
      info.grid_max_dim[1] = a->grid_max_dim.y;
      info.grid_max_dim[2] = a->grid_max_dim.z;
      if (info.type == trace::agent_type::gpu) info.uuid = common::format_gpu_uuid(a->uuid.bytes);
      t.defs->add_agent(std::move(info));
    }
    return ROCPROFILER_STATUS_SUCCESS;
  };
  report("rocprofiler_query_available_agents",
         rocprofiler_query_available_agents(ROCPROFILER_AGENT_INFO_VERSION_0, callback,
                                            sizeof(rocprofiler_agent_v0_t), &tool));
}

}  // namespace rocprof::tool
