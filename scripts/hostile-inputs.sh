#!/usr/bin/env bash
# Hostile inputs against the cal binary (issue 19): each input, the exit status, the first
# error code on stdout, peak RSS and wall time. Prints a Markdown table for docs/reliability.md.
# Usage: scripts/hostile-inputs.sh [CAL_BIN]   (default: target/release/cal)
set -uo pipefail
cd "$(dirname "$0")/.."
CAL=${1:-target/release/cal}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# The inputs.
python3 - "$T" <<'PY'
import json, os, sys
t = sys.argv[1]
q = 'RECALL beliefs ABOUT "alice" | LIMIT 1'
json.dump([{"statement": "recall", "grain_type": "beliefs", "about": "alice"}] * 400_000, open(f"{t}/400k.json", "w"))
open(f"{t}/209k.cal", "w").write(";\n".join([q] * 209_000))
open(f"{t}/semis2m.cal", "w").write(";" * 2_000_000)
open(f"{t}/semis10m.cal", "w").write(";" * 10_000_000)
open(f"{t}/huge-query.cal", "w").write("RECALL beliefs WHERE subject IN [" + '"a", ' * 2_000_000 + '"a"]')
def frame(o):
    b = json.dumps(o).encode()
    return b"Content-Length: %d\r\n\r\n" % len(b) + b
uri = "file:///hostile.cal"
session = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
    {"jsonrpc": "2.0", "method": "initialized", "params": {}},
    {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "cal", "version": 1, "text": ";" * 10_000_000}}},
    {"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": uri}}},
    {"jsonrpc": "2.0", "id": 3, "method": "textDocument/semanticTokens/full", "params": {"textDocument": {"uri": uri}}},
    {"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 5000000}}},
    {"jsonrpc": "2.0", "id": 5, "method": "textDocument/completion", "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 9000000}}},
    {"jsonrpc": "2.0", "id": 6, "method": "shutdown"},
    {"jsonrpc": "2.0", "method": "exit"},
]
open(f"{t}/lsp-session", "wb").write(b"".join(frame(m) for m in session))
conds = [{"field": "subject", "op": "=", "value": f"s{i}"} for i in range(100_000)]
json.dump({"statement": "recall", "grain_type": "beliefs", "where": conds}, open(f"{t}/huge-form.json", "w"))
conds = [{"field": "subject", "op": "=", "value": f"s{i}"} for i in range(210_000)]
json.dump({"statement": "recall", "grain_type": "beliefs", "where": conds}, open(f"{t}/huge-form-10mb.json", "w"))
json.dump([{"statement": "recall", "grain_type": "beliefs", "about": "alice"}] * 160_000, open(f"{t}/160k.json", "w"))
fmt = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
    {"jsonrpc": "2.0", "method": "initialized", "params": {}},
    {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "cal", "version": 1,
        "text": ";\n".join(['recall beliefs about "alice" | limit 1'] * 209_000)}}},
    {"jsonrpc": "2.0", "id": 2, "method": "textDocument/formatting", "params": {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}}},
]
open(f"{t}/lsp-format", "wb").write(b"".join(frame(m) for m in fmt))
open(f"{t}/dup.json", "w").write('{"statement": "recall", "grain_type": "beliefs", "in": "public", "in": "secret"}')
json.dump({"type": "belief", "subject": "a", "s": 1768471200000, "relation": "r", "object": "o",
           "confidence": 0.5, "created_at": 1768471200000}, open(f"{t}/s-field.json", "w"))
PY
# A 200 MB zero region compressed into one small zstd frame, in a one-grain .mg.
printf '{"type":"belief","subject":"a","relation":"r","object":"o","confidence":0.5,"created_at":1768471200000}' > "$T/one.json"
"$CAL" mg pack --compress "$T/one.mg" "$T/one.json" >/dev/null
python3 - "$T" <<'PY'
import hashlib, subprocess, sys
t = sys.argv[1]
honest = open(f"{t}/one.mg", "rb").read()
frame = subprocess.run(["zstd", "-q", "-19", "-c", "--content-size"], input=b"\0" * (200 << 20),
                       capture_output=True, check=True).stdout
bomb = honest[:20] + frame
open(f"{t}/bomb.mg", "wb").write(bomb + hashlib.sha256(bomb).digest())
PY

row() { # label, then the command (standard input: $IN, else nothing)
    local label=$1; shift
    local out="$T/out" err="$T/err" tm="$T/time"
    /usr/bin/time -f "%M %e" -o "$tm" "$@" > "$out" 2> "$err" < "${IN:-/dev/null}"
    local status=$?
    local code
    code=$(grep -o 'CAL-[EW][0-9]\{3\}\|ERR_[A-Z_]*' "$out" "$err" 2>/dev/null | head -1 | sed 's/^[^:]*://')
    read -r kb secs < <(tail -1 "$tm")
    printf '| %s | %s | %s | %s MB | %s s |\n' "$label" "$status" "${code:--}" "$((kb / 1024))" "$secs"
}

echo "| input | exit | code | peak RSS | time |"
echo "|---|---|---|---|---|"
row "JSON array of 400,000 queries (cal run -f)" "$CAL" run -f "$T/400k.json"
row "document of 209,000 queries, 10 MB (cal run -f)" "$CAL" run -f "$T/209k.cal"
row "2 MB of \`;\` (cal check --json)" "$CAL" check --json "$T/semis2m.cal"
row "10 MB of \`;\` (cal check --json)" "$CAL" check --json "$T/semis10m.cal"
row "10 MB of \`;\` (cal check)" "$CAL" check "$T/semis10m.cal"
row "document of 209,000 queries, 10 MB (cal check)" "$CAL" check "$T/209k.cal"
row "document of 209,000 queries, 10 MB (cal check --json)" "$CAL" check --json "$T/209k.cal"
row "document of 209,000 queries, 10 MB (cal fmt)" "$CAL" fmt "$T/209k.cal"
row "one query of 10 MB (cal check)" "$CAL" check "$T/huge-query.cal"
row "one query of 10 MB (cal run -f)" "$CAL" run -f "$T/huge-query.cal"
row "one query of 10 MB (cal fmt)" "$CAL" fmt "$T/huge-query.cal"
IN="$T/lsp-session" row "cal lsp: open 10 MB of \`;\`, symbols, semantic tokens, hover, completion" "$CAL" lsp
row "JSON form with 100,000 conditions, 4.7 MB (cal run)" "$CAL" run -f "$T/huge-form.json"
row "JSON form with 210,000 conditions, 10 MB (cal run)" "$CAL" run -f "$T/huge-form-10mb.json"
row "JSON array of 160,000 queries, 10 MB (cal text)" "$CAL" text "$T/160k.json"
IN="$T/lsp-format" row "cal lsp: open 209,000 queries (10 MB), format the document" "$CAL" lsp
row "JSON form with a repeated key (cal run)" "$CAL" run -f "$T/dup.json"
row "bidi override in a parameter (cal run)" "$CAL" run --param 'who="a\u202eb"' 'RECALL beliefs WHERE subject = $who'
row "zstd bomb: 200 MB declared in a small frame (cal mg verify)" "$CAL" mg verify "$T/bomb.mg"
row "grain field named like a short key (cal mg encode)" "$CAL" mg encode "$T/s-field.json"
