// The launcher's side of crash-proof outputs. Before the application starts, rocprofv3 makes a
// private registry directory and hands it to the tool (ROCPROF_RECOVERY_REGISTRY). Every
// profiled process (forked and exec'ed children included) that records something registers its
// record journal there: a symbolic link named after its pid, to the journal. A process that
// writes its outputs removes its journal and its link. After the application ends, whatever is
// left belongs to a process that did not finish (SIGKILL, the OOM killer, a fatal fault, _exit,
// a hang stopped by the user): rocprofv3 reads its journal, runs the output plan the process
// left in it through the same writers, says so on stderr, and removes the journal. The
// processes also keep their claims on output names there (`claim-<key>`, output_claim.hpp in
// the tool), so that within one run no two processes write the same names.
#pragma once

#include <ostream>
#include <string>

namespace rocprof::cli {

class recovery_registry {
 public:
  recovery_registry() = default;
  ~recovery_registry();  // removes the registry directory and its entries (not the journals)
  recovery_registry(const recovery_registry&) = delete;
  recovery_registry& operator=(const recovery_registry&) = delete;

  // Makes the directory (mkdtemp under $TMPDIR, else /tmp). Returns false and sets *error.
  bool create(std::string* error);
  const std::string& path() const { return path_; }

  // Writes the outputs of every registered process that did not write its own, and removes
  // their journals. `target_pid` and `target_status` (a waitpid status) describe how the
  // launched process ended, for the message about it. Returns how many were recovered.
  int recover(std::ostream& err, int target_pid, int target_status);
  // The user stopped everything at once: removes the journals unread and says so.
  void discard(std::ostream& err);

 private:
  std::string path_;
};

// "was killed by signal 9 (SIGKILL)", "was killed by signal 11 (SIGSEGV, core dumped)",
// "exited with status 3": how a waitpid status ended.
std::string describe_wait_status(int status);

}  // namespace rocprof::cli
