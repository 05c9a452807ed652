// Number and name formatting shared by the text writers. Appends to a std::string so that a
// writer builds each row in one reusable buffer (fmt, no iostreams).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "rocprof/trace/model.hpp"

namespace rocprof::formats {

void append_uint(std::string& out, uint64_t v);
void append_int(std::string& out, int64_t v);
// Trace CSV doubles (§3.4): fixed with 6 decimals when >= 1, else scientific with 8 digits.
void append_trace_double(std::string& out, double v);
// Stats CSV doubles: fixed with 6 decimals when > 0.01, else scientific with 8 digits.
void append_stats_double(std::string& out, double v);
// Stats CSV percentage: 2 decimals when >= 1, 4 when > 0.01, else scientific with 3 digits.
void append_stats_percent(std::string& out, double v);
// "0x" + 16 lowercase hex digits, e.g. 0x00007ffb26354000.
void append_hex_address(std::string& out, uint64_t v);
// "..." around the text. An embedded '"' is doubled (RFC 4180): rocprofv3 does not escape and
// writes a broken row for such names (§15.9); for every other string the output is the same.
void append_quoted(std::string& out, std::string_view s);

// Record-kind and operation names (buffer-tracing kind names minus their prefix).
std::string_view copy_direction_name(trace::memory_copy_direction d);  // MEMORY_COPY_HOST_TO_DEVICE
std::string_view allocation_operation_name(trace::memory_allocation_operation op);
std::string_view scratch_operation_name(trace::scratch_memory_operation op);
inline constexpr std::string_view kernel_dispatch_kind = "KERNEL_DISPATCH";
inline constexpr std::string_view memory_copy_kind = "MEMORY_COPY";
inline constexpr std::string_view memory_set_kind = "MEMORY_SET";
inline constexpr std::string_view memory_allocation_kind = "MEMORY_ALLOCATION";
inline constexpr std::string_view scratch_memory_kind = "SCRATCH_MEMORY";
inline constexpr std::string_view counter_collection_kind = "COUNTER_COLLECTION";
// The event category of a device-wide counter sample in rocpd (formats/rocpd/README.md).
inline constexpr std::string_view device_counter_sample_kind = "DEVICE_COUNTER_SAMPLE";

// The name an API record is shown under in CSV Function, stats and summaries: the user message
// for markers that carry one, else the API function name.
std::string_view api_display_name(const trace::trace_definitions& defs, const trace::api_record& r);

}  // namespace rocprof::formats
