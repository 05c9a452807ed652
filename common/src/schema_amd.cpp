// The rows of PC sampling (served by the CUDA backend through CUPTI, as AMD's backend would
// serve them) and of advanced thread trace (only an AMD (ROCm) backend could serve it).
// Accepted, validated and handed over like the others (see schema.cpp).
#include "schema_rows.hpp"

namespace rocprof::config::rows {

using vt = value_type;
using ef = env_form;

std::vector<option_spec> pc_sampling_rows() {
  return {
      // PC sampling
      row("pc_sampling_beta_enabled", "pc-sampling-beta-enabled")
          .to("ROCPROFILER_PC_SAMPLING_BETA_ENABLED", ef::flag)
          .in(k_pc)
          .meta("BOOL")
          .says("Opt in to the PC sampling beta"),
      row("pc_sampling_unit", "pc-sampling-unit")
          .of(vt::choice)
          .among("instructions cycles time")
          .def("none")
          .to("ROCPROF_PC_SAMPLING_UNIT", ef::text)
          .in(k_pc)
          .meta("UNIT")
          .says("Unit of the sampling interval"),
      row("pc_sampling_method", "pc-sampling-method")
          .of(vt::choice)
          .among("stochastic host_trap")
          .def("none")
          .to("ROCPROF_PC_SAMPLING_METHOD", ef::text)
          .in(k_pc)
          .meta("METHOD")
          .says("Sampling method")
          .by("cuda")
          .collecting(),
      row("pc_sampling_interval", "pc-sampling-interval")
          .of(vt::integer)
          .range(1, UINT64_MAX)
          .def("1")
          .to("ROCPROF_PC_SAMPLING_INTERVAL", ef::text)
          .in(k_pc)
          .meta("INTERVAL")
          .says("Sampling interval (> 0)"),

  };
}

std::vector<option_spec> thread_trace_rows() {
  return {
      // ATT
      row("advanced_thread_trace", "advanced-thread-trace")
          .alias("att")
          .to("ROCPROF_ADVANCED_THREAD_TRACE", ef::flag)
          .in(k_att)
          .meta("BOOL")
          .says("Advanced thread trace (AMD only)")
          .amd()
          .collecting(),
      row("att_library_path", "att-library-path")
          .of(vt::string_list)
          .to("ROCPROF_ATT_LIBRARY_PATH", ef::joined)
          .sep(":")
          .in(k_att)
          .meta("PATH")
          .says("Where to look for the thread trace decoder library")
          .amd(),
      row("att_target_cu", "att-target-cu")
          .of(vt::integer)
          .def("1")
          .to("ROCPROF_ATT_PARAM_TARGET_CU", ef::text)
          .in(k_att)
          .meta("CU")
          .says("Compute unit to trace")
          .amd(),
      row("att_simd_select", "att-simd-select")
          .of(vt::integer)
          .def("15")
          .to("ROCPROF_ATT_PARAM_SIMD_SELECT", ef::text)
          .in(k_att)
          .meta("MASK")
          .says("SIMD mask (gfx9) or SIMD id (gfx10+)")
          .amd(),
      row("att_buffer_size", "att-buffer-size")
          .of(vt::integer)
          .def("268435456")
          .to("ROCPROF_ATT_PARAM_BUFFER_SIZE", ef::text)
          .in(k_att)
          .meta("BYTES")
          .says("Thread trace buffer size")
          .amd(),
      row("att_shader_engine_mask", "att-shader-engine-mask")
          .of(vt::integer)
          .def("1")
          .to("ROCPROF_ATT_PARAM_SHADER_ENGINE_MASK", ef::text)
          .in(k_att)
          .meta("MASK")
          .says("Shader engines to trace")
          .amd(),
      row("att_gpu_index", "att-gpu-index")
          .of(vt::string)
          .to("ROCPROF_ATT_PARAM_GPU_INDEX", ef::text)
          .in(k_att)
          .meta("LIST")
          .says("Comma list of GPU indices (default: all)")
          .amd(),
      row("att_perfcounters", "att-perfcounters")
          .of(vt::string_list)
          .to("ROCPROF_ATT_PARAM_PERFCOUNTERS", ef::custom)
          .in(k_att)
          .meta("NAME[:MASK]")
          .says("Counters streamed into the thread trace (gfx9)")
          .amd(),
      row("att_perfcounter_ctrl", "att-perfcounter-ctrl")
          .of(vt::integer)
          .range(0, 32)
          .def("0")
          .to("ROCPROF_ATT_PARAM_PERFCOUNTER_CTRL", ef::text)
          .in(k_att)
          .meta("N")
          .says("Counter sampling period 1..32, 0 = off (gfx9)")
          .amd(),
      row("att_activity", "att-activity")
          .of(vt::integer)
          .range(1, 32)  // becomes ROCPROF_ATT_PARAM_PERFCOUNTER_CTRL, whose range is 1..32
          .to("", ef::custom)
          .in(k_att)
          .meta("N")
          .says("Preset of eight SQ activity counters at this period (gfx9)")
          .amd(),
      row("att_serialize_all", "att-serialize-all")
          .def("0")
          .to("ROCPROF_ATT_PARAM_SERIALIZE_ALL", ef::flag)
          .in(k_att)
          .meta("BOOL")
          .says("Serialize all kernels, not only traced ones")
          .amd(),
  };
}

}  // namespace rocprof::config::rows
