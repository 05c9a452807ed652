// How a CUDA API function named by the user matches the name CUPTI gives a callback id.
#include <gtest/gtest.h>

#include "rocprof/common/cuda_api_names.hpp"

using rocprof::common::cuda_api_base_name;
using rocprof::common::cuda_api_name_matches;

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
