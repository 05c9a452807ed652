// Legacy header name (roctracer's roctx.h): the API of rocprofiler-sdk-roctx/roctx.h plus
// roctracer's version queries. Programs written against roctracer's ROCTx compile unchanged
// and link either libroctx64.so or librocprofiler-sdk-roctx.so.
#pragma once

#include "rocprofiler-sdk-roctx/roctx.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The ROCTx API version this library implements: ROCTX_VERSION_MAJOR (MINOR).
ROCTX_API uint32_t roctx_version_major(void);
ROCTX_API uint32_t roctx_version_minor(void);

#ifdef __cplusplus
}
#endif
