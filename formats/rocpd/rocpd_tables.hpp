// The columns of every rocpd table, declared once, in the schema's order. The CREATE TABLE text
// stays in sql/rocpd_tables.sql (AMD's tooling and the compatibility tests read that file);
// test_rocpd_tables checks each declaration against the table the SQL creates, name by name, and
// that every table of the SQL is declared. The writer's INSERT statements are built from these
// declarations (table_insert.hpp), so an INSERT can only name a declared column.
//
// Each ROCPD_TABLE_<NAME>(COLUMN) list expands, through ROCPD_DECLARE_TABLE, to
//   struct <name>_table {
//     static constexpr std::string_view table_name;       // without the uuid suffix
//     enum class column : uint8_t { <columns> };
//     static constexpr std::string_view column_names[];   // indexed by column
//   };
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

// One list per table, the columns wrapped by hand (clang-format would reflow them).
// clang-format off
#define ROCPD_TABLE_METADATA(COLUMN)   \
  COLUMN(id) COLUMN(tag) COLUMN(value)

#define ROCPD_TABLE_STRING(COLUMN)       \
  COLUMN(id) COLUMN(guid) COLUMN(string)

#define ROCPD_TABLE_INFO_NODE(COLUMN)                                         \
  COLUMN(id) COLUMN(guid) COLUMN(hash) COLUMN(machine_id) COLUMN(system_name) \
  COLUMN(hostname) COLUMN(release) COLUMN(version) COLUMN(hardware_name)      \
  COLUMN(domain_name)

#define ROCPD_TABLE_INFO_PROCESS(COLUMN)                                                 \
  COLUMN(id) COLUMN(guid) COLUMN(nid) COLUMN(ppid) COLUMN(pid) COLUMN(init) COLUMN(fini) \
  COLUMN(start) COLUMN(end) COLUMN(command) COLUMN(environment) COLUMN(extdata)

#define ROCPD_TABLE_INFO_THREAD(COLUMN)                                                 \
  COLUMN(id) COLUMN(guid) COLUMN(nid) COLUMN(ppid) COLUMN(pid) COLUMN(tid) COLUMN(name) \
  COLUMN(start) COLUMN(end) COLUMN(extdata)

#define ROCPD_TABLE_INFO_AGENT(COLUMN)                                                  \
  COLUMN(id) COLUMN(guid) COLUMN(nid) COLUMN(pid) COLUMN(type) COLUMN(absolute_index)   \
  COLUMN(logical_index) COLUMN(type_index) COLUMN(uuid) COLUMN(name) COLUMN(model_name) \
  COLUMN(vendor_name) COLUMN(product_name) COLUMN(user_name) COLUMN(extdata)

#define ROCPD_TABLE_INFO_QUEUE(COLUMN)                                         \
  COLUMN(id) COLUMN(guid) COLUMN(nid) COLUMN(pid) COLUMN(name) COLUMN(extdata)

#define ROCPD_TABLE_INFO_STREAM(COLUMN)                                        \
  COLUMN(id) COLUMN(guid) COLUMN(nid) COLUMN(pid) COLUMN(name) COLUMN(extdata)

#define ROCPD_TABLE_INFO_PMC(COLUMN)                                                      \
  COLUMN(id) COLUMN(guid) COLUMN(nid) COLUMN(pid) COLUMN(agent_id) COLUMN(target_arch)    \
  COLUMN(event_code) COLUMN(instance_id) COLUMN(name) COLUMN(symbol) COLUMN(description)  \
  COLUMN(long_description) COLUMN(component) COLUMN(units) COLUMN(value_type)             \
  COLUMN(block) COLUMN(expression) COLUMN(is_constant) COLUMN(is_derived) COLUMN(extdata)

#define ROCPD_TABLE_INFO_CODE_OBJECT(COLUMN)                                   \
  COLUMN(id) COLUMN(guid) COLUMN(nid) COLUMN(pid) COLUMN(agent_id) COLUMN(uri) \
  COLUMN(load_base) COLUMN(load_size) COLUMN(load_delta) COLUMN(storage_type)  \
  COLUMN(extdata)

#define ROCPD_TABLE_INFO_KERNEL_SYMBOL(COLUMN)                               \
  COLUMN(id) COLUMN(guid) COLUMN(nid) COLUMN(pid) COLUMN(code_object_id)     \
  COLUMN(kernel_name) COLUMN(display_name) COLUMN(kernel_object)             \
  COLUMN(kernarg_segment_size) COLUMN(kernarg_segment_alignment)             \
  COLUMN(group_segment_size) COLUMN(private_segment_size) COLUMN(sgpr_count) \
  COLUMN(arch_vgpr_count) COLUMN(accum_vgpr_count) COLUMN(extdata)

#define ROCPD_TABLE_TRACK(COLUMN)                                             \
  COLUMN(id) COLUMN(guid) COLUMN(nid) COLUMN(pid) COLUMN(tid) COLUMN(name_id) \
  COLUMN(extdata)

#define ROCPD_TABLE_EVENT(COLUMN)                                                      \
  COLUMN(id) COLUMN(guid) COLUMN(category_id) COLUMN(stack_id) COLUMN(parent_stack_id) \
  COLUMN(correlation_id) COLUMN(call_stack) COLUMN(line_info) COLUMN(extdata)

#define ROCPD_TABLE_ARG(COLUMN)                                                       \
  COLUMN(id) COLUMN(guid) COLUMN(event_id) COLUMN(position) COLUMN(type) COLUMN(name) \
  COLUMN(value) COLUMN(extdata)

#define ROCPD_TABLE_PMC_EVENT(COLUMN)                                                   \
  COLUMN(id) COLUMN(guid) COLUMN(event_id) COLUMN(pmc_id) COLUMN(value) COLUMN(extdata)

#define ROCPD_TABLE_REGION(COLUMN)                                                      \
  COLUMN(id) COLUMN(guid) COLUMN(nid) COLUMN(pid) COLUMN(tid) COLUMN(start) COLUMN(end) \
  COLUMN(name_id) COLUMN(event_id) COLUMN(extdata)

#define ROCPD_TABLE_SAMPLE(COLUMN)                                            \
  COLUMN(id) COLUMN(guid) COLUMN(track_id) COLUMN(timestamp) COLUMN(event_id) \
  COLUMN(extdata)

#define ROCPD_TABLE_KERNEL_DISPATCH(COLUMN)                                              \
  COLUMN(id) COLUMN(guid) COLUMN(nid) COLUMN(pid) COLUMN(tid) COLUMN(agent_id)           \
  COLUMN(kernel_id) COLUMN(dispatch_id) COLUMN(queue_id) COLUMN(stream_id) COLUMN(start) \
  COLUMN(end) COLUMN(private_segment_size) COLUMN(group_segment_size)                    \
  COLUMN(workgroup_size_x) COLUMN(workgroup_size_y) COLUMN(workgroup_size_z)             \
  COLUMN(grid_size_x) COLUMN(grid_size_y) COLUMN(grid_size_z) COLUMN(region_name_id)     \
  COLUMN(event_id) COLUMN(extdata)

#define ROCPD_TABLE_MEMORY_COPY(COLUMN)                                                 \
  COLUMN(id) COLUMN(guid) COLUMN(nid) COLUMN(pid) COLUMN(tid) COLUMN(start) COLUMN(end) \
  COLUMN(name_id) COLUMN(dst_agent_id) COLUMN(dst_address) COLUMN(src_agent_id)         \
  COLUMN(src_address) COLUMN(size) COLUMN(queue_id) COLUMN(stream_id)                   \
  COLUMN(region_name_id) COLUMN(event_id) COLUMN(extdata)

#define ROCPD_TABLE_MEMORY_ALLOCATE(COLUMN)                                         \
  COLUMN(id) COLUMN(guid) COLUMN(nid) COLUMN(pid) COLUMN(tid) COLUMN(agent_id)      \
  COLUMN(type) COLUMN(level) COLUMN(start) COLUMN(end) COLUMN(address) COLUMN(size) \
  COLUMN(queue_id) COLUMN(stream_id) COLUMN(event_id) COLUMN(extdata)

// Extension (sql/rocpd_tables.sql says why).
#define ROCPD_TABLE_PC_SAMPLE(COLUMN)                                                       \
  COLUMN(id) COLUMN(guid) COLUMN(nid) COLUMN(pid) COLUMN(agent_id) COLUMN(method)           \
  COLUMN(dispatch_id) COLUMN(kernel_id) COLUMN(correlation_id) COLUMN(code_object_id)       \
  COLUMN(code_object_offset) COLUMN(timestamp) COLUMN(exec_mask) COLUMN(wave_count)         \
  COLUMN(wave_issued) COLUMN(sample_count) COLUMN(not_issued_count)                         \
  COLUMN(instruction_type_id) COLUMN(stall_reason_id) COLUMN(vendor_stall_reason_id)        \
  COLUMN(instruction_id) COLUMN(comment_id) COLUMN(extdata)

// Every table above, as (struct name, SQL name without the uuid suffix, column list).
#define ROCPD_TABLES(TABLE)                                                                   \
  TABLE(metadata_table, "rocpd_metadata", ROCPD_TABLE_METADATA)                               \
  TABLE(string_table, "rocpd_string", ROCPD_TABLE_STRING)                                     \
  TABLE(info_node_table, "rocpd_info_node", ROCPD_TABLE_INFO_NODE)                            \
  TABLE(info_process_table, "rocpd_info_process", ROCPD_TABLE_INFO_PROCESS)                   \
  TABLE(info_thread_table, "rocpd_info_thread", ROCPD_TABLE_INFO_THREAD)                      \
  TABLE(info_agent_table, "rocpd_info_agent", ROCPD_TABLE_INFO_AGENT)                         \
  TABLE(info_queue_table, "rocpd_info_queue", ROCPD_TABLE_INFO_QUEUE)                         \
  TABLE(info_stream_table, "rocpd_info_stream", ROCPD_TABLE_INFO_STREAM)                      \
  TABLE(info_pmc_table, "rocpd_info_pmc", ROCPD_TABLE_INFO_PMC)                               \
  TABLE(info_code_object_table, "rocpd_info_code_object", ROCPD_TABLE_INFO_CODE_OBJECT)       \
  TABLE(info_kernel_symbol_table, "rocpd_info_kernel_symbol", ROCPD_TABLE_INFO_KERNEL_SYMBOL) \
  TABLE(track_table, "rocpd_track", ROCPD_TABLE_TRACK)                                        \
  TABLE(event_table, "rocpd_event", ROCPD_TABLE_EVENT)                                        \
  TABLE(arg_table, "rocpd_arg", ROCPD_TABLE_ARG)                                              \
  TABLE(pmc_event_table, "rocpd_pmc_event", ROCPD_TABLE_PMC_EVENT)                            \
  TABLE(region_table, "rocpd_region", ROCPD_TABLE_REGION)                                     \
  TABLE(sample_table, "rocpd_sample", ROCPD_TABLE_SAMPLE)                                     \
  TABLE(kernel_dispatch_table, "rocpd_kernel_dispatch", ROCPD_TABLE_KERNEL_DISPATCH)          \
  TABLE(memory_copy_table, "rocpd_memory_copy", ROCPD_TABLE_MEMORY_COPY)                      \
  TABLE(memory_allocate_table, "rocpd_memory_allocate", ROCPD_TABLE_MEMORY_ALLOCATE)          \
  TABLE(pc_sample_table, "rocpd_pc_sample", ROCPD_TABLE_PC_SAMPLE)
// clang-format on

namespace rocprof::formats::rocpd {

#define ROCPD_COLUMN_ENUMERATOR(name) name,
#define ROCPD_COLUMN_NAME(name) #name,
#define ROCPD_DECLARE_TABLE(type, sql_name, COLUMNS)                                 \
  struct type {                                                                      \
    static constexpr std::string_view table_name = sql_name;                         \
    enum class column : uint8_t { COLUMNS(ROCPD_COLUMN_ENUMERATOR) };                \
    static constexpr std::string_view column_names[] = {COLUMNS(ROCPD_COLUMN_NAME)}; \
    static constexpr size_t column_count = std::size(column_names);                  \
  };
ROCPD_TABLES(ROCPD_DECLARE_TABLE)
#undef ROCPD_DECLARE_TABLE
#undef ROCPD_COLUMN_NAME
#undef ROCPD_COLUMN_ENUMERATOR

}  // namespace rocprof::formats::rocpd
