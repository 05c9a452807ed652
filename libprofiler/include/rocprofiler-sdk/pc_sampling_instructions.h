// Extension of pc_sampling.h (its own header so that the SDK's headers stay as they were): the
// instruction text of sampled PCs, which NVIDIA's backend finds at the end of a run by
// disassembling the sampled cubins with the CUDA toolkit's nvdisasm.
#pragma once

#include "rocprofiler-sdk/pc_sampling.h"

ROCPROFILER_EXTERN_C_INIT

/// Extension: the instruction text of one sampled PC (NVIDIA: the SASS that the CUDA toolkit's
/// nvdisasm prints for it). `pc.code_object_offset` is relative to the kernel's function, so
/// `kernel_id` says which function of the code object; `text` lives for the callback only.
typedef struct rocprofiler_pc_sampling_instruction_t {
  uint64_t size;
  rocprofiler_pc_t pc;
  rocprofiler_kernel_id_t kernel_id;  ///< 0 when unknown
  const char* text;                   ///< e.g. "FFMA R5, R4, R5, R6", "@!P0 BRA `(.L_x_0)"
} rocprofiler_pc_sampling_instruction_t;

typedef void (*rocprofiler_pc_sampling_instruction_cb_t)(
    const rocprofiler_pc_sampling_instruction_t* instruction, void* user_data);

/// Extension: calls `cb` once per sampled PC whose instruction text is known. Meant for the end
/// of a run, after the last drain: the backend may run a disassembler once per code object with
/// samples (seconds). PCs without text (no disassembler, code it cannot read) are skipped.
rocprofiler_status_t rocprofiler_query_pc_sampling_instructions(
    rocprofiler_pc_sampling_instruction_cb_t cb, void* user_data) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI
