// The SASS text of sampled PCs: nvdisasm's output parsed into function -> offset -> text (on
// output captured from CUDA 13.0's nvdisasm on the H100, tests/data/nvdisasm), and the child
// process around it (a stand-in script here; the real nvdisasm is checked on the H100).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "sass_disassembly.hpp"
#include "sass_listing.hpp"

namespace rocprof::cuda {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(ROCPROF_TEST_DATA_DIR) + "/nvdisasm/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(sass_listing, splits_the_pc_sampling_app_into_its_kernels_with_function_offsets) {
  const sass_listing l = parse_nvdisasm(fixture("pc_sampling_app.nvdisasm_c.txt"));
  ASSERT_EQ(l.count("_Z8fma_loopPfj"), 1u);
  ASSERT_EQ(l.count("_Z13pointer_chasePKjjPj"), 1u);
  const sass_function& fma = l.at("_Z8fma_loopPfj");
  EXPECT_EQ(fma.at(0x0), "LDC R1, c[0x0][0x28]");
  EXPECT_EQ(fma.at(0x1c0), "FFMA R4, R7, R4, R6");
  EXPECT_EQ(fma.at(0x1d0), "FFMA R8, R6.reuse, R7, R5");
  EXPECT_EQ(fma.at(0xa0), "@!P0 BRA `(.L_x_0)");  // the predicate is kept
  EXPECT_EQ(fma.at(0xa90), "STG.E desc[UR4][R2.64], R5");
  // Offsets restart at 0 in each function: they are function-relative, as CUPTI's pcOffset.
  const sass_function& chase = l.at("_Z13pointer_chasePKjjPj");
  EXPECT_EQ(chase.begin()->first, 0u);
  EXPECT_EQ(chase.at(0x180), "LDG.E R7, desc[UR4][R6.64]");
  // 16-byte instructions, one per offset, none lost.
  uint64_t expected = 0;
  for (const auto& [offset, text] : fma) {
    EXPECT_EQ(offset, expected) << text;
    expected = offset + 16;
  }
}

TEST(sass_listing, line_information_comments_change_nothing) {
  const sass_listing plain = parse_nvdisasm(fixture("cuda_app.nvdisasm_c.txt"));
  const sass_listing with_lines = parse_nvdisasm(fixture("cuda_app.nvdisasm_cg.txt"));
  ASSERT_EQ(plain.size(), 3u);
  EXPECT_EQ(plain, with_lines);
  EXPECT_EQ(plain.count("_Z4fillIiEvPT_S0_i"), 1u);
  EXPECT_EQ(plain.count("_Z4fillIfEvPT_S0_i"), 1u);
  const sass_function& fill = plain.at("_Z4fillIiEvPT_S0_i");
  EXPECT_EQ(fill.at(0x70), "@P0 EXIT");
  EXPECT_EQ(fill.at(0xe0), "BRA `(.L_x_0)");  // no space before its `;`
  EXPECT_EQ(fill.at(0xf0), "NOP");
}

TEST(sass_listing, odd_lines) {
  uint64_t offset = 0;
  std::string text;
  // The encoding comment nvdisasm prints without -c, and upper-case hex.
  ASSERT_TRUE(
      parse_sass_line("  /*0A30*/  IMAD R5, R5, UR4, R0 ; /* 0x0000000405057c24 */", offset, text));
  EXPECT_EQ(offset, 0xa30u);
  EXPECT_EQ(text, "IMAD R5, R5, UR4, R0");
  // Dual-issue braces of older architectures.
  ASSERT_TRUE(parse_sass_line("/*0008*/ { IADD3 R1, R1, -0x8, RZ ; }", offset, text));
  EXPECT_EQ(offset, 8u);
  EXPECT_EQ(text, "IADD3 R1, R1, -0x8, RZ");
  EXPECT_FALSE(parse_sass_line("/* 0x000fe200078e00ff */", offset, text));
  EXPECT_FALSE(parse_sass_line(".L_x_4:", offset, text));
  EXPECT_FALSE(parse_sass_line("//## File \"a.cu\", line 3", offset, text));
  EXPECT_FALSE(parse_sass_line("/*0010*/ ;", offset, text));
  EXPECT_FALSE(parse_sass_line("", offset, text));
  // Instructions outside a .text section (none exist, but a banner ends a function).
  const sass_listing l = parse_nvdisasm(
      "/*0000*/ NOP ;\n"
      "\t.section\t.text.k,\"ax\",@progbits\n"
      "        /*0000*/                   EXIT ;\n"
      "//--------------------- SYMBOLS --------------------------\n"
      "        /*0010*/                   NOP ;\n"
      "\t.section\t.nv.info.k,\"\",@\"SHT_CUDA_INFO\"\n"
      "        /*0020*/                   NOP ;");
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l.at("k").size(), 1u);
  EXPECT_EQ(l.at("k").at(0), "EXIT");
}

// A script standing in for nvdisasm, in a temporary directory removed afterwards.
class sass_disassembly : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/rocprof-nvdisasm-XXXXXX";
    ASSERT_NE(::mkdtemp(name), nullptr);
    dir_ = name;
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }
  std::string script(const std::string& body) {
    const std::string path = dir_ + "/nvdisasm";
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    ::chmod(path.c_str(), 0755);
    return path;
  }
  std::string dir_;
};

TEST_F(sass_disassembly, runs_nvdisasm_c_on_a_copy_of_the_cubin_and_parses_its_output) {
  const std::string fixture_path =
      std::string(ROCPROF_TEST_DATA_DIR) + "/nvdisasm/pc_sampling_app.nvdisasm_c.txt";
  // Prints the fixture only when called as `nvdisasm -c <file>` with the cubin's bytes in file,
  // and without the profiler's preload in its environment.
  const std::string tool = script(
      "[ \"$1\" = -c ] && [ \"$(cat \"$2\")\" = CUBIN ] && "
      "[ -z \"$LD_PRELOAD\" ] && cat " +
      fixture_path);
  ::setenv("LD_PRELOAD", "", 1);
  sass_listing l;
  std::string error;
  const char cubin[] = "CUBIN";
  ASSERT_TRUE(disassemble_cubin(tool, cubin, 5, l, error)) << error;
  EXPECT_EQ(l.at("_Z8fma_loopPfj").at(0x1c0), "FFMA R4, R7, R4, R6");
  ::unsetenv("LD_PRELOAD");
}

TEST_F(sass_disassembly, a_failing_or_hung_disassembler_gives_no_listing_and_says_why) {
  sass_listing l;
  std::string error;
  EXPECT_FALSE(disassemble_cubin(script("exit 3"), "x", 1, l, error));
  EXPECT_NE(error.find("failed"), std::string::npos) << error;
  EXPECT_FALSE(disassemble_cubin(script("echo not sass"), "x", 1, l, error));
  EXPECT_NE(error.find("no instruction"), std::string::npos) << error;
  EXPECT_FALSE(disassemble_cubin(dir_ + "/absent", "x", 1, l, error));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(
      disassemble_cubin(script("exec sleep 30"), "x", 1, l, error, std::chrono::milliseconds(200)));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_NE(error.find("did not finish"), std::string::npos) << error;
}

TEST_F(sass_disassembly, the_disassembler_is_found_from_the_environment_or_turned_off) {
  const std::string tool = script("true");
  ::setenv("ROCPROF_NVDISASM", tool.c_str(), 1);
  EXPECT_EQ(find_nvdisasm(), tool);
  ::setenv("ROCPROF_NVDISASM", "0", 1);
  EXPECT_EQ(find_nvdisasm(), "");
  ::setenv("ROCPROF_NVDISASM", "", 1);
  EXPECT_EQ(find_nvdisasm(), "");
  ::unsetenv("ROCPROF_NVDISASM");
  const char* old_home = std::getenv("CUDA_HOME");
  const std::string saved = old_home != nullptr ? old_home : "";
  ::mkdir((dir_ + "/bin").c_str(), 0755);
  ::rename(tool.c_str(), (dir_ + "/bin/nvdisasm").c_str());
  ::setenv("CUDA_HOME", dir_.c_str(), 1);
  EXPECT_EQ(find_nvdisasm(), dir_ + "/bin/nvdisasm");
  if (old_home != nullptr)
    ::setenv("CUDA_HOME", saved.c_str(), 1);
  else
    ::unsetenv("CUDA_HOME");
}

}  // namespace
}  // namespace rocprof::cuda
