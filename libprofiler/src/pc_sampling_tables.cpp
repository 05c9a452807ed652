// Names of the PC sampling enums, and the C entry points over the warp-state table
// (rocprof/common/pc_sampling_warp_states.hpp, shared with the CUDA backend).
#include <cstddef>

#include "guarded.hpp"
#include "rocprof/common/pc_sampling_warp_states.hpp"

#include "rocprofiler-sdk/pc_sampling.h"

namespace rocprof::core {
namespace {

const char* const k_instruction_type_names[] = {
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NONE",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_VALU",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_MATRIX",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_SCALAR",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_TEX",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LDS",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LDS_DIRECT",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_FLAT",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_EXPORT",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_MESSAGE",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BARRIER",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BRANCH_NOT_TAKEN",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BRANCH_TAKEN",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_JUMP",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_OTHER",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NO_INST",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_DUAL_VALU",
};
static_assert(sizeof(k_instruction_type_names) / sizeof(k_instruction_type_names[0]) ==
                  ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LAST,
              "one name per instruction type");

const char* const k_not_issued_names[] = {
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NO_INSTRUCTION_AVAILABLE",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ALU_DEPENDENCY",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_INTERNAL_INSTRUCTION",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_BARRIER_WAIT",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_NOT_WIN",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_OTHER_WAIT",
    "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_SLEEP_WAIT",
};
static_assert(sizeof(k_not_issued_names) / sizeof(k_not_issued_names[0]) ==
                  ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_LAST,
              "one name per not-issued reason");

template <typename Enum, size_t N>
const char* name_in(const char* const (&names)[N], Enum value) {
  const auto i = static_cast<size_t>(value);
  return static_cast<int>(value) >= 0 && i < N ? names[i] : nullptr;
}

}  // namespace
}  // namespace rocprof::core

extern "C" {

using namespace rocprof::core;

ROCPROFILER_API const char* rocprofiler_get_pc_sampling_instruction_type_name(
    rocprofiler_pc_sampling_instruction_type_t instruction_type) {
  const char* none = nullptr;
  return guarded_or(__func__, none,
                    [=] { return name_in(k_instruction_type_names, instruction_type); });
}

ROCPROFILER_API const char* rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(
    rocprofiler_pc_sampling_instruction_not_issued_reason_t not_issued_reason) {
  const char* none = nullptr;
  return guarded_or(__func__, none, [=] { return name_in(k_not_issued_names, not_issued_reason); });
}

ROCPROFILER_API rocprofiler_pc_sampling_instruction_not_issued_reason_t
rocprofiler_pc_sampling_map_warp_state(rocprofiler_pc_sampling_warp_state_t state) {
  return guarded_or(__func__, ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE, [=] {
    const auto i = static_cast<size_t>(state);
    if (static_cast<int>(state) < 0 || i >= ROCPROFILER_PC_SAMPLING_WARP_STATE_LAST)
      return ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE;
    return rocprof::pc_sampling::k_warp_states[i].reason;
  });
}

ROCPROFILER_API const char* rocprofiler_get_pc_sampling_warp_state_name(
    rocprofiler_pc_sampling_warp_state_t state) {
  const char* none = nullptr;
  return guarded_or(__func__, none, [=]() -> const char* {
    const auto i = static_cast<size_t>(state);
    if (static_cast<int>(state) < 0 || i >= ROCPROFILER_PC_SAMPLING_WARP_STATE_LAST) return nullptr;
    return rocprof::pc_sampling::k_warp_states[i].name;
  });
}

}  // extern "C"
