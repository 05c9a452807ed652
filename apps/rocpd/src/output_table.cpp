#include "output_table.hpp"

#include <filesystem>
#include <fstream>

#include "options.hpp"

namespace rocprof::rocpd_cli {

void emit_table(const result_table& table, const std::string& format, const std::string& dir,
                const std::string& name, std::ostream& out) {
  if (format == "console") {
    out << render(table, format);
    return;
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path path = fs::path(dir) / (name + "." + format);
  std::ofstream file(path, std::ios::trunc);
  file << render(table, format);
  if (!file) throw usage_error("cannot write " + path.string());
  out << "Exported to: " << fs::absolute(path).string() << "\n";
}

}  // namespace rocprof::rocpd_cli
