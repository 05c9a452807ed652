// Field numbers of the Perfetto protos we write, from perfetto_trace.proto (package
// perfetto.protos). One namespace per message so that a field is always named with its message.
#pragma once

#include <cstdint>

namespace rocprof::trace::perfetto::fields {

namespace trace_packet {
inline constexpr uint32_t timestamp = 8;
inline constexpr uint32_t trusted_packet_sequence_id = 10;
inline constexpr uint32_t track_event = 11;
inline constexpr uint32_t interned_data = 12;
inline constexpr uint32_t sequence_flags = 13;
inline constexpr uint32_t trace_packet_defaults = 59;
inline constexpr uint32_t track_descriptor = 60;
inline constexpr uint32_t first_packet_on_sequence = 87;
}  // namespace trace_packet

namespace trace_packet_defaults {
inline constexpr uint32_t track_event_defaults = 11;
}  // namespace trace_packet_defaults

namespace track_event_defaults {
inline constexpr uint32_t track_uuid = 11;
}  // namespace track_event_defaults

namespace sequence_flags {
inline constexpr uint64_t incremental_state_cleared = 1;
inline constexpr uint64_t needs_incremental_state = 2;
}  // namespace sequence_flags

namespace track_descriptor {
inline constexpr uint32_t uuid = 1;
inline constexpr uint32_t name = 2;
inline constexpr uint32_t process = 3;
inline constexpr uint32_t thread = 4;
inline constexpr uint32_t parent_uuid = 5;
inline constexpr uint32_t counter = 8;
}  // namespace track_descriptor

namespace process_descriptor {
inline constexpr uint32_t pid = 1;
inline constexpr uint32_t cmdline = 2;
inline constexpr uint32_t process_name = 6;
}  // namespace process_descriptor

namespace thread_descriptor {
inline constexpr uint32_t pid = 1;
inline constexpr uint32_t tid = 2;
inline constexpr uint32_t thread_name = 5;
}  // namespace thread_descriptor

namespace counter_descriptor {
inline constexpr uint32_t unit = 3;
inline constexpr uint32_t is_incremental = 5;
inline constexpr uint64_t unit_count = 2;
inline constexpr uint64_t unit_size_bytes = 3;
}  // namespace counter_descriptor

namespace track_event {
inline constexpr uint32_t category_iids = 3;
inline constexpr uint32_t debug_annotations = 4;
inline constexpr uint32_t type = 9;
inline constexpr uint32_t name_iid = 10;
inline constexpr uint32_t track_uuid = 11;
inline constexpr uint32_t counter_value = 30;
inline constexpr uint32_t double_counter_value = 44;
inline constexpr uint32_t flow_ids = 47;              // repeated fixed64
inline constexpr uint32_t terminating_flow_ids = 48;  // repeated fixed64
inline constexpr uint64_t type_slice_begin = 1;
inline constexpr uint64_t type_slice_end = 2;
inline constexpr uint64_t type_counter = 4;
}  // namespace track_event

namespace debug_annotation {
inline constexpr uint32_t name_iid = 1;
inline constexpr uint32_t name = 10;  // a name not interned (API argument names)
inline constexpr uint32_t uint_value = 3;
inline constexpr uint32_t int_value = 4;
inline constexpr uint32_t double_value = 5;
inline constexpr uint32_t string_value = 6;
}  // namespace debug_annotation

namespace interned_data {
inline constexpr uint32_t event_categories = 1;
inline constexpr uint32_t event_names = 2;
inline constexpr uint32_t debug_annotation_names = 3;
// EventCategory, EventName and DebugAnnotationName share the layout {iid = 1, name = 2}.
inline constexpr uint32_t entry_iid = 1;
inline constexpr uint32_t entry_name = 2;
}  // namespace interned_data

}  // namespace rocprof::trace::perfetto::fields
