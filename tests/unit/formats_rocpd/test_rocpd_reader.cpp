// rocpd reader: a synthetic trace written by the rocpd writer and read back gives the same
// definitions and records (every field the database keeps), in the order they were written;
// time windows, time shifts, marker look-ups and bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "rocprof/formats/rocpd_reader.hpp"
#include "rocprof/test_support/record_collector.hpp"
#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "rocprof/trace/api_args.hpp"
#include "rocprof/trace/writer_registry.hpp"

namespace {

using namespace rocprof;
namespace ts = rocprof::test_support;
using formats::rocpd::database_reader;
using formats::rocpd::read_options;

class rocpd_reader : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new ts::temp_dir{"rocpd_reader"};
    ts::synthetic_options so;
    so.records_per_kind = 500;
    trace_ = new ts::synthetic_trace{ts::make_synthetic_trace(so)};
    trace_->defs.process.mpi_rank = 3;
    trace_->defs.process.mpi_size = 8;
    trace_->defs.process.realtime_offset_start_ns = 1'700'000'000'000'000'000;
    trace_->defs.process.realtime_offset_end_ns = 1'700'000'000'000'001'000;
    give_cuda_calls_arguments(*trace_);
    trace::output_options o;
    o.output_directory = dir_->path();
    o.file_prefix = "run";
    db_ = o.path_for("results", "db");
    std::string error;
    auto w = trace::make_writer("rocpd", o, &error);
    ASSERT_TRUE(w) << error;
    ASSERT_EQ(ts::write_synthetic_trace(*w, *trace_, 97), "");
  }
  static void TearDownTestSuite() {
    delete trace_;
    delete dir_;
  }

  // Arguments as --cuda-api-args records them: two argument lists, one call failing (retval
  // 2, kept in the event's extdata), alternating over the CUDA runtime calls.
  static void give_cuda_calls_arguments(ts::synthetic_trace& t) {
    const auto ok = ts::add_copy_arguments(t.defs, 0);
    trace::api_args_text failed{2};
    failed.add("const char*", "symbol", "vec_add");
    t.defs.strings.push_back(failed.text());
    const auto last = static_cast<trace::string_id>(t.defs.strings.size() - 1);
    size_t n = 0;
    for (auto& r : t.api)
      if (r.domain == trace::api_domain::cuda_runtime) r.args = n++ % 2 ? last : ok;
    ASSERT_GT(n, 1u);
  }

  static std::unique_ptr<database_reader> open() {
    std::string error;
    auto r = database_reader::open(db_, &error);
    EXPECT_TRUE(r) << error;
    return r;
  }

  static inline ts::temp_dir* dir_ = nullptr;
  static inline ts::synthetic_trace* trace_ = nullptr;
  static inline std::string db_;
};

TEST_F(rocpd_reader, one_process_with_its_metadata) {
  auto r = open();
  ASSERT_TRUE(r);
  ASSERT_EQ(r->processes().size(), 1u);
  const auto& p = r->processes()[0];
  EXPECT_EQ(r->schema_version(), 3);
  EXPECT_EQ(p.pid, trace_->defs.process.pid);
  EXPECT_EQ(p.mpi_rank, 3);
  EXPECT_EQ(p.mpi_size, 8);
  EXPECT_EQ(p.realtime_offset_start_ns, trace_->defs.process.realtime_offset_start_ns);
  EXPECT_EQ(p.realtime_offset_end_ns, trace_->defs.process.realtime_offset_end_ns);
  EXPECT_TRUE(p.strings_complete);
  EXPECT_EQ(p.uuid.size(), 36u);
}

TEST_F(rocpd_reader, definitions_round_trip) {
  auto r = open();
  ASSERT_TRUE(r);
  trace::trace_definitions d;
  std::string error;
  ASSERT_TRUE(r->read_definitions(0, d, &error)) << error;
  const auto& e = trace_->defs;
  EXPECT_EQ(d.node.hostname, e.node.hostname);
  EXPECT_EQ(d.node.machine_id, e.node.machine_id);
  EXPECT_EQ(d.process.pid, e.process.pid);
  EXPECT_EQ(d.process.ppid, e.process.ppid);
  EXPECT_EQ(d.process.command, e.process.command);
  ASSERT_EQ(d.agents.size(), e.agents.size());
  std::map<uint64_t, const trace::agent_info*> by_handle;
  for (const auto& a : d.agents)
    by_handle[a.id] = &a;
  for (const auto& a : e.agents) {
    ASSERT_TRUE(by_handle.count(a.id)) << "agent handle " << a.id;
    const auto& b = *by_handle[a.id];
    EXPECT_EQ(b.type, a.type);
    EXPECT_EQ(b.name, a.name);
    EXPECT_EQ(b.product_name, a.product_name);
    EXPECT_EQ(b.logical_node_id, a.logical_node_id);
    EXPECT_EQ(b.logical_node_type_id, a.logical_node_type_id);
    EXPECT_EQ(b.cu_count, a.cu_count);
    EXPECT_EQ(b.wave_front_size, a.wave_front_size);
    EXPECT_EQ(b.capability, a.capability);
    EXPECT_EQ(b.fw_version, a.fw_version);
    EXPECT_EQ(b.workgroup_max_dim[1], a.workgroup_max_dim[1]);
    EXPECT_EQ(b.uuid, a.uuid);
  }
  ASSERT_EQ(d.kernel_symbols.size(), e.kernel_symbols.size());
  for (size_t i = 0; i < e.kernel_symbols.size(); ++i) {
    EXPECT_EQ(d.kernel_symbols[i].kernel_id, e.kernel_symbols[i].kernel_id);
    EXPECT_EQ(d.kernel_symbols[i].mangled_name, e.kernel_symbols[i].mangled_name);
    EXPECT_EQ(d.kernel_symbols[i].demangled_name, e.kernel_symbols[i].demangled_name);
    EXPECT_EQ(d.kernel_symbols[i].arch_vgpr_count, e.kernel_symbols[i].arch_vgpr_count);
  }
  EXPECT_EQ(d.code_objects.size(), e.code_objects.size());
  EXPECT_EQ(d.counters.size(), e.counters.size());
  for (const auto& t : e.threads) {
    bool found = false;
    for (const auto& u : d.threads)
      found |= u.tid == t.tid && u.name == t.name;
    EXPECT_TRUE(found) << "thread " << t.tid;
  }
}

// Every kind back, in the order written, with every field the database keeps.
TEST_F(rocpd_reader, records_round_trip_in_order) {
  auto r = open();
  ASSERT_TRUE(r);
  trace::trace_definitions d;
  std::string error;
  ASSERT_TRUE(r->read_definitions(0, d, &error)) << error;
  ts::record_collector got;
  read_options o;
  o.batch_size = 64;
  ASSERT_TRUE(r->read_records(0, d, o, {&got}, nullptr, &error)) << error;
  const auto& e = *trace_;
  const auto& defs = e.defs;

  const auto& api = got.of<trace::api_record>();
  ASSERT_EQ(api.size(), e.api.size());
  for (size_t i = 0; i < api.size(); ++i) {
    const auto& a = api[i];
    const auto& b = e.api[i];
    ASSERT_EQ(a.domain, b.domain) << i;
    EXPECT_EQ(d.str(a.operation), defs.str(b.operation)) << i;
    EXPECT_EQ(d.str(a.message), defs.str(b.message)) << i;
    EXPECT_EQ(d.str(a.args), defs.str(b.args)) << i;
    EXPECT_EQ(a.corr.internal, b.corr.internal) << i;
    EXPECT_EQ(a.corr.ancestor, b.corr.ancestor) << i;
    EXPECT_EQ(a.corr.external, b.corr.external) << i;
    EXPECT_EQ(a.tid, b.tid) << i;
    EXPECT_EQ(a.start_ns, b.start_ns) << i;
    EXPECT_EQ(a.end_ns, b.end_ns) << i;
  }
  const auto& k = got.of<trace::kernel_dispatch_record>();
  ASSERT_EQ(k.size(), e.kernels.size());
  for (size_t i = 0; i < k.size(); ++i) {
    const auto& a = k[i];
    const auto& b = e.kernels[i];
    EXPECT_EQ(a.dispatch_id, b.dispatch_id);
    EXPECT_EQ(a.kernel_id, b.kernel_id);
    EXPECT_EQ(a.agent_id, b.agent_id);
    EXPECT_EQ(a.queue_id, b.queue_id);
    EXPECT_EQ(a.stream_id, b.stream_id);
    EXPECT_EQ(a.corr.internal, b.corr.internal);
    EXPECT_EQ(a.corr.external, b.corr.external);
    EXPECT_EQ(a.start_ns, b.start_ns);
    EXPECT_EQ(a.end_ns, b.end_ns);
    EXPECT_EQ(a.arch_vgpr_count, b.arch_vgpr_count);
    EXPECT_EQ(a.sgpr_count, b.sgpr_count);
    EXPECT_EQ(a.grid_size.x, b.grid_size.x);
    EXPECT_EQ(a.workgroup_size.z, b.workgroup_size.z);
    EXPECT_EQ(a.graph_id, b.graph_id);
    EXPECT_EQ(a.cluster_size.x, b.cluster_size.x);
    EXPECT_EQ(d.str(a.region_name), defs.str(b.region_name));
  }
  const auto& c = got.of<trace::memory_copy_record>();
  ASSERT_EQ(c.size(), e.memory_copies.size());
  for (size_t i = 0; i < c.size(); ++i) {
    EXPECT_EQ(c[i].direction, e.memory_copies[i].direction);
    EXPECT_EQ(c[i].src_agent_id, e.memory_copies[i].src_agent_id);
    EXPECT_EQ(c[i].dst_agent_id, e.memory_copies[i].dst_agent_id);
    EXPECT_EQ(c[i].bytes, e.memory_copies[i].bytes);
    EXPECT_EQ(c[i].start_ns, e.memory_copies[i].start_ns);
  }
  const auto& s = got.of<trace::memory_set_record>();
  ASSERT_EQ(s.size(), e.memory_sets.size());
  for (size_t i = 0; i < s.size(); ++i) {
    EXPECT_EQ(s[i].value, e.memory_sets[i].value);
    EXPECT_EQ(s[i].queue_id, e.memory_sets[i].queue_id);
    EXPECT_EQ(s[i].agent_id, e.memory_sets[i].agent_id);
  }
  const auto& m = got.of<trace::memory_allocation_record>();
  ASSERT_EQ(m.size(), e.memory_allocations.size());
  for (size_t i = 0; i < m.size(); ++i) {
    EXPECT_EQ(m[i].operation, e.memory_allocations[i].operation);
    EXPECT_EQ(m[i].size, e.memory_allocations[i].size);
    EXPECT_EQ(d.str(m[i].memory_kind), defs.str(e.memory_allocations[i].memory_kind));
  }
  const auto& x = got.of<trace::scratch_memory_record>();
  ASSERT_EQ(x.size(), e.scratch_memory.size());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(x[i].operation, e.scratch_memory[i].operation);
    EXPECT_EQ(x[i].flags, e.scratch_memory[i].flags);
  }
  const auto& v = got.of<trace::counter_value_record>();
  EXPECT_EQ(v.size(), e.counter_values.size());
}

TEST_F(rocpd_reader, window_and_shift) {
  auto r = open();
  ASSERT_TRUE(r);
  trace::trace_definitions d;
  std::string error;
  ASSERT_TRUE(r->read_definitions(0, d, &error)) << error;
  const auto span = r->time_span();
  ASSERT_TRUE(span);
  read_options o;
  o.window.begin = span->first + (span->second - span->first) / 2;
  o.window.end = span->second;
  o.time_shift_ns = 1000;
  ts::record_collector got;
  ASSERT_TRUE(r->read_records(0, d, o, {&got}, nullptr, &error)) << error;
  const auto& api = got.of<trace::api_record>();
  EXPECT_GT(api.size(), 0u);
  EXPECT_LT(api.size(), trace_->api.size());
  for (const auto& a : api) {
    EXPECT_GE(a.start_ns, o.window.begin);  // the window applies to the shifted times
    EXPECT_LE(a.end_ns, o.window.end);
  }
}

TEST(rocpd_reader_errors, clear_messages) {
  ts::temp_dir dir{"rocpd_reader_errors"};
  std::string error;
  EXPECT_FALSE(database_reader::open(dir.path() + "/none.db", &error));
  EXPECT_NE(error.find("no such database file"), std::string::npos) << error;
  const std::string junk = dir.path() + "/junk.db";
  std::ofstream(junk) << std::string(4096, 'x');
  EXPECT_FALSE(database_reader::open(junk, &error));
  EXPECT_NE(error.find("not an SQLite database"), std::string::npos) << error;
}

}  // namespace
