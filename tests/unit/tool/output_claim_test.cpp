// One writer per output name: the second claim of a prefix, at the same time or (within one
// run) later, gets "<prefix>-<pid>"; other prefixes and other runs' finished claims do not.
#include "output_claim.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "rocprof/test_support/test_env.hpp"

namespace {

using rocprof::tool::output_claim;

std::string unique_prefix(const char* tag) {
  return std::string(tag) + "-" + std::to_string(::getpid()) + "-" +
         std::to_string(::testing::UnitTest::GetInstance()->random_seed());
}

TEST(OutputClaim, ALiveClaimMakesTheSecondWriterUseItsPid) {
  rocprof::test_support::temp_dir dir("claim");
  const std::string prefix = unique_prefix("live");
  output_claim first, second;
  EXPECT_EQ(first.claim(dir.path(), prefix, ""), prefix);
  EXPECT_FALSE(first.suffixed());
  EXPECT_EQ(second.claim(dir.path(), prefix, ""), prefix + "-" + std::to_string(::getpid()));
  EXPECT_TRUE(second.suffixed());
  output_claim other;
  EXPECT_EQ(other.claim(dir.path(), prefix + "-other", ""), prefix + "-other");
}

TEST(OutputClaim, AClaimEndsWithItsProcessBetweenRuns) {
  rocprof::test_support::temp_dir dir("claim");
  const std::string prefix = unique_prefix("ends");
  const pid_t child = ::fork();
  if (child == 0) {
    output_claim held;
    ::_exit(held.claim(dir.path(), prefix, "") == prefix ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  output_claim later;
  EXPECT_EQ(later.claim(dir.path(), prefix, ""), prefix) << "a later run replaces the files";
}

TEST(OutputClaim, WithinOneRunALaterProcessDoesNotReuseTheName) {
  rocprof::test_support::temp_dir dir("claim");
  rocprof::test_support::temp_dir registry("registry");
  const std::string prefix = unique_prefix("run");
  const pid_t child = ::fork();
  if (child == 0) {
    output_claim held;
    ::_exit(held.claim(dir.path(), prefix, registry.path()) == prefix ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  output_claim later;
  EXPECT_EQ(later.claim(dir.path(), prefix, registry.path()),
            prefix + "-" + std::to_string(::getpid()));
}

TEST(OutputClaim, AForkedChildMakesItsOwnClaim) {
  rocprof::test_support::temp_dir dir("claim");
  const std::string prefix = unique_prefix("fork");
  output_claim parent;
  ASSERT_EQ(parent.claim(dir.path(), prefix, ""), prefix);
  const pid_t child = ::fork();
  if (child == 0) {
    parent.forget_in_forked_child();
    output_claim mine;
    ::_exit(mine.claim(dir.path(), prefix, "") == prefix + "-" + std::to_string(::getpid()) ? 0
                                                                                            : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  output_claim again;
  EXPECT_TRUE(again.claim(dir.path(), prefix, "") != prefix) << "the parent still holds it";
}

}  // namespace
