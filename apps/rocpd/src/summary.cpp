// `rocpd summary`: the inputs' records folded into AMD's summary tables in one pass (no SQL
// views to build and scan), then printed or exported per table. PC samples, when the inputs
// have them, add the live run's hot-spot report (pc_sampling_summary.hpp) after AMD's tables.
#include <cctype>

#include "commands.hpp"
#include "inputs.hpp"
#include "output_table.hpp"
#include "pc_sampling_summary.hpp"
#include "progress.hpp"
#include "result_table.hpp"
#include "rocprof/formats/rocpd_summary.hpp"

namespace rocprof::rocpd_cli {
namespace {

using formats::rocpd::summary_table;

result_table to_result(const summary_table& t) {
  result_table r;
  r.name = t.name;
  if (t.by_rank) r.columns = {"ProcessID", "Hostname"};
  for (const char* c : {"Name", "Calls", "DURATION (nsec)", "AVERAGE (nsec)", "PERCENT (INC)",
                        "MIN (nsec)", "MAX (nsec)", "STD_DEV"})
    r.columns.emplace_back(c);
  for (const auto& row : t.rows) {
    auto& cells = r.rows.emplace_back();
    if (t.by_rank) {
      cells.push_back(cell::integer(row.pid));
      cells.push_back(cell::text(row.hostname));
    }
    cells.push_back(cell::text(row.name));
    cells.push_back(cell::integer(static_cast<int64_t>(row.calls)));
    cells.push_back(cell::integer(static_cast<int64_t>(row.total_ns)));
    cells.push_back(cell::real(row.average_ns));
    cells.push_back(cell::real(row.percent));
    cells.push_back(cell::integer(static_cast<int64_t>(row.min_ns)));
    cells.push_back(cell::integer(static_cast<int64_t>(row.max_ns)));
    cells.push_back(row.stddev_ns ? cell::real(*row.stddev_ns) : cell{});
  }
  return r;
}

}  // namespace

int run_summary(const rocpd_args& args, std::ostream& out) {
  auto inputs = open_inputs(args);
  formats::rocpd::summary_request request;
  request.region_categories = args.list("region_categories");
  request.by_rank = args.flag("summary_by_rank");
  request.domain_summary = args.flag("domain_summary");
  auto collector = formats::rocpd::summary_collector::make(request);
  formats::rocpd::read_options options;
  options.window = resolve_window(args, inputs);
  pc_sampling_summary pc_samples;
  std::vector<trace::writer*> sinks{collector.get(), &pc_samples};
  for (auto& in : inputs) {
    for (size_t p = 0; p < in->processes().size(); ++p) {
      trace::trace_definitions defs;
      std::string error;
      if (!in->read_definitions(p, defs, &error)) throw usage_error(error);
      progress_bar bar{"summary", in->record_rows(p)};
      options.progress = [&bar](uint64_t done) { bar.update(done); };
      collector->begin(defs);
      pc_samples.begin(defs);
      if (!in->read_records(p, defs, options, sinks, nullptr, &error)) throw usage_error(error);
      if (auto e = collector->finish(); !e.empty()) throw usage_error(e);
      pc_samples.finish();
    }
  }
  const std::string format = args.text("format");
  const std::string dir = output_directory(args);
  const std::string prefix = output_name(args);
  bool ranks_header = false;
  out << "\nSummary files:\n";
  for (const auto& table : collector->tables()) {
    if (table.rows.empty()) continue;
    if (table.by_rank && !ranks_header) {
      out << "\nSummary files by rank:\n";
      ranks_header = true;
    }
    if (format == "console") {
      std::string title = table.name;
      for (auto& c : title)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      out << "\n" << title << ":\n";
    }
    emit_table(to_result(table), format, dir,
               prefix.empty() ? table.name : prefix + "_" + table.name, out);
  }
  if (!pc_samples.empty()) {
    const std::string name = "pc_sampling_hotspots";
    if (format == "console")
      out << pc_samples.render();
    else
      emit_table(pc_samples.table(name), format, dir, prefix.empty() ? name : prefix + "_" + name,
                 out);
  }
  return 0;
}

}  // namespace rocprof::rocpd_cli
