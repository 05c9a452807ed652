// rocprofiler_counter_info_v0_t / _v1_t for rocprofiler_query_counter_info, and the dimension
// arrays of rocprofiler_iterate_counter_dimensions. The structs hold pointers the tool may
// keep until exit, so each counter's description is built once and never freed (a counter
// whose catalogue was rebuilt gets a new one; the old stays valid).
#pragma once

#include <cstdint>
#include <vector>

#include "counters/counter_store.hpp"
#include "rocprofiler-sdk/counters.h"

namespace rocprof::core::counters {

/// A counter's dimensions as the API reports them: its own, or DIMENSION_INSTANCE of size 1
/// for a single value (rocprofv3 lists DIMENSION_INSTANCE[0:0]).
std::vector<rc::dimension> reported_dimensions(const rc::counter_info& info);

struct counter_description;  // opaque storage

/// The description of a known counter; nullptr when the id is unknown.
const counter_description* describe(uint64_t counter_id);

void fill_v0(const counter_description& d, rocprofiler_counter_info_v0_t& out);
void fill_v1(const counter_description& d, rocprofiler_counter_info_v1_t& out);
const rocprofiler_counter_record_dimension_info_t* dimensions_of(const counter_description& d,
                                                                 size_t& count);
/// The dimension sizes, in order (for decoding instance ids).
const std::vector<uint64_t>& dimension_sizes(const counter_description& d);
const std::vector<uint64_t>& dimension_ids(const counter_description& d);

}  // namespace rocprof::core::counters
