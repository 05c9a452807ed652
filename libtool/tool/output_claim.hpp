// One writer per output name. A process claims the prefix of its outputs
// (<output directory>/<file prefix>) when it first has records, and holds the claim until it
// exits; another process whose outputs would get the same names writes them under
// "<prefix>-<pid>" instead (the form rocprofv3's %pid% placeholder suggests), and says so.
//
// Two claims, both atomic and both keyed by the prefix's absolute path:
//   * within one rocprofv3 run (the run's recovery registry): a file `claim-<key>` made with
//     O_CREAT|O_EXCL. The first process of the run to claim a prefix keeps it, whether the
//     others run at the same time (a forking application with -o same) or after it;
//   * between runs, and without rocprofv3: an abstract-namespace Unix socket bound to
//     `rocprofv3-outputs-<uid>-<key>`: the kernel releases it when the process dies (even by
//     SIGKILL) and it leaves nothing on disk. A later run replaces an earlier run's files (each
//     in one step, see rocprof/trace/staged_file.hpp); two runs at once never share them.
// A forked child inherits the parent's socket but not its claim: it forgets the descriptor and
// makes its own.
#pragma once

#include <string>

namespace rocprof::tool {

class output_claim {
 public:
  output_claim() = default;
  ~output_claim();
  output_claim(const output_claim&) = delete;
  output_claim& operator=(const output_claim&) = delete;

  // Claims `prefix` in `directory`, or "<prefix>-<pid>" when another process of this run
  // (run_registry, empty without rocprofv3) or a live process of another run holds it. Returns
  // the prefix this process writes; the prefix as given when no claim can be made at all.
  std::string claim(const std::string& directory, const std::string& prefix,
                    const std::string& run_registry);
  bool suffixed() const { return suffixed_; }

  // In a forked child: closes the inherited descriptor (the parent keeps its claim).
  void forget_in_forked_child();

 private:
  int fd_ = -1;
  bool suffixed_ = false;
};

// The key of a prefix: "<uid>-<hash of its absolute path>" (exposed for tests).
std::string claim_key(const std::string& directory, const std::string& prefix);

}  // namespace rocprof::tool
