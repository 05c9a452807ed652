#include <gtest/gtest.h>

#include <sstream>

#include "list_avail.hpp"
#include "rocprof/test_support/test_env.hpp"

using rocprof::cli::print_list_avail;
using rocprof::test_support::temp_dir;

TEST(ListAvail, OneCpuAgentPerPackage) {
  temp_dir dir;
  const auto cpuinfo = dir.write("cpuinfo",
                                 "processor\t: 0\nmodel name\t: Alpha CPU\nphysical id\t: 0\n\n"
                                 "processor\t: 1\nmodel name\t: Alpha CPU\nphysical id\t: 0\n\n"
                                 "processor\t: 2\nmodel name\t: Beta CPU\nphysical id\t: 1\n\n");
  std::ostringstream out;
  print_list_avail(out, cpuinfo);
  const std::string text = out.str();
  EXPECT_NE(text.find("CPU:0\n    Name: Alpha CPU\n    Logical processors: 2"), std::string::npos)
      << text;
  EXPECT_NE(text.find("CPU:1\n    Name: Beta CPU\n    Logical processors: 1"), std::string::npos)
      << text;
  EXPECT_NE(text.find("CUDA backend"), std::string::npos);
}

TEST(ListAvail, ThisMachine) {
  std::ostringstream out;
  print_list_avail(out);
  EXPECT_NE(out.str().find("CPU:0"), std::string::npos) << out.str();
}
