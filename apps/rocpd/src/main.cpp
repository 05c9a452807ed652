#include <iostream>

#include "commands.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return rocprof::rocpd_cli::run_rocpd(args, std::cout, std::cerr);
}
