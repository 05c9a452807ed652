// --spm: device-wide counters sampled on the GPU's timer, through the core's SPM service
// (spm.h), as rocprofv3's SPM beta collects them:
//   * its own context, started and stopped with the main context (like the counter context);
//   * the GPUs are listed at initialisation (rocprof_backend_discover_agents: the driver is
//     initialised then), one counter config per GPU of the --spm names;
//   * each hardware sample's values become device_counter_sample_records (agent, counter,
//     the sample's start on CLOCK_BOOTTIME, value) in the spool; writers draw them as counter
//     tracks beside the kernels of the same run.
// What the hardware refuses (counters needing several passes, an interval below the minimum)
// is reported on stderr with the backend's explanation when the context starts.
#pragma once

namespace rocprof::tool {

struct tool_state;

// Inside the core's initialize call; nothing unless --spm counters were asked for. False
// (after saying why on stderr) when SPM cannot be configured.
bool configure_spm_collection(tool_state& tool);
void start_spm(tool_state& tool);
void stop_spm(tool_state& tool);

}  // namespace rocprof::tool
