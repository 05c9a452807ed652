// The callback-id names the plugin gives before libcupti is loaded: the headers' spelling, which
// is what cuptiGetCallbackName answers (runtime names keep their CUDA version suffix).
#include <cupti.h>
#include <gtest/gtest.h>

#include <string>

#include "callback_names.hpp"

using rocprof::cuda::header_callback_name;

TEST(CallbackNames, RuntimeIdsKeepTheirVersion) {
  const char* name = header_callback_name(CUPTI_CB_DOMAIN_RUNTIME_API,
                                          CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020);
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(std::string{name}, "cudaGetDevice_v3020");
  name = header_callback_name(CUPTI_CB_DOMAIN_RUNTIME_API,
                              CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(std::string{name}, "cudaLaunchKernel_v7000");
}

TEST(CallbackNames, DriverIds) {
  const char* name =
      header_callback_name(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent);
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(std::string{name}, "cuCtxGetCurrent");
  name = header_callback_name(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2);
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(std::string{name}, "cuMemAlloc_v2");
}

TEST(CallbackNames, UnknownIdsAndDomains) {
  EXPECT_EQ(header_callback_name(CUPTI_CB_DOMAIN_RUNTIME_API, 0), nullptr);  // INVALID
  EXPECT_EQ(header_callback_name(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE),
            nullptr);
  EXPECT_EQ(header_callback_name(CUPTI_CB_DOMAIN_RESOURCE, 1), nullptr);
}
