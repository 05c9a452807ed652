// Output-path placeholders of rocprofv3 (%pid%, %hostname%, %env{NAME}%, %argt%, ...).
// Used by the CLI (for the output directory it checks and creates) and by the tool library,
// which expands per process because %pid% is the application's.
#pragma once

#include <cstddef>
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

// Limits that keep expansion bounded whatever the template and the environment hold.
inline constexpr size_t k_max_expanded_length = 65536;  // bytes; paths are far shorter
// No command line has this many arguments (the kernel's argument space is a few MB), so a
// larger %argN% is a mistake: the CLI refuses it, the expansion removes it like any N past the
// end, and nothing overflows.
inline constexpr size_t k_max_arg_index = 1000000000;

// Expands every placeholder, repeating until the text stops changing (16 rounds at most). Never
// throws for any text; stops growing at k_max_expanded_length.
std::string expand_placeholders(std::string_view text, const placeholder_context& context);

// Why `text` is not a usable template for `context` (an %argN% past k_max_arg_index, or an
// expansion past k_max_expanded_length), or an empty string. The CLI's check before launch.
std::string placeholder_problem(std::string_view text, const placeholder_context& context);

}  // namespace rocprof::common
