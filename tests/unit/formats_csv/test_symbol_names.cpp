// Kernel symbol name forms: demangling, truncation (-T) and the display name per -M / -T.
#include <gtest/gtest.h>

#include "rocprof/formats/symbol_names.hpp"

namespace {

using rocprof::formats::demangle_symbol;
using rocprof::formats::format_symbol_names;
using rocprof::formats::truncate_symbol;

TEST(symbol_names, demangles_itanium_and_keeps_plain_names) {
  EXPECT_EQ(demangle_symbol("_Z4fillIfEvPT_S0_i"), "void fill<float>(float*, float, int)");
  EXPECT_EQ(demangle_symbol("_Z15matrixTransposePfS_i"), "matrixTranspose(float*, float*, int)");
  // cuBLAS and extern "C" kernels are not mangled; broken manglings stay as they are.
  EXPECT_EQ(demangle_symbol("sm80_xmma_gemm_f32f32_cublas"), "sm80_xmma_gemm_f32f32_cublas");
  EXPECT_EQ(demangle_symbol("_Zgarbage"), "_Zgarbage");
  EXPECT_EQ(demangle_symbol(""), "");
}

TEST(symbol_names, truncates_to_the_bare_function_name) {
  EXPECT_EQ(truncate_symbol("void fill<float>(float*, float, int)"), "fill");
  EXPECT_EQ(truncate_symbol("matrixTranspose(float*, float*, int)"), "matrixTranspose");
  EXPECT_EQ(truncate_symbol("void at::native::(anonymous namespace)::kern<float, 4>(int, "
                            "at::detail::Array<char*, 2>)"),
            "kern");
  EXPECT_EQ(truncate_symbol("ns::cls::method(int) const"), "method");
  EXPECT_EQ(truncate_symbol("void f<(anonymous namespace)::op<int> >(int)"), "f");
  EXPECT_EQ(truncate_symbol("plain_c_kernel"), "plain_c_kernel");
}

TEST(symbol_names, display_name_follows_mangled_and_truncate_options) {
  rocprof::trace::kernel_symbol_info s;
  s.mangled_name = "_Z4fillIiEvPT_S0_i";
  format_symbol_names(s, /*demangle=*/true, /*truncate=*/false);
  EXPECT_EQ(s.display_name, "void fill<int>(int*, int, int)");
  EXPECT_EQ(s.truncated_name, "fill");
  format_symbol_names(s, true, true);
  EXPECT_EQ(s.display_name, "fill");
  format_symbol_names(s, false, true);  // -M wins: rocprofv3 shows the raw symbol
  EXPECT_EQ(s.display_name, "_Z4fillIiEvPT_S0_i");
}

}  // namespace
