// Finds and opens the one libcupti the process should use. Order (cupti-notes §8.2): a copy
// already mapped (PyTorch preloads its wheel's copy), $CUPTI_LIB, $CUDA_HOME/lib64,
// /usr/local/cuda/lib64, the CUDA <= 12 extras/CUPTI/lib64 folder, then Python wheel folders.
// Loading a second copy breaks the one-subscriber rule across copies, so RTLD_NOLOAD comes first
// and a found copy ends the search.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cupti_table.hpp"

namespace rocprof::cuda {

// Returns the value of an environment variable or nullptr; replaceable for tests.
using env_lookup = std::function<const char*(const char*)>;

// The sonames tried, newest first; the built major comes first.
std::vector<std::string> cupti_sonames();

// Absolute candidate paths, in search order, for the given environment. Pure: touches no file.
std::vector<std::string> cupti_candidate_paths(const env_lookup& env);

struct cupti_library {
  void* handle = nullptr;
  std::string path;         // where it came from ("already loaded: <soname>" for NOLOAD hits)
  bool was_loaded = false;  // true when another component had mapped it before us
  uint32_t version = 0;     // cuptiGetVersion
  cupti_table fn;
  std::string error;  // why loading failed, empty on success
};

// Opens libcupti and resolves every entry point. On failure `handle` is null and `error` says
// what was tried. A version different from the one built against is accepted with a warning in
// `error` only when the major matches (record layouts are versioned per CUDA major).
cupti_library load_cupti(const env_lookup& env);

// true when `found` (cuptiGetVersion) can be used by code built for `built` (CUPTI_API_VERSION).
bool cupti_version_compatible(uint32_t built, uint32_t found);

}  // namespace rocprof::cuda
