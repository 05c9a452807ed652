// PC sampling in the tool (--pc-sampling-*): one PC sampling service on the main context per
// GPU agent, into a buffer of its own.
#pragma once

#include <rocprofiler-sdk/rocprofiler.h>

#include <rocprof/trace/model.hpp>

#include <string>
#include <vector>

namespace rocprof::tool {

struct tool_state;

// Creates a buffer of the tool's usual shape on `context` (services.cpp); false if it failed
// (reported).
bool make_buffer(tool_state& tool, rocprofiler_context_id_t context, rocprofiler_buffer_id_t* out);

// With settings.pc_sampling_method set: asks every backend for its agents (GPU agents exist
// before the application initialises its GPU runtime only that way), then configures PC sampling
// on each GPU agent. Failures are reported on stderr with what the agent offers.
void configure_pc_sampling(tool_state& tool);

// After the last drain: what the samplers lost, on stderr when anything was (CUPTI's dropped
// samples, and samples of code no loaded module holds, which cannot be attributed).
void report_pc_sampling_losses(const tool_state& tool);

// After the last drain and before the definitions' snapshot: the instruction text of the
// sampled PCs (NVIDIA: nvdisasm's SASS, one run per code object with samples), the texts
// interned in tool.defs, as the sorted table for trace_definitions::pc_instructions, so that the
// writers fill the Instruction column of samples that came without one.
std::vector<trace::pc_instruction> sampled_pc_instructions(const tool_state& tool);

// "N dropped, M in code of no loaded module (not attributed), K reads found the hardware buffer
// full (...)": the non-zero losses, "" when none.
std::string describe_losses(const rocprofiler_pc_sampling_loss_t& loss);

}  // namespace rocprof::tool
