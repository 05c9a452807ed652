// Legacy header name (roctracer's roctx.h, included as <roctx.h>): see roctracer/roctx.h.
#pragma once

#include "roctracer/roctx.h"
