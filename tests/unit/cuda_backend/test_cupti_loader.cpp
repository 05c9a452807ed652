// libcupti search order and version check; the last test opens the toolkit's real libcupti
// (present wherever the backend is built) without needing a GPU.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "cupti_loader.hpp"

namespace rocprof::cuda {
namespace {

env_lookup fake_env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

size_t index_of(const std::vector<std::string>& v, const std::string& s) {
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] == s) return i;
  return v.size();
}

TEST(cupti_loader, search_order_follows_the_issue) {
  const auto paths = cupti_candidate_paths(fake_env(
      {{"CUPTI_LIB", "/opt/cupti/lib"}, {"CUDA_HOME", "/opt/cuda-x"}, {"VIRTUAL_ENV", "/venv"}}));
  const std::string so = cupti_sonames().front();
  const size_t env_lib = index_of(paths, "/opt/cupti/lib/" + so);
  const size_t cuda_home = index_of(paths, "/opt/cuda-x/lib64/" + so);
  const size_t usr_local = index_of(paths, "/usr/local/cuda/lib64/" + so);
  const size_t extras = index_of(paths, "/usr/local/cuda/extras/CUPTI/lib64/" + so);
  size_t wheel = paths.size();
  for (size_t i = 0; i < paths.size(); ++i) {
    if (paths[i].rfind("/venv/lib/python3*/site-packages/nvidia/", 0) == 0) {
      wheel = i;
      break;
    }
  }
  ASSERT_LT(env_lib, paths.size());
  ASSERT_LT(wheel, paths.size());
  EXPECT_LT(env_lib, cuda_home);
  EXPECT_LT(cuda_home, usr_local);
  EXPECT_LT(usr_local, extras);
  EXPECT_LT(extras, wheel);
}

TEST(cupti_loader, cupti_lib_may_name_the_file) {
  const auto paths = cupti_candidate_paths(fake_env({{"CUPTI_LIB", "/x/libcupti.so.13"}}));
  ASSERT_FALSE(paths.empty());
  EXPECT_EQ(paths.front(), "/x/libcupti.so.13");
}

TEST(cupti_loader, soname_matches_built_major) {
  EXPECT_EQ(cupti_sonames().front(), "libcupti.so." + std::to_string(CUPTI_API_VERSION / 10000));
}

TEST(cupti_loader, version_compatibility) {
  EXPECT_TRUE(cupti_version_compatible(130001, 130001));
  EXPECT_TRUE(cupti_version_compatible(130001, 130002));
  EXPECT_FALSE(cupti_version_compatible(130001, 120009));
  EXPECT_FALSE(cupti_version_compatible(130001, 0));
}

TEST(cupti_loader, opens_the_toolkit_libcupti_and_checks_its_version) {
  const cupti_library lib = load_cupti([](const char* name) { return std::getenv(name); });
  if (lib.handle == nullptr) GTEST_SKIP() << "no libcupti on this machine: " << lib.error;
  EXPECT_TRUE(lib.error.empty()) << lib.error;
  EXPECT_TRUE(cupti_version_compatible(CUPTI_API_VERSION, lib.version)) << lib.version;
  EXPECT_NE(lib.fn.cuptiActivityRegisterTimestampCallback, nullptr);
  EXPECT_NE(lib.fn.cuptiSubscribe_v2, nullptr);
  // A second load finds the copy now mapped instead of opening another one.
  const cupti_library again = load_cupti([](const char*) -> const char* { return nullptr; });
  ASSERT_NE(again.handle, nullptr);
  EXPECT_TRUE(again.was_loaded);
  EXPECT_EQ(again.handle, lib.handle);
}

}  // namespace
}  // namespace rocprof::cuda
