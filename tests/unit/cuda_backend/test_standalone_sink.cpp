// The standalone sink's JSON document, read back with nlohmann::json (not our writer).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "device_info.hpp"
#include "standalone_sink.hpp"

namespace rocprof::cuda {
namespace {

TEST(standalone_sink, writes_every_event_kind) {
  standalone_options o;
  o.output_path = ::testing::TempDir() + "cuda_standalone_test.json";
  for (bool& d : o.domains)
    d = true;
  o.api_capacity = 2;
  standalone_sink s{o};
  api_event a;
  a.name = "cudaMalloc";
  s.api_enter(a);
  s.api_exit(a);
  s.api_exit(a);
  s.api_exit(a);  // beyond capacity: counted as dropped, never written out of bounds
  kernel_event k;
  k.dispatch_id = 1;
  k.correlation_id = a.correlation_id;
  s.emit(k);
  memcpy_event c;
  c.direction = copy_direction::host_to_device;
  c.bytes = 4096;
  s.emit(c);
  s.emit(memset_event{});
  allocation_event al;
  al.memory_kind = "DEVICE";
  s.emit(al);
  gpu_agent g;
  g.name = "NVIDIA H100";
  EXPECT_EQ(s.register_gpu(g), 2U);
  ASSERT_TRUE(s.write("ok"));

  std::ifstream in{o.output_path};
  const nlohmann::json doc = nlohmann::json::parse(in);
  EXPECT_EQ(doc["status"], "ok");
  EXPECT_EQ(doc["api"].size(), 2U);
  EXPECT_EQ(doc["dropped"], 1);
  EXPECT_EQ(doc["api"][0]["name"], "cudaMalloc");
  EXPECT_EQ(doc["kernels"][0]["corr"], a.correlation_id);
  EXPECT_EQ(doc["memcpy"][0]["direction"], "MEMORY_COPY_HOST_TO_DEVICE");
  EXPECT_EQ(doc["memcpy"][0]["bytes"], 4096);
  EXPECT_EQ(doc["memset"].size(), 1U);
  EXPECT_EQ(doc["memory_allocation"][0]["kind"], "DEVICE");
  EXPECT_EQ(doc["agents"][0]["name"], "NVIDIA H100");
  std::remove(o.output_path.c_str());
}

TEST(device_info, uuid_text_matches_nvidia_smi_layout) {
  const unsigned char b[16] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
                               0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77};
  EXPECT_EQ(format_uuid(b), "GPU-01234567-89ab-cdef-0011-223344556677");
}

}  // namespace
}  // namespace rocprof::cuda
