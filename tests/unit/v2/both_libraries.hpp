// What the two halves of the two-libraries tests offer each other, in plain types (the v2 and
// core headers cannot meet in one translation unit).
#pragma once

#include <cstdint>

namespace both {

int v2_create_buffer_status();  // v2's rocprofiler_create_buffer on an unknown session
uint64_t v2_timestamp();        // v2's rocprofiler_get_timestamp
int v2_initialize();
int v2_finalize();
int core_create_buffer_status();  // the core's rocprofiler_create_buffer outside configuration
uint64_t core_timestamp();        // the core's rocprofiler_get_timestamp
int core_initialized();           // the core's rocprofiler_is_initialized

}  // namespace both
