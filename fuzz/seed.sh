#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from the repository's own cases. The corpora are not committed.
set -euo pipefail
cd "$(dirname "$0")"
root=..
mk() { mkdir -p "corpus/$1"; }
for t in parse_bytes print_idempotent check_run json_roundtrip mg_decode; do mk "$t"; done

# CAL text: every .cal file of the parser and checker corpora and the examples, whole
# (documents) and split into single queries at `;` line ends.
n=0
while IFS= read -r -d '' f; do
  n=$((n + 1))
  for t in parse_bytes print_idempotent check_run; do cp "$f" "corpus/$t/cal-$n"; done
done < <(find "$root/parser/tests/corpus" "$root/checker/tests/corpus" "$root/examples" -name '*.cal' -print0 2>/dev/null)

# application/json+cal: the JSON files of the parser's tests (print_cases, docs), and the JSON
# form of every parseable corpus file when the `cal` binary is built.
m=0
while IFS= read -r -d '' f; do
  m=$((m + 1)); cp "$f" "corpus/json_roundtrip/json-$m"
done < <(find "$root/parser/tests" "$root/docs" "$root/examples" -name '*.json' -print0 2>/dev/null)
cal="$root/target/debug/cal"
if [ ! -x "$cal" ]; then (cd "$root" && cargo build -q -p cal); fi
for f in corpus/parse_bytes/cal-*; do
  m=$((m + 1))
  "$cal" json "$f" > "corpus/json_roundtrip/json-$m" 2>/dev/null || rm -f "corpus/json_roundtrip/json-$m"
done

# .mg: the demo store as a file (mode byte 1), its body without footer (mode 2), and the
# hex vectors of oms/tests/vectors.rs as blobs (mode 0).
for f in $(find "$root" -name '*.mg' -not -path '*/target/*'); do
  b=$(basename "$f" .mg)
  { printf '\001'; cat "$f"; } > "corpus/mg_decode/file-$b"
  { printf '\002'; head -c -32 "$f"; } > "corpus/mg_decode/body-$b"
done
python3 - "$root/oms/tests/vectors.rs" corpus/mg_decode <<'PY'
import re, sys
src = open(sys.argv[1]).read()
for i, m in enumerate(re.finditer(r'const (\w+_HEX): &str = "([0-9a-f \n]+)";', src)):
    data = bytes.fromhex("".join(m.group(2).split()))
    open(f"{sys.argv[2]}/vec-{m.group(1).lower()}", "wb").write(b"\x00" + data)
PY
# Every grain of the demo store as a canonical blob (mode byte 0).
k=0
"$cal" mg unpack "$root/interp/demo/demo.mg" 2>/dev/null | while IFS= read -r line; do
  k=$((k + 1))
  printf '%s' "$line" > /tmp/cal-fuzz-grain.json
  hex=$("$cal" mg encode /tmp/cal-fuzz-grain.json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["blob_hex"])') || continue
  { printf '\000'; printf '%s' "$hex" | xxd -r -p; } > "corpus/mg_decode/grain-$k"
done
rm -f /tmp/cal-fuzz-grain.json

for t in parse_bytes print_idempotent check_run json_roundtrip mg_decode; do
  echo "$t: $(ls "corpus/$t" | wc -l) seeds"
done
