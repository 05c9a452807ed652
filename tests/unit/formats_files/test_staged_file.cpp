// Staged output files: written under a private name, renamed over the final one when complete,
// never through a link planted at either name, removed when dropped.
#include "rocprof/trace/staged_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "common/output_file.hpp"
#include "rocprof/test_support/test_env.hpp"

namespace {

using rocprof::test_support::read_file;
using rocprof::test_support::temp_dir;
using rocprof::trace::staged_file;

bool is_link(const std::string& path) {
  struct stat info {};
  return ::lstat(path.c_str(), &info) == 0 && S_ISLNK(info.st_mode);
}

bool exists(const std::string& path) {
  struct stat info {};
  return ::lstat(path.c_str(), &info) == 0;
}

void write_all(int fd, const std::string& text) {
  ASSERT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
}

TEST(StagedFile, AppearsUnderItsNameOnlyWhenCommitted) {
  temp_dir dir("staged");
  const std::string path = dir.path() + "/sub/out.csv";
  staged_file file;
  ASSERT_TRUE(file.create(path)) << file.error();
  write_all(file.fd(), "a,b\n");
  EXPECT_FALSE(exists(path)) << "visible before it is complete";
  EXPECT_TRUE(exists(file.temp_path()));
  const std::string temp = file.temp_path();
  EXPECT_EQ(file.commit(), "");
  EXPECT_EQ(read_file(path), "a,b\n");
  EXPECT_FALSE(exists(temp));
}

TEST(StagedFile, ReplacesAnEarlierFileInOneStep) {
  temp_dir dir("staged");
  const std::string path = dir.write("out.json", "old contents");
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  staged_file file;
  ASSERT_TRUE(file.create(path));
  write_all(file.fd(), "new");
  EXPECT_EQ(read_file(path), "old contents") << "truncated in place";
  EXPECT_EQ(file.commit(), "");
  EXPECT_EQ(read_file(path), "new");
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_NE(before.st_ino, after.st_ino) << "a new file, not the old one rewritten";
}

TEST(StagedFile, PlantedLinkIsReplacedAndItsTargetUntouched) {
  temp_dir dir("staged");
  const std::string victim = dir.write("victim", "precious");
  const std::string path = dir.path() + "/out.pftrace";
  ASSERT_EQ(::symlink(victim.c_str(), path.c_str()), 0);
  staged_file file;
  ASSERT_TRUE(file.create(path));
  write_all(file.fd(), "trace");
  EXPECT_EQ(file.commit(), "");
  EXPECT_EQ(read_file(victim), "precious");
  EXPECT_FALSE(is_link(path));
  EXPECT_EQ(read_file(path), "trace");
}

TEST(StagedFile, DiscardedOrDestroyedUncommittedLeavesNothing) {
  temp_dir dir("staged");
  const std::string path = dir.path() + "/out.db";
  std::string temp;
  {
    staged_file file;
    ASSERT_TRUE(file.create(path));
    temp = file.temp_path();
  }
  EXPECT_FALSE(exists(temp));
  EXPECT_FALSE(exists(path));
  staged_file file;
  ASSERT_TRUE(file.create(path));
  temp = file.temp_path();
  file.discard();
  EXPECT_FALSE(exists(temp));
  EXPECT_FALSE(exists(path));
}

TEST(StagedFile, TwoWritersOfOneNameNeverShareAFile) {
  temp_dir dir("staged");
  const std::string path = dir.path() + "/out.csv";
  staged_file a, b;
  ASSERT_TRUE(a.create(path));
  ASSERT_TRUE(b.create(path));
  EXPECT_NE(a.temp_path(), b.temp_path());
  write_all(a.fd(), "a");
  write_all(b.fd(), "b");
  EXPECT_EQ(a.commit(), "");
  EXPECT_EQ(b.commit(), "");
  EXPECT_EQ(read_file(path), "b") << "the later one replaces the earlier one whole";
}

// What a forced stop does (three interrupts within a second): every unfinished file goes, the
// finished ones stay, and no new one can be started. In a child: the stop is for good.
TEST(StagedFile, RemoveUnfinishedOutputsKeepsCompleteFilesOnly) {
  temp_dir dir("staged");
  const pid_t child = ::fork();
  if (child == 0) {
    staged_file done, pending;
    bool ok = done.create(dir.path() + "/done.csv") && pending.create(dir.path() + "/pending.csv");
    ok = ok && done.commit().empty();
    const std::string temp = pending.temp_path();
    ok = ok && rocprof::trace::remove_unfinished_outputs() == 1;
    ok = ok && !exists(temp) && exists(dir.path() + "/done.csv");
    staged_file late;
    ok = ok && !late.create(dir.path() + "/late.csv");
    ::_exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(OutputFile, FailedOrUnclosedFilesNeverGetTheirName) {
  temp_dir dir("staged");
  const std::string path = dir.path() + "/rows.csv";
  {
    rocprof::formats::output_file f{path};
    f.write("row\n");
  }  // destroyed without close(): not finished
  EXPECT_FALSE(exists(path));
  rocprof::formats::output_file f{path};
  f.write("row\n");
  EXPECT_EQ(f.close(), "");
  EXPECT_EQ(read_file(path), "row\n");
}

TEST(OutputFile, ScratchContentsMoveIntoAnotherFileAndTheScratchGoes) {
  temp_dir dir("staged");
  rocprof::formats::output_file part{dir.path() + "/doc.json.part0"};
  part.write("[1,2,3]");
  rocprof::formats::output_file doc{dir.path() + "/doc.json"};
  doc.write("{\"a\":");
  EXPECT_EQ(part.move_contents_to(doc), "");
  doc.write("}");
  EXPECT_EQ(doc.close(), "");
  EXPECT_EQ(read_file(dir.path() + "/doc.json"), "{\"a\":[1,2,3]}");
  EXPECT_FALSE(exists(dir.path() + "/doc.json.part0"));
  EXPECT_EQ(rocprof::test_support::run_command("ls -A " + dir.path()), "doc.json\n");
}

}  // namespace
