#include "device_info.hpp"

#include <cuda.h>
#include <dlfcn.h>

#include <cstdio>
#include <string>

namespace rocprof::cuda {
namespace {

struct driver_table {
  decltype(&::cuInit) init = nullptr;
  decltype(&::cuDeviceGetCount) get_count = nullptr;
  decltype(&::cuDeviceGet) get = nullptr;
  decltype(&::cuDeviceGetName) get_name = nullptr;
  decltype(&::cuDeviceGetUuid_v2) get_uuid = nullptr;
  decltype(&::cuDeviceGetAttribute) get_attribute = nullptr;
  decltype(&::cuDeviceTotalMem_v2) total_mem = nullptr;
  decltype(&::cuGetErrorString) error_string = nullptr;
};

bool report_cu_result(const driver_table& d, CUresult r, const char* expr, const char* file,
                      int line) {
  if (r == CUDA_SUCCESS) return true;
  const char* s = nullptr;
  if (d.error_string == nullptr || d.error_string(r, &s) != CUDA_SUCCESS || s == nullptr)
    s = "unknown";
  std::fprintf(stderr, "rocprofv3 [cuda]: %s failed at %s:%d: %s (%d)\n", expr, file, line, s,
               static_cast<int>(r));
  return false;
}

#define ROCPROF_CU_CALL(table, expr) report_cu_result((table), (expr), #expr, __FILE__, __LINE__)

template <typename F>
bool load(void* h, const char* name, F& out) {
  out = reinterpret_cast<F>(dlsym(h, name));
  return out != nullptr;
}

uint32_t attribute(const driver_table& d, CUdevice dev, CUdevice_attribute a) {
  int v = 0;
  return d.get_attribute(&v, a, dev) == CUDA_SUCCESS && v > 0 ? static_cast<uint32_t>(v) : 0U;
}

}  // namespace

std::string format_uuid(const unsigned char bytes[16]) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string s = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    s += hex[bytes[i] >> 4];
    s += hex[bytes[i] & 0xF];
  }
  return s;
}

device_query query_devices() {
  device_query q;
  // The process that uses CUDA has the driver loaded already; NOLOAD first avoids a second
  // reference path, the plain open covers a core that queries before the application does.
  void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (h == nullptr) h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    q.error = "no CUDA driver (libcuda.so.1 not found)";
    return q;
  }
  driver_table d;
  if (!load(h, "cuInit", d.init) || !load(h, "cuDeviceGetCount", d.get_count) ||
      !load(h, "cuDeviceGet", d.get) || !load(h, "cuDeviceGetName", d.get_name) ||
      !load(h, "cuDeviceGetUuid_v2", d.get_uuid) ||
      !load(h, "cuDeviceGetAttribute", d.get_attribute) ||
      !load(h, "cuDeviceTotalMem_v2", d.total_mem) ||
      !load(h, "cuGetErrorString", d.error_string)) {
    q.error = "libcuda.so.1 lacks a device query entry point";
    return q;
  }
  int count = 0;
  // The driver's own words say why (no device, CUDA_VISIBLE_DEVICES, driver/library mismatch).
  auto failed = [&d](const char* call, CUresult r) {
    const char* s = nullptr;
    if (d.error_string(r, &s) != CUDA_SUCCESS || s == nullptr) s = "unknown error";
    return std::string{call} + " failed: " + s + " (" + std::to_string(static_cast<int>(r)) + ")";
  };
  if (const CUresult r = d.init(0); r != CUDA_SUCCESS) {
    q.error = failed("cuInit", r);
    return q;
  }
  if (const CUresult r = d.get_count(&count); r != CUDA_SUCCESS) {
    q.error = failed("cuDeviceGetCount", r);
    return q;
  }
  if (count <= 0) {
    q.error = "the CUDA driver reports no device";
    return q;
  }
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice dev = 0;
    if (!ROCPROF_CU_CALL(d, d.get(&dev, ordinal))) continue;
    gpu_agent a;
    a.device_ordinal = ordinal;
    char name[256] = {};
    if (ROCPROF_CU_CALL(d, d.get_name(name, sizeof(name) - 1, dev))) a.name = name;
    CUuuid uuid{};
    if (ROCPROF_CU_CALL(d, d.get_uuid(&uuid, dev))) {
      for (int i = 0; i < 16; ++i)
        a.uuid_bytes[i] = static_cast<unsigned char>(uuid.bytes[i]);
      a.uuid = format_uuid(a.uuid_bytes);
    }
    a.pci_domain = attribute(d, dev, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
    a.pci_bus = attribute(d, dev, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
    a.pci_device = attribute(d, dev, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
    a.sm_count = attribute(d, dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    a.warp_size = attribute(d, dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    a.shared_mem_per_block = attribute(d, dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    a.shared_mem_per_sm =
        attribute(d, dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    a.max_threads_per_block = attribute(d, dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    a.max_threads_per_sm = attribute(d, dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    a.max_block_dim[0] = attribute(d, dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
    a.max_block_dim[1] = attribute(d, dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
    a.max_block_dim[2] = attribute(d, dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
    a.max_grid_dim[0] = attribute(d, dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
    a.max_grid_dim[1] = attribute(d, dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
    a.max_grid_dim[2] = attribute(d, dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
    a.clock_khz = attribute(d, dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
    a.memory_clock_khz = attribute(d, dev, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    a.memory_bus_width = attribute(d, dev, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    a.compute_major = attribute(d, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    a.compute_minor = attribute(d, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    size_t bytes = 0;
    if (ROCPROF_CU_CALL(d, d.total_mem(&bytes, dev))) a.total_memory = bytes;
    q.devices.push_back(std::move(a));
  }
  return q;
}

}  // namespace rocprof::cuda
