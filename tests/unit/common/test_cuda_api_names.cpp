// How a CUDA API function named by the user matches the name CUPTI gives a callback id.
#include <gtest/gtest.h>

#include <algorithm>

#include "rocprof/common/cuda_api_names.hpp"

using rocprof::common::cuda_api_base_name;
using rocprof::common::cuda_api_exclusions;
using rocprof::common::cuda_api_name_matches;
using rocprof::common::cuda_api_named;
using rocprof::common::cuda_state_queries;

TEST(CudaApiNames, RuntimeVersionSuffixGoes) {
  EXPECT_EQ(cuda_api_base_name("cudaGetDevice_v3020"), "cudaGetDevice");
  EXPECT_EQ(cuda_api_base_name("cudaGraphInstantiateWithFlags_v11040"),
            "cudaGraphInstantiateWithFlags");
  // Only the last suffix is a version: _v2 is part of the function's name.
  EXPECT_EQ(cuda_api_base_name("cudaStreamGetCaptureInfo_v2_v11030"),
            "cudaStreamGetCaptureInfo_v2");
}

TEST(CudaApiNames, DriverNamesKeepTheirSuffix) {
  EXPECT_EQ(cuda_api_base_name("cuMemAlloc_v2"), "cuMemAlloc_v2");
  EXPECT_EQ(cuda_api_base_name("cuCtxCreate_v4"), "cuCtxCreate_v4");
  EXPECT_EQ(cuda_api_base_name("cuCtxGetCurrent"), "cuCtxGetCurrent");
  EXPECT_FALSE(cuda_api_name_matches("cuMemAlloc_v2", "cuMemAlloc"));
}

TEST(CudaApiNames, NotAVersion) {
  EXPECT_EQ(cuda_api_base_name("_v3020"), "_v3020");  // nothing would be left
  EXPECT_EQ(cuda_api_base_name("cudaX3020"), "cudaX3020");
  EXPECT_EQ(cuda_api_base_name(""), "");
}

TEST(CudaApiNames, MatchesEitherSpelling) {
  EXPECT_TRUE(cuda_api_name_matches("cudaGetDevice", "cudaGetDevice"));
  EXPECT_TRUE(cuda_api_name_matches("cudaGetDevice_v3020", "cudaGetDevice"));
  EXPECT_TRUE(cuda_api_name_matches("cudaGetDevice", "cudaGetDevice_v3020"));
  EXPECT_FALSE(cuda_api_name_matches("cudaGetDeviceCount", "cudaGetDevice"));
  EXPECT_FALSE(cuda_api_name_matches("cudagetdevice", "cudaGetDevice"));  // C names are exact
}

// A list names a function when one of its names matches it (either runtime spelling).
TEST(CudaApiNames, ListNamesAFunction) {
  EXPECT_TRUE(cuda_api_named("cudaGetDevice_v3020", {"cudaMemcpy", "cudaGetDevice"}));
  EXPECT_FALSE(cuda_api_named("cudaGetDeviceCount_v3020", {"cudaGetDevice"}));
  EXPECT_FALSE(cuda_api_named("cudaGetDevice", {}));
}

// The API trace leaves the state queries out by default, after the user's own exclusions.
TEST(CudaApiNames, StateQueriesLeftOutByDefault) {
  const auto excluded = cuda_api_exclusions({}, {"cudaMemcpy"}, false);
  ASSERT_EQ(excluded.size(), 1 + cuda_state_queries.size());
  EXPECT_EQ(excluded.front(), "cudaMemcpy");
  for (const char* query : {"cudaGetDevice", "cudaGetLastError", "cuCtxGetCurrent",
                            "cuDevicePrimaryCtxGetState", "cuKernelGetName", "cuCtxGetDevice_v2"})
    EXPECT_NE(std::find(excluded.begin(), excluded.end(), query), excluded.end()) << query;
}

// --cuda-api-queries: only what the user excludes.
TEST(CudaApiNames, QueriesAskedForKeepEveryCall) {
  EXPECT_EQ(cuda_api_exclusions({}, {"cudaMemcpy"}, true), std::vector<std::string>{"cudaMemcpy"});
  EXPECT_TRUE(cuda_api_exclusions({}, {}, true).empty());
}

// A query the include list names is recorded, in either spelling of a runtime name; the other
// queries stay out (and stay out of an include list that does not name them anyway).
TEST(CudaApiNames, QueryNamedByIncludeIsRecorded) {
  const auto excluded = cuda_api_exclusions({"cudaGetDevice_v3020", "cudaLaunchKernel"}, {}, false);
  EXPECT_EQ(std::find(excluded.begin(), excluded.end(), "cudaGetDevice"), excluded.end());
  EXPECT_EQ(excluded.size(), cuda_state_queries.size() - 1);
  // cuCtxGetDevice is not cuCtxGetDevice_v2: driver suffixes name distinct functions.
  const auto driver = cuda_api_exclusions({"cuCtxGetDevice"}, {}, false);
  EXPECT_NE(std::find(driver.begin(), driver.end(), "cuCtxGetDevice_v2"), driver.end());
  EXPECT_EQ(std::find(driver.begin(), driver.end(), "cuCtxGetDevice"), driver.end());
}
