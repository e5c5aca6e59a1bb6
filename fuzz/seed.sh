#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from the repository's own cases. The corpora are not committed.
set -euo pipefail
cd "$(dirname "$0")"
root=..
mk() { mkdir -p "corpus/$1"; }
targets=(parse_bytes print_idempotent check_run json_roundtrip mg_decode ast_pipeline)
for t in "${targets[@]}"; do mk "$t"; done

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

# The conformance corpus (conformance/cases/**/*.json): every query as CAL text (and its raw
# bytes when given as hex), every JSON form (given or expected) as application/json+cal, every
# .mg hex blob (given or expected) as a blob (mode byte 0), every grain given as JSON (mode 3). Files are named by content, so repeats collapse.
# The fixture stores are .mg files and were seeded above.
python3 - "$root/conformance/cases" corpus <<'PY'
import hashlib, json, pathlib, sys
cases, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
def put(targets, data, prefix):
    name = f"{prefix}-{hashlib.sha1(data).hexdigest()[:16]}"
    for t in targets:
        (out / t / name).write_bytes(data)
text_targets = ["parse_bytes", "print_idempotent", "check_run"]
n = 0
for f in sorted(cases.rglob("*.json")) if cases.is_dir() else []:
    for c in json.loads(f.read_text()).get("cases", []):
        n += 1
        expect = c.get("expect") or {}
        if isinstance(c.get("query"), str):
            put(text_targets, c["query"].encode(), "conf")
        if isinstance(c.get("query_hex"), str):
            put(["parse_bytes"], bytes.fromhex(c["query_hex"]), "conf")
        for j in (c.get("json"), expect.get("json")):
            if j is not None:
                put(["json_roundtrip"], json.dumps(j, ensure_ascii=False).encode(), "conf")
        if isinstance(c.get("grain"), dict):
            put(["mg_decode"], b"\x03" + json.dumps(c["grain"], ensure_ascii=False).encode(), "conf")
        for h in (c.get("hex"), expect.get("hex")):
            if isinstance(h, str):
                put(["mg_decode"], b"\x00" + bytes.fromhex(h), "conf")
print(f"conformance: {n} cases read")
PY

# ast_pipeline reads its bytes through arbitrary::Unstructured, so no text is a good seed:
# start it from fixed pseudo-random inputs, one per fixture store and size (the first byte
# picks the store), long enough that libFuzzer does not begin with tiny inputs.
python3 - corpus/ast_pipeline <<'PY'
import random, sys
rng = random.Random(8)
for store in range(13):
    for size in (64, 256, 1024):
        data = bytes([store]) + rng.randbytes(size - 1)
        open(f"{sys.argv[1]}/gen-{store}-{size}", "wb").write(data)
PY

for t in "${targets[@]}"; do
  echo "$t: $(ls "corpus/$t" | wc -l) seeds"
done
