#!/usr/bin/env bash
# Every cargo-fuzz target for a short fixed time (issue 19): the kept regressions, then
# ${FUZZ_SECONDS:-30} s of coverage-guided fuzzing per target, one target at a time, on the
# stable toolchain (`-s none`: no sanitizer, which would need nightly; fuzz/README.md).
# Fails on the first crash, leak, timeout or out-of-memory (libFuzzer exits non-zero and
# leaves the input under fuzz/artifacts/<target>/). Installs cargo-fuzz when it is missing.
# Usage: scripts/fuzz-smoke.sh [TARGET…]   (default: every target of `cargo fuzz list`)
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
seconds=${FUZZ_SECONDS:-30}
targets=("$@")
[ ${#targets[@]} -eq 0 ] && mapfile -t targets < <(cargo fuzz list)
cargo fuzz build -s none
for t in "${targets[@]}"; do
    corpus="corpus-ci/$t"
    mkdir -p "$corpus"
    # The regressions seed the run: each is replayed first, as libFuzzer reads its corpus.
    seeds=()
    [ -d "regressions/$t" ] && seeds=("regressions/$t")
    echo "== fuzz $t for ${seconds} s"
    # The binary `cargo fuzz build` made, run directly: `cargo fuzz run` builds again through
    # `cargo run`, which here recompiled the workspace crates before every target.
    mkdir -p "artifacts/$t"
    log="artifacts/$t/smoke.log"
    status=0
    "target/x86_64-unknown-linux-gnu/release/$t" "$corpus" "${seeds[@]}" \
        -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
        -artifact_prefix="artifacts/$t/" > "$log" 2>&1 || status=$?
    grep -aE '^(stat::number_of_executed_units|stat::average_exec_per_sec|#[0-9]+ *DONE)|ERROR|SUMMARY|panicked' "$log" || true
    [ "$status" -eq 0 ] || { echo "fuzz target $t failed (status $status): see fuzz/$log and fuzz/artifacts/$t/"; exit 1; }
done
