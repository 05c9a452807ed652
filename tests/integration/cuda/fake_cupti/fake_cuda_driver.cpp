// A stand-in for NVIDIA's libcuda.so.1 with only the device queries `rocprofv3 --list-avail`
// makes through the CUDA plugin (device_info.cpp), for CPU-only CI. $FAKE_CUDA_DEVICES devices
// (default 1); 0 makes cuInit fail with CUDA_ERROR_NO_DEVICE as the real driver does when
// CUDA_VISIBLE_DEVICES hides every GPU. It replaces NVIDIA's library only, never code of ours.
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define FAKE_API extern "C" __attribute__((visibility("default")))

namespace {

int device_count() {
  const char* n = std::getenv("FAKE_CUDA_DEVICES");
  return n != nullptr ? std::atoi(n) : 1;
}

bool valid(CUdevice dev) {
  return dev >= 0 && dev < device_count();
}

// Set by a fake application around the plugin's InitializeInjection, where the real driver is
// inside cuInit: every device query made then is counted (none may be made).
int g_initialising = 0;
int g_calls_while_initialising = 0;

bool note_call() {
  if (g_initialising != 0) ++g_calls_while_initialising;
  return true;
}

}  // namespace

FAKE_API void fake_cuda_driver_set_initialising(int on) {
  g_initialising = on;
}
FAKE_API int fake_cuda_driver_initialising() {
  return g_initialising;
}
FAKE_API int fake_cuda_driver_calls_while_initialising() {
  return g_calls_while_initialising;
}

FAKE_API CUresult cuInit(unsigned int) {
  note_call();
  return device_count() > 0 ? CUDA_SUCCESS : CUDA_ERROR_NO_DEVICE;
}
FAKE_API CUresult cuDeviceGetCount(int* count) {
  note_call();
  *count = device_count();
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuDeviceGet(CUdevice* dev, int ordinal) {
  note_call();
  if (ordinal < 0 || ordinal >= device_count()) return CUDA_ERROR_INVALID_DEVICE;
  *dev = ordinal;
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuDeviceGetName(char* name, int len, CUdevice dev) {
  note_call();
  if (!valid(dev) || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  std::snprintf(name, static_cast<size_t>(len), "Fake GPU %d", dev);
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuDeviceGetUuid_v2(CUuuid* uuid, CUdevice dev) {
  note_call();
  if (!valid(dev)) return CUDA_ERROR_INVALID_DEVICE;
  for (int i = 0; i < 16; ++i)
    uuid->bytes[i] = static_cast<char>(0x10 * dev + i);
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute a, CUdevice dev) {
  note_call();
  if (!valid(dev)) return CUDA_ERROR_INVALID_DEVICE;
  switch (a) {
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
      *value = 132;
      break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
      *value = 32;
      break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      *value = 1024;
      break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
      *value = 9;
      break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
      *value = 0;
      break;
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID:
      *value = 0x40 + dev;
      break;
    default:
      *value = 0;
      break;
  }
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice dev) {
  note_call();
  if (!valid(dev)) return CUDA_ERROR_INVALID_DEVICE;
  *bytes = size_t{80} << 30;
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuGetErrorString(CUresult r, const char** s) {
  *s = r == CUDA_ERROR_NO_DEVICE ? "no CUDA-capable device is detected" : "fake driver error";
  return CUDA_SUCCESS;
}
