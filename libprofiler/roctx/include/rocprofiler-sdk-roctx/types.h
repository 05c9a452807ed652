// ROCTx types.
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t roctx_range_id_t;   ///< id of a process range (roctxRangeStartA)
typedef uint64_t roctx_thread_id_t;  ///< OS thread id

struct hsa_agent_s;
struct ihipStream_t;

#ifdef __cplusplus
}
#endif
