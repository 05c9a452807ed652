// `rocpd summary`'s PC-sampling section (pc_sampling_summary): the console text is the live -S
// hot-spot report; the table has the hot-spot CSV's columns (ProcessID and Hostname first when
// several processes have samples) and shares with two decimals; processes without samples add
// nothing.
#include <gtest/gtest.h>

#include "pc_sampling_summary.hpp"

namespace {

using namespace rocprof;
using rocpd_cli::cell;

trace::trace_definitions process(int64_t pid) {
  trace::trace_definitions d;
  d.process.pid = pid;
  d.node.hostname = "node" + std::to_string(pid);
  d.strings = {"", "long_scoreboard", "selected", "/src/chase.cu:30"};
  trace::kernel_symbol_info k;
  k.kernel_id = 7;
  k.mangled_name = k.demangled_name = k.truncated_name = k.display_name = "chase(int*)";
  d.kernel_symbols.push_back(k);
  return d;
}

std::vector<trace::pc_sample_record> samples() {
  std::vector<trace::pc_sample_record> out(2);
  for (auto& r : out) {
    r.method = trace::pc_sample_method::stochastic;
    r.has_sample_detail = false;
    r.kernel_id = 7;
    r.comment = 3;
  }
  out[0].warp_state = 1;
  out[0].sample_count = 2;
  out[1].warp_state = 2;
  out[1].sample_count = 1;
  return out;
}

void feed(rocpd_cli::pc_sampling_summary& s, const trace::trace_definitions& d,
          std::vector<trace::pc_sample_record> records) {
  s.begin(d);
  s.write(trace::make_span(records));
  s.write(trace::record_span<trace::kernel_dispatch_record>{});  // ignored kinds pass through
  EXPECT_EQ(s.finish(), "");
}

TEST(pc_sampling_summary, console_text_is_the_live_report) {
  const auto d = process(11);
  const auto records = samples();
  rocpd_cli::pc_sampling_summary s;
  EXPECT_TRUE(s.empty());
  feed(s, d, records);
  ASSERT_FALSE(s.empty());
  const auto live = formats::hotspots::build_hotspots(d, trace::make_span(records), {}, 5);
  EXPECT_EQ(s.render(), formats::hotspots::render_hotspots(live));
  EXPECT_NE(s.render().find("66.67%  long_scoreboard"), std::string::npos) << s.render();
}

TEST(pc_sampling_summary, table_has_the_hotspot_csv_columns) {
  rocpd_cli::pc_sampling_summary s;
  feed(s, process(11), samples());
  const auto t = s.table("pc_sampling_hotspots");
  EXPECT_EQ(t.name, "pc_sampling_hotspots");
  EXPECT_EQ(t.columns, (std::vector<std::string>{"Kernel_Name", "Kernel_Id", "Kernel_Samples",
                                                 "Kind", "Rank", "Name", "Samples", "Percentage"}));
  ASSERT_EQ(t.rows.size(), 3u);  // two reasons, one location
  EXPECT_EQ(t.rows[0][0].s, "chase(int*)");
  EXPECT_EQ(t.rows[0][2].i, 3);
  EXPECT_EQ(t.rows[0][3].s, "stall_reason");
  EXPECT_EQ(t.rows[0][5].s, "long_scoreboard");
  EXPECT_DOUBLE_EQ(t.rows[0][7].d, 66.67);
  EXPECT_EQ(t.rows[2][3].s, "location");
  EXPECT_EQ(t.rows[2][5].s, "/src/chase.cu:30");
}

TEST(pc_sampling_summary, several_processes_are_told_apart) {
  rocpd_cli::pc_sampling_summary s;
  feed(s, process(11), samples());
  feed(s, process(12), {});  // no samples: no report
  feed(s, process(13), samples());
  const auto t = s.table("pc_sampling_hotspots");
  ASSERT_EQ(t.columns.size(), 10u);
  EXPECT_EQ(t.columns[0], "ProcessID");
  ASSERT_EQ(t.rows.size(), 6u);
  EXPECT_EQ(t.rows[0][0].i, 11);
  EXPECT_EQ(t.rows[3][0].i, 13);
  EXPECT_EQ(t.rows[3][1].s, "node13");
  const auto text = s.render();
  EXPECT_NE(text.find("process 11 (node11):"), std::string::npos) << text;
  EXPECT_NE(text.find("process 13 (node13):"), std::string::npos) << text;
  EXPECT_EQ(text.find("process 12"), std::string::npos) << text;
}

}  // namespace
