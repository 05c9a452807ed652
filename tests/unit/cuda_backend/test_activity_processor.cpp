// The processor on synthetic CUPTI records: ids, agents, kernel symbols, graph kernels.
#include <gtest/gtest.h>

#include "activity_processor.hpp"
#include "recording_sink.hpp"
#include "synthetic_cupti.hpp"

namespace rocprof::cuda {
namespace {

// CUPTI hands records out as CUpti_Activity*, pointing at the full record.
template <typename T>
const CUpti_Activity& as_record(const T& r) {
  return *static_cast<const CUpti_Activity*>(static_cast<const void*>(&r));
}

CUpti_ActivityKernel10 kernel(uint32_t correlation, const char* name, uint64_t start,
                              uint32_t graph = 0, uint64_t node = 0) {
  CUpti_ActivityKernel10 k{};
  k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  k.correlationId = correlation;
  k.name = name;
  k.start = start;
  k.end = start + 10;
  k.gridX = k.gridY = k.gridZ = 1;
  k.blockX = k.blockY = k.blockZ = 1;
  k.graphId = graph;
  k.graphNodeId = node;
  return k;
}

TEST(activity_processor, kernels_take_the_launching_call_id_thread_and_ordered_dispatch_ids) {
  test::recording_sink sink;
  correlation_map map{1024};
  activity_processor p{sink, map};
  p.set_device_agents({101});
  map.put(10, correlation_entry{500, 9, 4242});
  map.put(11, correlation_entry{501, 0, 4243});
  const auto a = kernel(10, "_Z6vecaddPfS_S_i", 100);
  const auto b = kernel(11, "_Z6vecaddPfS_S_i", 200);
  const auto c = kernel(11, "plain_kernel", 300);
  p.process(as_record(a));
  p.process(as_record(b));
  p.process(as_record(c));
  ASSERT_EQ(sink.kernels.size(), 3U);
  EXPECT_EQ(sink.kernels[0].correlation_id, 500U);
  EXPECT_EQ(sink.kernels[0].external_id, 9U);
  EXPECT_EQ(sink.kernels[0].tid, 4242);
  EXPECT_EQ(sink.kernels[1].correlation_id, 501U);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(sink.kernels[i].dispatch_id, i + 1);
    EXPECT_EQ(sink.kernels[i].agent_id, 101U);
  }
  // Kernel ids: one per name, reported once, in first-seen order.
  ASSERT_EQ(sink.symbols.size(), 2U);
  EXPECT_EQ(sink.symbols[0].second, "_Z6vecaddPfS_S_i");
  EXPECT_EQ(sink.kernels[0].kernel_id, sink.kernels[1].kernel_id);
  EXPECT_NE(sink.kernels[1].kernel_id, sink.kernels[2].kernel_id);
  EXPECT_EQ(p.counts().kernels, 3U);
}

TEST(activity_processor, graph_node_kernels_share_one_fresh_id_when_no_callback_saw_the_launch) {
  test::recording_sink sink;
  sink.next_id = 900;
  correlation_map map{1024};
  activity_processor p{sink, map};
  const auto a = kernel(77, "node_a", 100, 2, 8589934592ULL);
  const auto b = kernel(77, "node_b", 200, 2, 8589934594ULL);
  p.process(as_record(a));
  p.process(as_record(b));
  ASSERT_EQ(sink.kernels.size(), 2U);
  EXPECT_EQ(sink.kernels[0].correlation_id, 900U);
  EXPECT_EQ(sink.kernels[1].correlation_id, 900U);
  EXPECT_EQ(sink.kernels[1].graph_node_id, 8589934594ULL);
}

TEST(activity_processor, copies_get_host_and_device_agents_by_direction) {
  test::recording_sink sink;
  sink.cpu_agent = 1;
  correlation_map map{1024};
  activity_processor p{sink, map};
  p.set_device_agents({101, 102});
  CUpti_ActivityMemcpy6 h2d{};
  h2d.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  h2d.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
  h2d.deviceId = 1;
  h2d.bytes = 4096;
  CUpti_ActivityMemcpy6 d2h = h2d;
  d2h.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
  CUpti_ActivityMemcpyPtoP4 p2p{};
  p2p.kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
  p2p.srcDeviceId = 0;
  p2p.dstDeviceId = 1;
  p.process(as_record(h2d));
  p.process(as_record(d2h));
  p.process(as_record(p2p));
  ASSERT_EQ(sink.copies.size(), 3U);
  EXPECT_EQ(sink.copies[0].src_agent_id, 1U);
  EXPECT_EQ(sink.copies[0].dst_agent_id, 102U);
  EXPECT_EQ(sink.copies[1].src_agent_id, 102U);
  EXPECT_EQ(sink.copies[1].dst_agent_id, 1U);
  EXPECT_EQ(sink.copies[2].direction, copy_direction::peer_to_peer);
  EXPECT_EQ(sink.copies[2].src_agent_id, 101U);
  EXPECT_EQ(sink.copies[2].dst_agent_id, 102U);
}

TEST(activity_processor, memsets_allocations_and_unknown_kinds) {
  test::recording_sink sink;
  correlation_map map{1024};
  activity_processor p{sink, map};
  p.set_device_agents({101});
  CUpti_ActivityMemset4 s{};
  s.kind = CUPTI_ACTIVITY_KIND_MEMSET;
  s.bytes = 512;
  CUpti_ActivityMemory4 alloc{};
  alloc.kind = CUPTI_ACTIVITY_KIND_MEMORY2;
  alloc.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
  alloc.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  alloc.bytes = 1 << 20;
  CUpti_ActivityMemory4 release = alloc;
  release.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE;
  CUpti_ActivityAPI other{};
  other.kind = CUPTI_ACTIVITY_KIND_OVERHEAD;
  p.process(as_record(s));
  p.process(as_record(alloc));
  p.process(as_record(release));
  p.process(as_record(other));
  ASSERT_EQ(sink.sets.size(), 1U);
  EXPECT_EQ(sink.sets[0].agent_id, 101U);
  ASSERT_EQ(sink.allocations.size(), 2U);
  EXPECT_EQ(sink.allocations[0].agent_id, 101U);
  EXPECT_EQ(sink.allocations[1].operation, allocation_op::release);
  EXPECT_EQ(sink.allocations[1].agent_id, 0U);
  EXPECT_EQ(p.counts().other, 1U);
}

TEST(activity_processor, walks_a_buffer_through_the_wrapper) {
  test::recording_sink sink;
  correlation_map map{1024};
  activity_processor p{sink, map};
  test::synthetic_cupti api;
  const auto a = kernel(1, "k", 1);
  const auto b = kernel(2, "k", 2);
  api.buffer_records = {&as_record(a), &as_record(b)};
  uint8_t dummy[8] = {};
  p.process_buffer(api, dummy, sizeof(dummy));
  EXPECT_EQ(sink.kernels.size(), 2U);
}

}  // namespace
}  // namespace rocprof::cuda
