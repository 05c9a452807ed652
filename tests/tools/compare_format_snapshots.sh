#!/usr/bin/env bash
# Compares two folders written by write_format_snapshot: every file byte for byte, except three
# values that differ from run to run or build to build, not with the writers' code:
#  * the OTF2 anchor file (the archive's creation time and a random id): its archive is compared
#    through otf2-print instead;
#  * the OTF2 global definitions (<name>.def): the clock properties' realtime date is read from
#    the clocks at write time, so they are compared through `otf2-print -G` with that date removed;
#  * the config JSON's "git_revision" (the commit the build was configured at).
#
#   compare_format_snapshots.sh BEFORE_DIR AFTER_DIR
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BEFORE_DIR AFTER_DIR" >&2; exit 2; }
before=$1 after=$2
excludes=(--exclude='*.otf2' --exclude='*_config.json')
for anchor in "$before"/*.otf2; do
  [ -e "$anchor" ] && excludes+=(--exclude="$(basename "$anchor" .otf2).def")
done
diff -r "${excludes[@]}" "$before" "$after"
without_date() { otf2-print -G "$1" | sed -E 's/, Date: .*$//'; }
for anchor in "$before"/*.otf2; do
  [ -e "$anchor" ] || continue
  name=$(basename "$anchor")
  diff <(otf2-print "$anchor") <(otf2-print "$after/$name")
  diff <(without_date "$anchor") <(without_date "$after/$name")
done
for config in "$before"/*_config.json; do
  [ -e "$config" ] || continue
  name=$(basename "$config")
  diff <(grep -v '"git_revision"' "$config") <(grep -v '"git_revision"' "$after/$name")
done
echo "snapshots identical: $(find "$before" -type f | wc -l) files"
