// The test backend's fake native counters (a small "sm_90" agent): what list_counters,
// describe_counter and create_counter_set answer, and the values a counted launch reports
// (functions of the launch's grid size, so tests can predict them).
#pragma once

#include <rocprofiler-sdk/backend/backend_abi.h>

#include <cstdint>

namespace test_counters {

inline constexpr uint64_t max_set_size = 16;

/// Fills the counter entries of the backend's ABI table.
void install(rocprof_backend_t* out);
/// Fills the device sampler entries (test_backend_sampler.cpp).
void install_sampler(rocprof_backend_t* out);
/// The one agent whose counters these are.
void set_agent(rocprofiler_agent_id_t agent);
/// The values of set `set` (in its names' order) for a launch of grid_x threads; returns
/// how many. smsp__warps_launched.sum = grid_x / 32, dram__bytes_read.sum = 4 * grid_x,
/// dram__bytes_write.sum = 8 * grid_x, test__per_instance.sum (DIMENSION_INSTANCE of 4):
/// 1, 2, 3, 4, anything else 1.
uint64_t values_for(uint64_t set, uint32_t grid_x, double* values);

}  // namespace test_counters
