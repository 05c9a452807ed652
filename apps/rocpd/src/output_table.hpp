// Where a result table goes: the console (stdout), or a file <dir>/<name>.<format> announced on
// stdout, as AMD's rocpd does.
#pragma once

#include <ostream>
#include <string>

#include "result_table.hpp"

namespace rocprof::rocpd_cli {

void emit_table(const result_table& table, const std::string& format, const std::string& dir,
                const std::string& name, std::ostream& out);

}  // namespace rocprof::rocpd_cli
