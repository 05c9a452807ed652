// Pure translations from CUPTI activity records to the backend's events: no state, no ids.
// activity_processor.cpp adds correlation ids, dispatch ids, kernel ids and agents.
#pragma once

#include <cupti.h>

#include "cuda_events.hpp"

namespace rocprof::cuda {

// Which side of a copy is on the host, from CUPTI's copyKind (CUpti_ActivityMemcpyKind).
copy_direction direction_of(uint8_t copy_kind);
const char* memory_kind_name(uint32_t memory_kind);  // CUpti_ActivityMemoryKind, upper case

// Geometry, resources, timestamps and graph ids; ids and agents are left 0.
kernel_event translate(const CUpti_ActivityKernel10& k);
memcpy_event translate(const CUpti_ActivityMemcpy6& m);
memcpy_event translate(const CUpti_ActivityMemcpyPtoP4& m);
memset_event translate(const CUpti_ActivityMemset4& m);
allocation_event translate(const CUpti_ActivityMemory4& m);
api_event translate(const CUpti_ActivityAPI& a, api_domain domain);

}  // namespace rocprof::cuda
