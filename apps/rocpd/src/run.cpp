#include <exception>

#include "commands.hpp"

namespace rocprof::rocpd_cli {

int run_rocpd(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    const auto parsed = parse_rocpd_args(args, out);
    if (!parsed) return 0;
    const auto& a = *parsed;
    if (a.command == "convert") return run_convert(a, out);
    if (a.command == "summary") return run_summary(a, out);
    if (a.command == "query") return run_query(a, out);
    if (a.command == "merge") return run_merge(a, out);
    return run_package(a, out);
  } catch (const usage_error& e) {
    err << "rocpd: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    err << "rocpd: error: internal error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace rocprof::rocpd_cli
