#!/usr/bin/env bash
# Runs one libFuzzer target for a while on a scratch copy of its stored corpus, so that the
# corpus in the source tree is only read. Crashes, leaks and timeouts fail (non-zero status) and
# leave the input under <work>/artifacts/.
#   run_fuzzer.sh <fuzz binary> <stored corpus dir> <work dir> <seconds> [libFuzzer flags...]
set -euo pipefail
binary=$1 corpus=$2 work=$3 seconds=$4
shift 4
mkdir -p "$work/corpus" "$work/artifacts"
exec "$binary" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
  -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" "$corpus"
