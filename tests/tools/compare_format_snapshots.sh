#!/usr/bin/env bash
# Compares two folders written by write_format_snapshot: every file byte for byte, except the
# OTF2 anchor file (it holds the archive's creation time and a random id), whose archive is
# compared through otf2-print instead.
#
#   compare_format_snapshots.sh BEFORE_DIR AFTER_DIR
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BEFORE_DIR AFTER_DIR" >&2; exit 2; }
before=$1 after=$2
diff -r --exclude='*.otf2' "$before" "$after"
for anchor in "$before"/*.otf2; do
  [ -e "$anchor" ] || continue
  name=$(basename "$anchor")
  diff <(otf2-print "$anchor") <(otf2-print "$after/$name")
done
echo "snapshots identical: $(find "$before" -type f | wc -l) files"
