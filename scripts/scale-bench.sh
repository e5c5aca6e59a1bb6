#!/usr/bin/env bash
# The scale benchmark of issue 20 (docs/performance.md, "Scale"): generates 10k, 100k and
# 1M-grain stores (`oms --example gen_store`: mixed beliefs, events and observations, a pure
# function of the grain index, so every run sees the same bytes), packs them as `.mg`, and
# runs `cal-interp --example scale_bench` on each: load time, RSS per grain beyond the
# file, and median/p90 of seven query shapes through the whole `cal run` path.
#
# Usage: scripts/scale-bench.sh [DIR]          (DIR keeps the generated stores; default a
#                                              temporary directory, removed at the end)
# Environment: SIZES="10000 100000 1000000", REPS=50, ROUNDS=1,
#   BASE=/path/to/an/older/scale_bench       (interleaved A/B: the older build's binary runs
#                                              before this one on every store, ROUNDS times)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet -p oms --example gen_store
cargo build --release --quiet -p cal-interp --example scale_bench
dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
GEN=$dir/release/examples/gen_store
NEW=$dir/release/examples/scale_bench
DIR=${1:-$(mktemp -d)}
mkdir -p "$DIR"
[ -z "${1:-}" ] && trap 'rm -rf "$DIR"' EXIT
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u '+%F %H:%M UTC')"
for n in ${SIZES:-10000 100000 1000000}; do
  [ -s "$DIR/g$n.mg" ] || "$GEN" "$n" "$DIR/g$n.mg" 2>/dev/null
  for round in $(seq "${ROUNDS:-1}"); do
    if [ -n "${BASE:-}" ]; then
      echo "== $n grains, round $round: BEFORE ($BASE)"
      "$BASE" "$DIR/g$n.mg" "${REPS:-50}"
    fi
    echo "== $n grains, round $round: AFTER (this tree)"
    "$NEW" "$DIR/g$n.mg" "${REPS:-50}"
  done
done
