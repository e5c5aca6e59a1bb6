#!/usr/bin/env bash
# Fails when a `*.snap` file in the tree was not read by any snapshot assertion: a snapshot
# whose test was renamed, or whose case was deleted, would otherwise sit in the tree
# unnoticed and mislead a reader (STYLE.md: `--unreferenced reject`, without cargo-insta).
#
#   scripts/unreferenced-snapshots.sh REFS
#
# REFS is the file insta appended every snapshot path to while the tests ran with
# INSTA_SNAPSHOT_REFERENCES_FILE=REFS (.ci/run sets it for `cargo test --workspace`), so the
# check is only as complete as that run: run it after the whole workspace's tests.
set -euo pipefail
cd "$(dirname "$0")/.."
refs=${1:?usage: scripts/unreferenced-snapshots.sh REFS}
[ -s "$refs" ] || { echo "no snapshot was referenced: did the tests run with INSTA_SNAPSHOT_REFERENCES_FILE=$refs?"; exit 1; }

root=$(pwd -P)
# Paths insta wrote (absolute), made relative to the root; every snapshot file in the tree.
referenced=$(sed "s#^$root/##" "$refs" | sort -u)
present=$(find . \( -path ./target -o -path ./fuzz/target -o -name node_modules -o -name .git \) -prune \
    -o -name '*.snap' -type f -print | sed 's#^\./##' | sort)
unreferenced=$(comm -23 <(echo "$present") <(echo "$referenced"))
if [ -n "$unreferenced" ]; then
    echo "snapshots no test reads (delete them, or restore the test that wrote them):"
    echo "$unreferenced" | sed 's/^/  /'
    exit 1
fi
echo "all $(echo "$present" | wc -l) snapshots are referenced"
