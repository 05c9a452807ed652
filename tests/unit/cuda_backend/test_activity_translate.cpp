// CUPTI activity records -> backend events, field by field, on hand-built CUPTI structs.
#include <gtest/gtest.h>

#include "activity_translate.hpp"

namespace rocprof::cuda {
namespace {

TEST(activity_translate, kernel_geometry_and_resources) {
  CUpti_ActivityKernel10 k{};
  k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  k.start = 1000;
  k.end = 2500;
  k.contextId = 7;
  k.streamId = 13;
  k.gridX = 4096;
  k.gridY = 2;
  k.gridZ = 1;
  k.blockX = 256;
  k.blockY = 1;
  k.blockZ = 1;
  k.staticSharedMemory = 1024;
  k.dynamicSharedMemory = 2048;
  k.localMemoryPerThread = 16;
  k.registersPerThread = 40;
  k.clusterX = 2;
  k.clusterY = 1;
  k.clusterZ = 1;
  k.graphId = 3;
  k.graphNodeId = 8589934592ULL;
  const kernel_event e = translate(k);
  EXPECT_EQ(e.start_ns, 1000U);
  EXPECT_EQ(e.end_ns, 2500U);
  EXPECT_EQ(e.queue_id, 7U);
  EXPECT_EQ(e.stream_id, 13U);
  // rocprofv3 counts the grid in work-items: grid (blocks) * block.
  EXPECT_EQ(e.grid.x, 4096U * 256U);
  EXPECT_EQ(e.grid.y, 2U);
  EXPECT_EQ(e.grid.z, 1U);
  EXPECT_EQ(e.workgroup.x, 256U);
  EXPECT_EQ(e.group_segment_size, 3072U);
  EXPECT_EQ(e.dynamic_shared_memory, 2048U);
  EXPECT_EQ(e.private_segment_size, 16U);
  EXPECT_EQ(e.arch_vgpr_count, 40U);
  EXPECT_EQ(e.cluster.x, 2U);
  EXPECT_EQ(e.graph_id, 3U);
  EXPECT_EQ(e.graph_node_id, 8589934592ULL);
}

TEST(activity_translate, negative_cupti_dimensions_become_zero) {
  CUpti_ActivityKernel10 k{};
  k.gridX = -1;
  k.blockX = 32;
  k.staticSharedMemory = -5;
  const kernel_event e = translate(k);
  EXPECT_EQ(e.grid.x, 0U);
  EXPECT_EQ(e.group_segment_size, 0U);
}

TEST(activity_translate, copy_directions) {
  EXPECT_EQ(direction_of(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD), copy_direction::host_to_device);
  EXPECT_EQ(direction_of(CUPTI_ACTIVITY_MEMCPY_KIND_DTOH), copy_direction::device_to_host);
  EXPECT_EQ(direction_of(CUPTI_ACTIVITY_MEMCPY_KIND_DTOD), copy_direction::device_to_device);
  EXPECT_EQ(direction_of(CUPTI_ACTIVITY_MEMCPY_KIND_HTOH), copy_direction::host_to_host);
  EXPECT_EQ(direction_of(CUPTI_ACTIVITY_MEMCPY_KIND_PTOP), copy_direction::peer_to_peer);
  EXPECT_EQ(direction_of(CUPTI_ACTIVITY_MEMCPY_KIND_ATOH), copy_direction::device_to_host);
  EXPECT_EQ(direction_of(CUPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN), copy_direction::none);
}

TEST(activity_translate, memcpy_memset_memory) {
  CUpti_ActivityMemcpy6 m{};
  m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
  m.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
  m.bytes = 1 << 20;
  m.streamId = 5;
  const memcpy_event c = translate(m);
  EXPECT_EQ(c.direction, copy_direction::device_to_host);
  EXPECT_EQ(c.bytes, 1U << 20);
  EXPECT_EQ(c.stream_id, 5U);
  EXPECT_EQ(c.src_memory_kind, static_cast<uint32_t>(CUPTI_ACTIVITY_MEMORY_KIND_DEVICE));
  EXPECT_EQ(c.dst_memory_kind, static_cast<uint32_t>(CUPTI_ACTIVITY_MEMORY_KIND_PINNED));

  CUpti_ActivityMemset4 s{};
  s.bytes = 4096;
  s.value = 0xAB;
  s.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  const memset_event se = translate(s);
  EXPECT_EQ(se.bytes, 4096U);
  EXPECT_EQ(se.value, 0xABU);

  CUpti_ActivityMemory4 a{};
  a.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE;
  a.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_MANAGED;
  a.address = 0x7000;
  a.bytes = 64;
  a.timestamp = 99;
  const allocation_event ae = translate(a);
  EXPECT_EQ(ae.operation, allocation_op::release);
  EXPECT_STREQ(ae.memory_kind, "MANAGED");
  EXPECT_EQ(ae.address, 0x7000U);
  EXPECT_EQ(ae.timestamp_ns, 99U);
}

TEST(activity_translate, every_memory_kind_has_a_name) {
  for (uint32_t k = 0; k <= CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC; ++k) {
    EXPECT_STRNE(memory_kind_name(k), "") << k;
  }
  EXPECT_STREQ(memory_kind_name(CUPTI_ACTIVITY_MEMORY_KIND_DEVICE), "DEVICE");
}

}  // namespace
}  // namespace rocprof::cuda
