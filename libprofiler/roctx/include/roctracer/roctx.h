// Legacy header name (roctracer's roctx.h): same API as rocprofiler-sdk-roctx/roctx.h.
#pragma once

#include "rocprofiler-sdk-roctx/roctx.h"
