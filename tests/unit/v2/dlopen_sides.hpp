// Calls through a dlopen handle with each library's own signatures (dlopen_v2_side.cpp sees
// only the v2 header, dlopen_sdk_side.cpp only the core's).
#pragma once

namespace dlopen_sides {

int v2_create_buffer(void* v2_handle);
int v2_initialize(void* v2_handle);
int v2_finalize(void* v2_handle);
int core_create_buffer(void* core_handle);
int core_initialized(void* core_handle);

}  // namespace dlopen_sides
