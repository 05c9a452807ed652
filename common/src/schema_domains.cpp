// The domain table: the schema rows that turn collection on. Each says which record kinds it
// traces (the core's buffer-tracing kind names), which buffer those share, which backend plugin
// records them, which options an aggregate expands to and in which of rocprofv3's steps
// (facts §1.4: kokkos, sys, runtime, hip, hsa, then the CUDA group). Adding a tracing domain
// is one row here; the CLI, the tool and the settings JSON follow it.
#include "schema_rows.hpp"

namespace rocprof::config::rows {
namespace {

using vt = value_type;
using ef = env_form;

// A boolean tracing domain that the tool reads as ROCPROF_<X>.
option_spec trace(std::string_view key, std::string_view long_name, std::string_view env,
                  std::string_view group, std::string_view help) {
  return row(key, long_name).to(env, ef::flag).in(group).meta("BOOL").says(help).tracing_domain();
}

}  // namespace

std::vector<option_spec> domain_rows() {
  return {
      // Aggregates: expanded by the CLI, never written themselves.
      row("runtime_trace", "runtime-trace")
          .s("r")
          .in(k_aggregate)
          .meta("BOOL")
          .says("HIP runtime, CUDA runtime, markers, kernels, memory copies/allocations, scratch, "
                "RCCL, rocDecode, rocJPEG")
          .expands_to(3,
                      "hip_runtime_trace marker_trace kernel_trace memory_copy_trace "
                      "memory_allocation_trace scratch_memory_trace rccl_trace rocdecode_trace "
                      "rocjpeg_trace cuda_runtime_trace"),
      row("sys_trace", "sys-trace")
          .s("s")
          .in(k_aggregate)
          .meta("BOOL")
          .says("Everything of --runtime-trace plus HIP compiler, HSA and CUDA driver APIs")
          .expands_to(2,
                      "hip_trace hsa_trace marker_trace kernel_trace memory_copy_trace "
                      "memory_allocation_trace scratch_memory_trace rccl_trace rocdecode_trace "
                      "rocjpeg_trace cuda_trace"),

      // Basic tracing
      row("hip_trace", "hip-trace")
          .in(k_basic)
          .meta("BOOL")
          .says("HIP runtime and compiler API (= --hip-runtime-trace --hip-compiler-trace)")
          .expands_to(4, "hip_compiler_trace hip_runtime_trace"),
      trace("marker_trace", "marker-trace", "ROCPROF_MARKER_API_TRACE", k_basic,
            "ROCTx and NVTX markers and ranges")
          .traces("MARKER_CORE_RANGE_API MARKER_CONTROL_API"),
      trace("kernel_trace", "kernel-trace", "ROCPROF_KERNEL_TRACE", k_basic, "Kernel dispatches")
          .traces("KERNEL_DISPATCH")
          .by("cuda"),
      trace("memory_copy_trace", "memory-copy-trace", "ROCPROF_MEMORY_COPY_TRACE", k_basic,
            "Asynchronous memory copies")
          .traces("MEMORY_COPY MEMORY_SET")
          .by("cuda"),
      trace("memory_allocation_trace", "memory-allocation-trace", "ROCPROF_MEMORY_ALLOCATION_TRACE",
            k_basic, "Memory allocations and frees")
          .traces("MEMORY_ALLOCATION")
          .by("cuda"),
      trace("scratch_memory_trace", "scratch-memory-trace", "ROCPROF_SCRATCH_MEMORY_TRACE", k_basic,
            "Scratch memory operations (AMD only)")
          .traces("SCRATCH_MEMORY")
          .amd(),
      row("hsa_trace", "hsa-trace")
          .in(k_basic)
          .meta("BOOL")
          .says("All HSA API tables (= core, amd, image and finalizer)")
          .expands_to(5, "hsa_core_trace hsa_amd_trace hsa_image_trace hsa_finalizer_trace"),
      trace("rccl_trace", "rccl-trace", "ROCPROF_RCCL_API_TRACE", k_basic, "RCCL API")
          .traces("RCCL_API")
          .amd(),
      trace("kokkos_trace", "kokkos-trace", "ROCPROF_KOKKOS_TRACE", k_basic,
            "Kokkos Tools connector; implies --marker-trace and --kernel-rename")
          .expands_to(1, "marker_trace kernel_rename")
          .collecting(),
      trace("rocdecode_trace", "rocdecode-trace", "ROCPROF_ROCDECODE_API_TRACE", k_basic,
            "rocDecode API")
          .traces("ROCDECODE_API_EXT")
          .amd(),
      trace("rocjpeg_trace", "rocjpeg-trace", "ROCPROF_ROCJPEG_API_TRACE", k_basic, "rocJPEG API")
          .traces("ROCJPEG_API")
          .amd(),
      row("cuda_trace", "cuda-trace")
          .in(k_basic)
          .meta("BOOL")
          .says("CUDA runtime and driver API (= --cuda-runtime-trace --cuda-driver-trace)")
          .expands_to(6, "cuda_runtime_trace cuda_driver_trace"),

      // Granular tracing
      trace("hip_runtime_trace", "hip-runtime-trace", "ROCPROF_HIP_RUNTIME_API_TRACE", k_granular,
            "Public hip* API")
          .traces("HIP_RUNTIME_API_EXT")
          .shares("hip_api")
          .amd(),
      trace("hip_compiler_trace", "hip-compiler-trace", "ROCPROF_HIP_COMPILER_API_TRACE",
            k_granular, "Compiler-generated __hip* API")
          .traces("HIP_COMPILER_API_EXT")
          .shares("hip_api")
          .amd(),
      trace("hsa_core_trace", "hsa-core-trace", "ROCPROF_HSA_CORE_API_TRACE", k_granular,
            "hsa_* core API")
          .traces("HSA_CORE_API")
          .shares("hsa_api")
          .amd(),
      trace("hsa_amd_trace", "hsa-amd-trace", "ROCPROF_HSA_AMD_EXT_API_TRACE", k_granular,
            "hsa_amd_* extension API")
          .traces("HSA_AMD_EXT_API")
          .shares("hsa_api")
          .amd(),
      trace("hsa_image_trace", "hsa-image-trace", "ROCPROF_HSA_IMAGE_EXT_API_TRACE", k_granular,
            "hsa_ext_image_* API")
          .traces("HSA_IMAGE_EXT_API")
          .shares("hsa_api")
          .amd(),
      trace("hsa_finalizer_trace", "hsa-finalizer-trace", "ROCPROF_HSA_FINALIZER_EXT_API_TRACE",
            k_granular, "hsa_ext_program_* API")
          .traces("HSA_FINALIZE_EXT_API")
          .shares("hsa_api")
          .amd(),
      trace("cuda_runtime_trace", "cuda-runtime-trace", "ROCPROF_CUDA_RUNTIME_API_TRACE",
            k_granular, "CUDA runtime API (cuda*)")
          .traces("CUDA_RUNTIME_API")
          .shares("cuda_api")
          .by("cuda"),
      trace("cuda_driver_trace", "cuda-driver-trace", "ROCPROF_CUDA_DRIVER_API_TRACE", k_granular,
            "CUDA driver API (cu*)")
          .traces("CUDA_DRIVER_API")
          .shares("cuda_api")
          .by("cuda"),
      row("cuda_nested_driver_trace", "cuda-nested-driver-trace")
          .to("ROCPROF_CUDA_NESTED_DRIVER_API", ef::flag)
          .in(k_granular)
          .meta("BOOL")
          .says("Also record the driver calls that CUDA runtime calls make (off: with the "
                "runtime traced, only the application's own driver calls are recorded)"),
      row("cuda_api_records", "cuda-api-records")
          .to("ROCPROF_CUDA_API_RECORDS", ef::custom)
          .in(k_granular)
          .meta("BOOL")
          .says("Record CUDA runtime/driver API calls from CUPTI's asynchronous API activity "
                "records, no callback per call (the default when CUDA API calls are traced; "
                "no arguments; =no: callbacks)"),
      row("cuda_api_args", "cuda-api-args")
          .to("ROCPROF_CUDA_API_ARGS", ef::flag)
          .in(k_granular)
          .meta("BOOL")
          .says("Record CUDA runtime/driver API calls through a callback on each call, with "
                "their arguments (JSON args, Perfetto annotations; costlier than the default)"),
      row("cuda_api_queries", "cuda-api-queries")
          .to("ROCPROF_CUDA_API_QUERIES", ef::flag)
          .in(k_granular)
          .meta("BOOL")
          .says("Also record the CUDA state queries the API trace leaves out by default "
                "(cudaGetDevice, cudaGetLastError, cuCtxGetCurrent, cuKernelGetName, ...: "
                "calls that do no GPU work, made several times per kernel by frameworks)"),

      // Counters
      row("pmc", "pmc")
          .of(vt::string_list)
          .star()
          .to("ROCPROF_COUNTERS", ef::custom)
          .in(k_counters)
          .meta("PMC")
          .says("Counters collected in one pass; each --pmc flag is one more pass")
          .by("cuda")
          .collecting(),
      row("pmc_groups", "")
          .of(vt::group_list)
          .to("ROCPROF_COUNTER_GROUPS", ef::custom)
          .only(option_scope::file_only)
          .in(k_counters)
          .says("Counter groups multiplexed over dispatches (input files only)")
          .by("cuda")
          .collecting(),
      row("pmc_group_interval", "")
          .of(vt::integer)
          .range(1, UINT64_MAX)
          .def("1")
          .to("ROCPROF_COUNTER_GROUPS_INTERVAL", ef::text)
          .only(option_scope::file_only)
          .in(k_counters)
          .says("Dispatches per counter group (input files only)"),
      row("replay_mode", "replay-mode")
          .of(vt::choice)
          .among("kernel application")
          .to("ROCPROF_KERNEL_REPLAY", ef::custom)
          .in(k_counters)
          .meta("MODE")
          .says("Counter groups that need several hardware passes: 'kernel' replays each counted "
                "kernel once per pass within the run (every --pmc group in one run), "
                "'application' runs the application once per group of counters that fits one "
                "pass"),
      row("kernel_replay_beta_enabled", "kernel-replay-beta-enabled")
          .in(k_counters)
          .meta("BOOL")
          .says("Accepted for rocprofv3 compatibility (its kernel replay is a beta); "
                "--replay-mode needs no acknowledgement here"),
      row("counter_chip", "counter-chip")
          .of(vt::string)
          .only(option_scope::cli_only)
          .in(k_counters)
          .meta("CHIP")
          .says("NVIDIA chip or architecture (GH100, sm_90) whose counters --list-avail lists "
                "and --pmc is checked against without a GPU (default: $ROCPROF_COUNTER_CHIP)"),
      // SPM: device-wide counters sampled on the GPU's timer (CUPTI PM sampling on NVIDIA).
      row("spm_beta_enabled", "spm-beta-enabled")
          .to("ROCPROFILER_SPM_BETA_ENABLED", ef::flag)
          .in(k_counters)
          .meta("BOOL")
          .says("Opt in to the SPM beta (needed by --spm, as in rocprofv3)"),
      row("spm", "spm")
          .of(vt::string_list)
          .star()
          .to("ROCPROF_SPM_COUNTERS", ef::custom)
          .in(k_counters)
          .meta("COUNTERS")
          .says("Device-wide counters sampled at a fixed interval for the timeline (one hardware "
                "pass only; not with --pmc or PC sampling)")
          .by("cuda")
          .collecting(),
      row("spm_sample_interval", "spm-sample-interval")
          .of(vt::integer)
          .def("100")
          .to("ROCPROF_SPM_SAMPLE_INTERVAL", ef::text)
          .in(k_counters)
          .meta("INTERVAL")
          .says("SPM sampling interval, in --spm-sample-interval-unit (minimum 1 us)"),
      row("spm_sample_interval_unit", "spm-sample-interval-unit")
          .of(vt::choice)
          .among("us ns")
          .def("us")
          .to("ROCPROF_SPM_SAMPLE_INTERVAL_UNIT", ef::text)
          .in(k_counters)
          .meta("UNIT")
          .says("Unit of --spm-sample-interval: us or ns (NVIDIA samples on GPU time; "
                "rocprofv3's sclk_cycles has no equivalent)"),
      row("spm_counter_collection", "")
          .def("0")
          .to("ROCPROF_SPM_COUNTER_COLLECTION", ef::flag)
          .only(option_scope::env_only)
          .says("Set by the CLI whenever --spm counters are requested"),
      row("counter_collection", "")
          .def("0")
          .to("ROCPROF_COUNTER_COLLECTION", ef::flag)
          .only(option_scope::env_only)
          .says("Set by the CLI whenever counters are requested"),
  };
}

}  // namespace rocprof::config::rows
