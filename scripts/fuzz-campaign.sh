#!/usr/bin/env bash
# A fuzzing campaign (issue 19): each named target (default: every target of `cargo fuzz list`)
# runs until it has executed ${RUNS:-10000000} inputs, one target at a time, on the corpus
# ${CORPUS:-fuzz/corpus}/<target>/ (seeded by fuzz/seed.sh; what a run adds is kept for the
# next: a campaign may be split over several runs, and a CORPUS outside the work tree survives
# a fresh checkout), with
# the kept regressions replayed first. Stable toolchain, `-s none` (fuzz/README.md). Writes
# libFuzzer's log to fuzz/artifacts/<target>/campaign.log and prints, per target, the line
# fuzz/README.md's campaign table records: executions, seconds, exec/s, cov, ft, corpus,
# peak RSS. Fails on the first crash, leak, timeout or out-of-memory (the input is left under
# fuzz/artifacts/<target>/). The `durable_open` target writes its store files to $TMPDIR
# (a tmpfs such as /dev/shm spares the disk).
# Usage: RUNS=10000000 scripts/fuzz-campaign.sh [TARGET…]
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
runs=${RUNS:-10000000}
corpus_root=${CORPUS:-corpus}
targets=("$@")
[ ${#targets[@]} -eq 0 ] && mapfile -t targets < <(cargo fuzz list)
cargo fuzz build -s none
for t in "${targets[@]}"; do
    mkdir -p "$corpus_root/$t" "artifacts/$t"
    seeds=()
    [ -d "regressions/$t" ] && seeds=("regressions/$t")
    log="artifacts/$t/campaign.log"
    start=$(date +%s)
    status=0
    "target/x86_64-unknown-linux-gnu/release/$t" "$corpus_root/$t" "${seeds[@]}" \
        -runs="$runs" -timeout=30 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
        -artifact_prefix="artifacts/$t/" > "$log" 2>&1 || status=$?
    secs=$(( $(date +%s) - start ))
    # The last status line (`#N DONE …` after a time limit; a run limit ends on `Done N runs`).
    done_line=$(grep -a -E '^#[0-9]+' "$log" | tail -1 || true)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1 || true)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$done_line")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$done_line")
    corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<< "$done_line")
    printf '| `%s` | %s | %s | %s | %s | %s | %s | %s MB | %s |\n' "$t" "$execs" "$secs" "$rate" "$cov" "$ft" \
        "$corp" "$rss" "$([ "$status" -eq 0 ] && echo 'no crash' || echo "**status $status**")"
    [ "$status" -eq 0 ] || { echo "fuzz target $t failed (status $status): see fuzz/$log and fuzz/artifacts/$t/"; exit 1; }
done
