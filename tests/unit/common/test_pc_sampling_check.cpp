// The PC sampling request check shared by the core and the CLI.
#include <gtest/gtest.h>

#include "rocprof/common/pc_sampling_check.hpp"

namespace rocprof::pc_sampling {
namespace {

// What an H100 offers through CUPTI: method 1 (stochastic), unit 2 (cycles), 2^5..2^31.
const offer k_nvidia[] = {{1, 2, 32, uint64_t{1} << 31, true}};
// An AMD-like host-trap offer: method 2, unit 3 (time), any interval in range.
const offer k_range[] = {{2, 3, 1, 1000000, false}};

TEST(pc_sampling_check, a_power_of_two_in_range_is_ok) {
  EXPECT_EQ(check_request(k_nvidia, 1, 1, 2, 4096).outcome, verdict::ok);
  EXPECT_EQ(check_request(k_nvidia, 1, 1, 2, 32).outcome, verdict::ok);
  EXPECT_EQ(check_request(k_nvidia, 1, 1, 2, uint64_t{1} << 31).outcome, verdict::ok);
}

TEST(pc_sampling_check, method_or_unit_not_offered) {
  EXPECT_EQ(check_request(k_nvidia, 1, 2, 2, 4096).outcome, verdict::not_offered);
  EXPECT_EQ(check_request(k_nvidia, 1, 1, 3, 4096).outcome, verdict::not_offered);
  EXPECT_EQ(check_request(nullptr, 0, 1, 2, 4096).outcome, verdict::not_offered);
}

TEST(pc_sampling_check, not_a_power_of_two_names_both_neighbours) {
  const check_result r = check_request(k_nvidia, 1, 1, 2, 5000);
  EXPECT_EQ(r.outcome, verdict::not_power_of_two);
  EXPECT_EQ(r.lower, 4096u);
  EXPECT_EQ(r.upper, 8192u);
}

TEST(pc_sampling_check, out_of_range_names_the_nearest_valid_value) {
  check_result r = check_request(k_nvidia, 1, 1, 2, 16);
  EXPECT_EQ(r.outcome, verdict::out_of_range);
  EXPECT_EQ(r.lower, 32u);
  r = check_request(k_nvidia, 1, 1, 2, uint64_t{1} << 32);
  EXPECT_EQ(r.outcome, verdict::out_of_range);
  EXPECT_EQ(r.upper, uint64_t{1} << 31);
  r = check_request(k_nvidia, 1, 1, 2, 0);
  EXPECT_EQ(r.outcome, verdict::out_of_range);
  EXPECT_EQ(r.lower, 32u);
}

TEST(pc_sampling_check, a_range_without_pow2_takes_any_value_inside) {
  EXPECT_EQ(check_request(k_range, 1, 2, 3, 12345).outcome, verdict::ok);
  const check_result r = check_request(k_range, 1, 2, 3, 2000000);
  EXPECT_EQ(r.outcome, verdict::out_of_range);
  EXPECT_EQ(r.upper, 1000000u);
}

TEST(pc_sampling_check, pow2_range_whose_ends_are_not_powers_of_two) {
  const offer odd[] = {{1, 2, 40, 5000, true}};
  const check_result low = check_request(odd, 1, 1, 2, 8);
  EXPECT_EQ(low.lower, 64u);  // the smallest power of two inside [40, 5000]
  const check_result high = check_request(odd, 1, 1, 2, 9000);
  EXPECT_EQ(high.upper, 4096u);
  const check_result mid = check_request(odd, 1, 1, 2, 4500);  // 8192 is out of range
  EXPECT_EQ(mid.outcome, verdict::not_power_of_two);
  EXPECT_EQ(mid.lower, 4096u);
  EXPECT_EQ(mid.upper, 4096u);
}

}  // namespace
}  // namespace rocprof::pc_sampling
