// Host call stacks of kernel launches into the rocpd_kernel_callstack extension table
// (sql/kernel_callstack.sql): one row per frame of each dispatch's launch stack. The table and
// its views exist only in databases of runs that recorded stacks, so every other database keeps
// exactly AMD's layout (plus rocpd_pc_sample).
#include "rocpd/rocpd_schema.hpp"
#include "rocpd/rocpd_writer_impl.hpp"

namespace rocprof::formats::rocpd {
namespace {

// The inserted columns, in slot order.
enum slot : size_t {
  nid,
  pid,
  dispatch_id,
  correlation_id,
  callstack_id,
  depth,
  address,
  function_id,
  file_id,
  line,
  module_id
};

}  // namespace

void rocpd_writer::begin_callstacks() {
  if (defs_->launch_callstacks.empty() || !loading()) return;
  ROCPD_EXEC(db_, expand_schema(kernel_callstack_sql, uuid_, guid_));
  callstack_rows_.emplace(
      db_, "rocpd_kernel_callstack" + uuid_suffix_,
      std::vector<std::string>{"nid", "pid", "dispatch_id", "correlation_id", "callstack_id",
                               "depth", "address", "function_id", "file_id", "line", "module_id"});
}

void rocpd_writer::write_callstack(const trace::kernel_dispatch_record& r) {
  const uint64_t id = defs_->callstack_of(r.corr.internal);
  const trace::host_callstack_info* stack = defs_->host_callstack(id);
  if (stack == nullptr) return;
  auto& rows = *callstack_rows_;
  for (size_t d = 0; d < stack->frames.size(); ++d) {
    const trace::host_frame& f = stack->frames[d];
    rows.i64(nid, nid_);
    rows.i64(pid, pid_);
    rows.i64(dispatch_id, static_cast<int64_t>(r.dispatch_id));
    rows.i64(correlation_id, static_cast<int64_t>(r.corr.internal));
    rows.i64(callstack_id, static_cast<int64_t>(id));
    rows.i64(depth, static_cast<int64_t>(d));
    rows.i64(address, static_cast<int64_t>(f.address));
    rows.i64(function_id, sid(std::string_view{f.function}));
    rows.i64(file_id, sid(std::string_view{f.file}));
    if (f.line != 0)
      rows.i64(line, f.line);
    else
      rows.null(line);
    rows.i64(module_id, sid(std::string_view{f.module}));
    rows.end_row();
  }
  count_rows(stack->frames.size());
}

}  // namespace rocprof::formats::rocpd
