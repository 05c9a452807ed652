#!/usr/bin/env bash
# Installs exactly the Debian 12 packages this project needs to build, test and run.
# Run as root (or with sudo available). Non-interactive; safe to run again.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config git file
  libcli11-dev nlohmann-json3-dev libyaml-cpp-dev libfmt-dev libsqlite3-dev libdw-dev
  libopen-trace-format2-dev libre2-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  # The golden tests' independent readers: without one they fail (never skip).
  otf2-tools protobuf-compiler sqlite3 python3
  libtrilinos-kokkos-dev
  # The fuzz targets (tests/fuzz, run by ctest): clang with libFuzzer and the sanitizers.
  clang libclang-rt-14-dev
  # The MPI sample and its multi-rank test (mpirun).
  openmpi-bin libopenmpi-dev
)
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
