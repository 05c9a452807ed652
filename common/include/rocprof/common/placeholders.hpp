// Output-path placeholders of rocprofv3 (%pid%, %hostname%, %env{NAME}%, %argt%, ...).
// Used by the CLI (for the output directory it checks and creates) and by the tool library,
// which expands per process because %pid% is the application's.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rocprof::common {

struct placeholder_context {
  std::vector<std::string> argv;  // the application's command line
  long pid = 0, ppid = 0, pgid = 0, psid = 0;
  long psize = 0;  // number of children of the parent process
  std::string hostname;
  std::string cwd;
  std::string launch_date;  // formatted per ROCPROF_DATE_FORMAT
  std::string launch_time;  // formatted per ROCPROF_TIME_FORMAT

  // Fills every field for the calling process (argv from /proc/self/cmdline).
  static placeholder_context for_current_process();
};

// Expands every placeholder, repeating until the text stops changing.
std::string expand_placeholders(std::string_view text, const placeholder_context& context);

}  // namespace rocprof::common
