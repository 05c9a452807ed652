// NVIDIA's warp states (pc_sampling.h's rocprofiler_pc_sampling_warp_state_t): the name NVIDIA
// spells and the closest rocprofiler-sdk not-issued reason. The documented table
// (docs/user-guide.md, "PC sampling"): "exact" rows name the same hardware condition, the others
// the closest AMD reason; the NVIDIA name always travels with the record (warp_state), so
// nothing is lost by the mapping. Header-only: the core's C entry points and the CUDA backend
// read the same table.
#pragma once

#include <rocprofiler-sdk/pc_sampling.h>

namespace rocprof::pc_sampling {

struct warp_state_row {
  const char* name;  // NVIDIA's spelling
  rocprofiler_pc_sampling_instruction_not_issued_reason_t reason;
};

// Indexed by rocprofiler_pc_sampling_warp_state_t. Why each row maps where it does:
inline constexpr warp_state_row k_warp_states[] = {
    {"none", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE},
    // waiting at a CTA barrier (bar.sync): AMD's s_barrier wait. Exact.
    {"barrier", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_BARRIER_WAIT},
    // waiting for a branch target to be computed: no AMD equivalent.
    {"branch_resolving", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_OTHER_WAIT},
    // picked, but the dispatcher could not send it to its pipe: issued-then-pushed-back.
    {"dispatch_stall", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL},
    // after EXIT, waiting for outstanding memory writes to drain.
    {"drain", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT},
    // immediate-constant cache miss: the instruction's operand is not there yet.
    {"imc_miss", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_OTHER_WAIT},
    // local/global memory instruction queue full: pipe back-pressure.
    {"lg_throttle", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL},
    // waiting for a global/local memory result (scoreboard): AMD's s_waitcnt vmcnt. Exact.
    {"long_scoreboard", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT},
    // the math pipe is busy: pipe back-pressure.
    {"math_pipe_throttle",
     ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL},
    // waiting at a memory barrier (membar / fence): a wait for memory counters.
    {"membar", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT},
    // MIO (shared memory, special math) queue full: pipe back-pressure.
    {"mio_throttle", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL},
    // miscellaneous hardware reason.
    {"misc", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_OTHER_WAIT},
    // instruction not fetched yet (icache miss, after a branch). Exact.
    {"no_instructions",
     ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NO_INSTRUCTION_AVAILABLE},
    // ready, but the scheduler picked another warp. Exact.
    {"not_selected", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_NOT_WIN},
    // the warp issued: not a stall (wave_issued in AMD's terms). Exact.
    {"selected", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE},
    // waiting for a shared-memory / MIO result (scoreboard): AMD's s_waitcnt lgkmcnt.
    {"short_scoreboard", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT},
    // nanosleep / yield. Exact.
    {"sleeping", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_SLEEP_WAIT},
    // texture queue full: pipe back-pressure.
    {"tex_throttle", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL},
    // fixed-latency dependency on a previous ALU result: AMD's ALU dependency. Exact.
    {"wait", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ALU_DEPENDENCY},
    // waiting for the warp group's warps to arrive (Hopper wgmma): a barrier.
    {"warpgroup_arrive", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_BARRIER_WAIT},
};
static_assert(sizeof(k_warp_states) / sizeof(k_warp_states[0]) ==
                  ROCPROFILER_PC_SAMPLING_WARP_STATE_LAST,
              "one row per warp state");

}  // namespace rocprof::pc_sampling
