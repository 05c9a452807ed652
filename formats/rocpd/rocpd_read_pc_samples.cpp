// rocpd reader: PC samples (the rocpd_pc_sample extension table, rocpd_pc_samples.cpp writes
// it) back into pc_sample_record, in the order they were written, so that `rocpd convert` gives
// the live run's PC-sampling CSV, JSON arrays and hot-spot report. The writer's NULLs are undone
// field by field: NULL ids are 0, NULL timestamp / exec mask / wave count mean an aggregated
// sample without per-sample detail, extdata's "dispatch_exact": false restores that flag.
//
// Time window: a sample with a timestamp is kept when the timestamp is in the window; an
// aggregated one (no timestamp) by its dispatch's span when the database has that dispatch, else
// it is kept (nothing places it in time).
#include <string>

#include "rocpd/read_batcher.hpp"
#include "rocpd/rocpd_reader_impl.hpp"
#include "rocpd/rocpd_tables.hpp"
#include "rocpd/table_select.hpp"

namespace rocprof::formats::rocpd {

bool reader_impl::read_pc_samples(size_t process, const trace::trace_definitions& defs,
                                  const read_options& options,
                                  const std::vector<trace::writer*>& out, uint64_t& total,
                                  std::string* error) {
  if (!has_table(process, "rocpd_pc_sample")) return true;  // AMD's databases, older ones
  using col = pc_sample_table::column;
  using P = pc_sample_table;
  const auto T = [&](std::string_view base) { return table(process, base); };
  const auto shift = [&options](uint64_t t) {
    return static_cast<uint64_t>(t + options.time_shift_ns);
  };
  const auto string_of = [&defs](const table_select& q, int slot) {
    const uint64_t id = q.is_null(slot) ? 0 : q.u64(slot);
    return id < defs.strings.size() ? static_cast<trace::string_id>(id) : trace::empty_string;
  };
  batcher<trace::pc_sample_record> samples{out, options, total};
  table_select q{db_};
  const int agent = q.column<P>("P", col::agent_id);
  const int method = q.column<P>("P", col::method);
  const int dispatch = q.column<P>("P", col::dispatch_id);
  const int kernel = q.column<P>("P", col::kernel_id);
  const int correlation = q.column<P>("P", col::correlation_id);
  const int code_object = q.column<P>("P", col::code_object_id);
  const int offset = q.column<P>("P", col::code_object_offset);
  const int time = q.column<P>("P", col::timestamp);
  const int exec_mask = q.column<P>("P", col::exec_mask);
  const int wave_count = q.column<P>("P", col::wave_count);
  const int issued = q.column<P>("P", col::wave_issued);
  const int count = q.column<P>("P", col::sample_count);
  const int not_issued = q.column<P>("P", col::not_issued_count);
  const int type = q.column<P>("P", col::instruction_type_id);
  const int reason = q.column<P>("P", col::stall_reason_id);
  const int state = q.column<P>("P", col::vendor_stall_reason_id);
  const int instruction = q.column<P>("P", col::instruction_id);
  const int comment = q.column<P>("P", col::comment_id);
  const int inexact = q.expression(
      "CASE WHEN P.extdata = '{}' THEN 0 ELSE "
      "COALESCE(json_extract(P.extdata, '$.dispatch_exact') = 0, 0) END");
  // The dispatch's span, for the time window of samples without a timestamp (one dispatch row
  // per dispatch id; MIN/MAX keep the join one row per sample whatever the table holds).
  const bool windowed = options.window.active() && has_table(process, "rocpd_kernel_dispatch");
  const int dispatch_start =
      windowed ? q.expression("(SELECT MIN(D.start) FROM " + T("rocpd_kernel_dispatch") +
                              " D WHERE D.dispatch_id = P.dispatch_id)")
               : -1;
  const int dispatch_end =
      windowed ? q.expression("(SELECT MAX(D.end) FROM " + T("rocpd_kernel_dispatch") +
                              " D WHERE D.dispatch_id = P.dispatch_id)")
               : -1;
  if (!q.prepare("FROM " + T("rocpd_pc_sample") + " P ORDER BY P.id")) {
    *error = path_ + ": " + q.error();
    return false;
  }
  while (q.step()) {
    const bool detail = !q.is_null(time);
    if (options.window.active()) {
      if (detail) {
        const uint64_t t = shift(q.u64(time));
        if (!in_window(options.window, t, t)) continue;
      } else if (windowed && !q.is_null(dispatch_start) &&
                 !in_window(options.window, shift(q.u64(dispatch_start)),
                            shift(q.u64(dispatch_end)))) {
        continue;
      }
    }
    auto& r = samples.add();
    r.method = q.text(method) == "HOST_TRAP" ? trace::pc_sample_method::host_trap
                                             : trace::pc_sample_method::stochastic;
    if (!q.is_null(agent)) {
      const auto handle = agent_handles_.find(q.i64(agent));
      r.agent_id = handle != agent_handles_.end() ? handle->second : q.u64(agent);
    }
    r.dispatch_id = q.u64(dispatch);  // NULL reads as 0: unknown
    r.kernel_id = q.u64(kernel);
    r.correlation_internal = q.u64(correlation);
    r.code_object_id = q.u64(code_object);
    r.code_object_offset = q.u64(offset);
    r.has_sample_detail = detail;
    if (detail) {
      r.timestamp_ns = shift(q.u64(time));
      r.exec_mask = q.u64(exec_mask);
      r.wave_count = static_cast<uint32_t>(q.u64(wave_count));
    }
    r.wave_issued = !q.is_null(issued) && q.i64(issued) != 0;
    r.sample_count = q.u64(count);
    r.not_issued_count = q.u64(not_issued);
    r.instruction_type = string_of(q, type);
    r.stall_reason = string_of(q, reason);
    r.warp_state = string_of(q, state);
    r.instruction = string_of(q, instruction);
    r.comment = string_of(q, comment);
    r.dispatch_exact = q.i64(inexact) == 0;
    samples.commit();
  }
  if (!q.error().empty()) {
    *error = path_ + ": " + q.error();
    return false;
  }
  return true;
}

}  // namespace rocprof::formats::rocpd
