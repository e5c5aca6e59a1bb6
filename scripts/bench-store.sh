#!/usr/bin/env bash
# Whole-process figures for the durable store (docs/performance.md, "The durable store"):
# for 10k, 100k and 1M generated grains, the time and peak RSS of `cal store import`, and of
# a cold one-shot `cal run` for an indexed RECALL and two BM25 queries. Needs /usr/bin/time.
# Usage: scripts/bench-store.sh [DIR] (default: a temporary directory, removed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet -p cal
cargo build --release --quiet -p oms --example gen_store
CAL=target/release/cal
GEN=target/release/examples/gen_store
DIR=${1:-$(mktemp -d)}
mkdir -p "$DIR"
[ -z "${1:-}" ] && trap 'rm -rf "$DIR"' EXIT
measure() { /usr/bin/time -f "%e s wall, %M KB max RSS" "$@" 2>&1 >/dev/null | tail -1; }
queries=(
  'RECALL beliefs WHERE subject = "entity-421" | LIMIT 20'
  'RECALL beliefs ABOUT "mikaka" | LIMIT 20'
  'RECALL LIKE "vikaka rukaka" | LIMIT 20'
)
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u +%F)"
for n in 10000 100000 1000000; do
  "$GEN" "$n" "$DIR/g$n.mg" 2>/dev/null
  rm -f "$DIR/g$n.db"*
  "$CAL" store init "$DIR/g$n.db" >/dev/null
  echo "== $n grains ($(stat -c %s "$DIR/g$n.mg") bytes of .mg)"
  echo "import:  $(measure "$CAL" store import "$DIR/g$n.db" "$DIR/g$n.mg") ($(stat -c %s "$DIR/g$n.db") bytes of database)"
  for q in "${queries[@]}"; do
    echo "cold run: $(measure "$CAL" run --store "$DIR/g$n.db" --now 2026-03-06T12:00:00Z "$q")  $q"
  done
done
