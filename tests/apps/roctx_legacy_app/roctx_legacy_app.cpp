// A program written against roctracer's legacy ROCTx header (<roctracer/roctx.h>) and library
// (libroctx64): it compiles and links only if both offer roctx_version_major/minor. It makes
// one mark, "roctracer/roctx v<major>.<minor>", as AMD's roctracer-roctx test program does, and
// nothing else (so its trace has marks alone), then prints the version.
#include <roctracer/roctx.h>

#include <cstdio>
#include <string>

int main() {
  const std::string version =
      std::to_string(roctx_version_major()) + "." + std::to_string(roctx_version_minor());
  roctxMark(("roctracer/roctx v" + version).c_str());
  std::printf("roctx %s\n", version.c_str());
  return 0;
}
