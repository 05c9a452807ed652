// rocpd reader: device-wide counter samples (the layout formats/rocpd/README.md describes): each
// rocpd_sample of an event of category DEVICE_COUNTER_SAMPLE, its value from the event's
// rocpd_pmc_event, its agent from its track's extdata; in the order they were written.
#include <string>

#include "common/number_format.hpp"
#include "rocpd/read_batcher.hpp"
#include "rocpd/rocpd_reader_impl.hpp"
#include "rocpd/rocpd_tables.hpp"
#include "rocpd/table_select.hpp"

namespace rocprof::formats::rocpd {

bool reader_impl::read_device_samples(size_t process, const read_options& options,
                                      const std::vector<trace::writer*>& out, uint64_t& total,
                                      std::string* error) {
  const auto category = string_ids_.find(std::string{device_counter_sample_kind});
  if (category == string_ids_.end()) return true;  // none written
  const auto T = [&](std::string_view base) { return table(process, base); };
  batcher<trace::device_counter_sample_record> samples{out, options, total};
  table_select q{db_};
  const int time = q.column<sample_table>("S", sample_table::column::timestamp);
  const int counter = q.column<pmc_event_table>("P", pmc_event_table::column::pmc_id);
  const int value = q.column<pmc_event_table>("P", pmc_event_table::column::value);
  const int agent = q.expression("json_extract(K.extdata, '$.agent_id')");
  if (!q.prepare("FROM " + T("rocpd_sample") + " S JOIN " + T("rocpd_event") +
                 " E ON E.id = S.event_id JOIN " + T("rocpd_pmc_event") +
                 " P ON P.event_id = E.id JOIN " + T("rocpd_track") +
                 " K ON K.id = S.track_id WHERE E.category_id = " +
                 std::to_string(category->second) + " ORDER BY S.rowid")) {
    *error = path_ + ": " + q.error();
    return false;
  }
  while (q.step()) {
    const uint64_t t = static_cast<uint64_t>(q.u64(time) + options.time_shift_ns);
    if (!in_window(options.window, t, t)) continue;
    auto& r = samples.add();
    r.timestamp_ns = t;
    r.counter_id = q.u64(counter);
    const int64_t row = q.is_null(agent) ? 0 : q.i64(agent);
    const auto handle = agent_handles_.find(row);
    r.agent_id = handle != agent_handles_.end() ? handle->second : static_cast<uint64_t>(row);
    r.value = q.f64(value);
    samples.commit();
  }
  if (!q.error().empty()) {
    *error = path_ + ": " + q.error();
    return false;
  }
  return true;
}

}  // namespace rocprof::formats::rocpd
