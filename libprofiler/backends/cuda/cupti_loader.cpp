#include "cupti_loader.hpp"

#include <dlfcn.h>
#include <glob.h>

#include <string_view>

namespace rocprof::cuda {
namespace {

constexpr uint32_t version_major(uint32_t v) {
  return v >= 10000 ? v / 10000 : 0;
}

std::vector<std::string> expand(const std::string& pattern) {
  if (pattern.find('*') == std::string::npos) return {pattern};
  std::vector<std::string> out;
  glob_t g{};
  if (glob(pattern.c_str(), 0, nullptr, &g) == 0) {
    for (size_t i = 0; i < g.gl_pathc; ++i)
      out.emplace_back(g.gl_pathv[i]);
  }
  globfree(&g);
  return out;
}

bool resolve_all(void* handle, cupti_table& fn, std::string& missing) {
#define ROCPROF_CUPTI_RESOLVE(name)                                    \
  fn.name = reinterpret_cast<decltype(fn.name)>(dlsym(handle, #name)); \
  if (fn.name == nullptr) missing += (missing.empty() ? "" : ", ") + std::string{#name};
  ROCPROF_CUPTI_FUNCTIONS(ROCPROF_CUPTI_RESOLVE)
#undef ROCPROF_CUPTI_RESOLVE
#define ROCPROF_CUPTI_RESOLVE_OPTIONAL(name) \
  fn.name = reinterpret_cast<decltype(fn.name)>(dlsym(handle, #name));
  ROCPROF_CUPTI_OPTIONAL_FUNCTIONS(ROCPROF_CUPTI_RESOLVE_OPTIONAL)
#undef ROCPROF_CUPTI_RESOLVE_OPTIONAL
  return missing.empty();
}

}  // namespace

std::vector<std::string> cupti_sonames() {
  std::vector<std::string> names{"libcupti.so." + std::to_string(version_major(CUPTI_API_VERSION))};
  names.emplace_back("libcupti.so");
  return names;
}

std::vector<std::string> cupti_candidate_paths(const env_lookup& env) {
  std::vector<std::string> dirs;
  auto add_env_dir = [&](const char* var, std::string_view suffix) {
    const char* v = env(var);
    if (v != nullptr && *v != '\0') dirs.push_back(std::string{v} + std::string{suffix});
  };
  std::vector<std::string> out;
  // $CUPTI_LIB may name the library itself or its folder.
  if (const char* lib = env("CUPTI_LIB"); lib != nullptr && *lib != '\0') {
    std::string_view v{lib};
    if (v.find(".so") != std::string_view::npos)
      out.emplace_back(lib);
    else
      dirs.emplace_back(lib);
  }
  add_env_dir("CUDA_HOME", "/lib64");
  add_env_dir("CUDA_PATH", "/lib64");
  dirs.emplace_back("/usr/local/cuda/lib64");
  add_env_dir("CUDA_HOME", "/extras/CUPTI/lib64");
  dirs.emplace_back("/usr/local/cuda/extras/CUPTI/lib64");
  // Python wheels: CUDA 13 uses nvidia/cu13/lib, CUDA <= 12 nvidia/cuda_cupti/lib.
  const std::string major = std::to_string(version_major(CUPTI_API_VERSION));
  for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
    add_env_dir(var, "/lib/python3*/site-packages/nvidia/cu" + major + "/lib");
    add_env_dir(var, "/lib/python3*/site-packages/nvidia/cuda_cupti/lib");
  }
  dirs.emplace_back("/usr/local/lib/python3*/dist-packages/nvidia/cu" + major + "/lib");
  dirs.emplace_back("/usr/local/lib/python3*/dist-packages/nvidia/cuda_cupti/lib");
  for (const auto& d : dirs)
    for (const auto& so : cupti_sonames())
      out.push_back(d + "/" + so);
  return out;
}

bool cupti_version_compatible(uint32_t built, uint32_t found) {
  return found != 0 && version_major(built) == version_major(found);
}

cupti_library load_cupti(const env_lookup& env) {
  cupti_library lib;
  for (const auto& so : cupti_sonames()) {
    if (void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_NOLOAD)) {
      lib.handle = h;
      lib.path = "already loaded: " + so;
      lib.was_loaded = true;
      break;
    }
  }
  std::string tried;
  if (lib.handle == nullptr) {
    for (const auto& pattern : cupti_candidate_paths(env)) {
      for (const auto& path : expand(pattern)) {
        if (void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
          lib.handle = h;
          lib.path = path;
          break;
        }
        tried += (tried.empty() ? "" : ", ") + path;
      }
      if (lib.handle != nullptr) break;
    }
  }
  if (lib.handle == nullptr) {
    lib.error = "libcupti not found (tried the loaded copies, " + tried + "); set CUPTI_LIB";
    return lib;
  }
  std::string missing;
  if (!resolve_all(lib.handle, lib.fn, missing)) {
    lib.error = lib.path + " lacks " + missing;
    dlclose(lib.handle);
    lib.handle = nullptr;
    return lib;
  }
  if (lib.fn.cuptiGetVersion(&lib.version) != CUPTI_SUCCESS ||
      !cupti_version_compatible(CUPTI_API_VERSION, lib.version)) {
    lib.error = lib.path + " reports CUPTI API version " + std::to_string(lib.version) +
                ", this backend was built for " + std::to_string(CUPTI_API_VERSION);
    dlclose(lib.handle);
    lib.handle = nullptr;
  }
  return lib;
}

}  // namespace rocprof::cuda
