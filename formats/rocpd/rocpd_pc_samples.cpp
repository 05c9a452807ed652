// PC samples into rocpd_pc_sample (an extension table: AMD's rocpd layout stores none; columns
// in sql/rocpd_tables.sql). What a vendor did not measure is NULL, never a zero that looks
// measured: NVIDIA's aggregated samples have no timestamp, exec mask or wave count; ids that are
// 0 (unknown dispatch, kernel, code object, correlation) are NULL too.
#include "rocpd/rocpd_writer_impl.hpp"

namespace rocprof::formats::rocpd {
namespace {

void id_or_null(table_insert<pc_sample_table>& row, pc_col c, uint64_t id) {
  if (id != 0)
    row.u64(c, id);
  else
    row.null(c);
}

}  // namespace

void rocpd_writer::write(trace::record_span<trace::pc_sample_record> records) {
  if (!loading()) return;
  auto& row = inserts_->pc_samples;
  const auto string_or_null = [this, &row](pc_col c, trace::string_id id) {
    if (id != 0)
      row.i64(c, sid(id));
    else
      row.null(c);
  };
  for (const auto& r : records) {
    row.i64(pc_col::nid, nid_).i64(pc_col::pid, pid_);
    if (r.agent_id != 0)
      row.i64(pc_col::agent_id, agent_row(r.agent_id));
    else
      row.null(pc_col::agent_id);
    row.text(pc_col::method,
             r.method == trace::pc_sample_method::host_trap ? "HOST_TRAP" : "STOCHASTIC");
    id_or_null(row, pc_col::dispatch_id, r.dispatch_id);
    id_or_null(row, pc_col::kernel_id, r.kernel_id);
    id_or_null(row, pc_col::correlation_id, r.correlation_internal);
    id_or_null(row, pc_col::code_object_id, r.code_object_id);
    row.u64(pc_col::code_object_offset, r.code_object_offset);
    if (r.has_sample_detail) {
      row.u64(pc_col::timestamp, r.timestamp_ns)
          .u64(pc_col::exec_mask, r.exec_mask)
          .u64(pc_col::wave_count, r.wave_count);
    } else {
      row.null(pc_col::timestamp).null(pc_col::exec_mask).null(pc_col::wave_count);
    }
    // Host-trap samples say nothing about issue; stochastic and aggregated ones do.
    if (r.method == trace::pc_sample_method::stochastic)
      row.i64(pc_col::wave_issued, r.wave_issued ? 1 : 0);
    else
      row.null(pc_col::wave_issued);
    row.u64(pc_col::sample_count, r.sample_count).u64(pc_col::not_issued_count, r.not_issued_count);
    string_or_null(pc_col::instruction_type_id, r.instruction_type);
    string_or_null(pc_col::stall_reason_id, r.stall_reason);
    string_or_null(pc_col::vendor_stall_reason_id, r.warp_state);
    string_or_null(pc_col::instruction_id, trace::instruction_of(*defs_, r));
    string_or_null(pc_col::comment_id, r.comment);
    // Continuous NVIDIA sampling knows the kernel, not the launch: dispatch_id is its latest.
    row.text(pc_col::extdata, r.dispatch_exact ? "{}" : R"({"dispatch_exact":false})");
    row.end_row();
  }
  count_rows(records.size);
}

}  // namespace rocprof::formats::rocpd
