// The CUDA API argument memo: a hit only for the same kind, operation, return code and argument
// bytes; bytes past the argument size never matter; a colliding key replaces the older one.
#include "api_args_memo.hpp"

#include <gtest/gtest.h>

#include <cstring>

namespace rocprof::tool {
namespace {

struct params {
  uint64_t words[16];
};

api_args_key key_of(const params& p, uint32_t size, int32_t operation = 7, int32_t rc = 0,
                    uint32_t kind = 21) {
  return api_args_key{kind, operation, rc, size, p.words};
}

TEST(ApiArgsMemo, HitsOnlyTheSameCall) {
  api_args_memo memo;
  params p{};
  for (int i = 0; i < 16; ++i)
    p.words[i] = 0x1000u + static_cast<uint64_t>(i);
  trace::string_id id = 0;
  EXPECT_FALSE(memo.find(key_of(p, 40), &id));
  memo.remember(42);
  EXPECT_TRUE(memo.find(key_of(p, 40), &id));
  EXPECT_EQ(id, 42u);
  EXPECT_FALSE(memo.find(key_of(p, 40, 8), &id)) << "another operation";
  EXPECT_FALSE(memo.find(key_of(p, 40, 7, 1), &id)) << "another return code";
  EXPECT_FALSE(memo.find(key_of(p, 40, 7, 0, 22), &id)) << "another kind";
  EXPECT_FALSE(memo.find(key_of(p, 48), &id)) << "another size";
  params q = p;
  q.words[4] ^= 1;
  EXPECT_FALSE(memo.find(key_of(q, 40), &id)) << "another argument value";
  EXPECT_TRUE(memo.find(key_of(p, 40), &id));
  EXPECT_EQ(id, 42u);
}

TEST(ApiArgsMemo, BytesPastTheSizeDoNotMatter) {
  api_args_memo memo;
  params p{};
  std::memset(p.words, 0xab, sizeof(p.words));
  trace::string_id id = 0;
  EXPECT_FALSE(memo.find(key_of(p, 12), &id));
  memo.remember(5);
  params q = p;
  std::memset(reinterpret_cast<char*>(q.words) + 12, 0x11, sizeof(q.words) - 12);
  EXPECT_TRUE(memo.find(key_of(q, 12), &id));
  EXPECT_EQ(id, 5u);
  reinterpret_cast<char*>(q.words)[11] = 0;
  EXPECT_FALSE(memo.find(key_of(q, 12), &id)) << "the last byte in use differs";
}

TEST(ApiArgsMemo, NoArgumentsAreNeverRemembered) {
  api_args_memo memo;
  params p{};
  trace::string_id id = 9;
  EXPECT_FALSE(memo.find(key_of(p, 0), &id));
  memo.remember(3);
  EXPECT_FALSE(memo.find(key_of(p, 0), &id));
  EXPECT_FALSE(memo.find(key_of(p, api_args_memo::max_bytes + 1), &id));
  EXPECT_EQ(id, 9u);
}

TEST(ApiArgsMemo, ManyKeysEachGiveTheirOwnIdOrAMiss) {
  api_args_memo memo;
  params p{};
  trace::string_id id = 0;
  const uint32_t keys = 4 * api_args_memo::slots;
  for (uint32_t i = 0; i < keys; ++i) {
    p.words[0] = i;
    if (!memo.find(key_of(p, 8), &id)) memo.remember(i + 1);
  }
  uint32_t hits = 0;
  for (uint32_t i = 0; i < keys; ++i) {
    p.words[0] = i;
    if (memo.find(key_of(p, 8), &id)) {
      EXPECT_EQ(id, i + 1);
      ++hits;
    }
  }
  EXPECT_GT(hits, 0u);
  EXPECT_LE(hits, api_args_memo::slots);
}

}  // namespace
}  // namespace rocprof::tool
