#include <iostream>

#include "run.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return rocprof::cli::run_rocprofv3(args, std::cout, std::cerr);
}
