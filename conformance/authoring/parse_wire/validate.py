"""Validates every parse and wire case file against the case-file schema,
and checks ids are unique across the whole corpus.

    python3 conformance/authoring/parse_wire/validate.py
"""

import glob
import json
import os
import sys

import jsonschema

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
schema = json.load(open(os.path.join(ROOT, "conformance", "schema", "case-file.schema.json")))
validator = jsonschema.Draft202012Validator(schema)
seen = {}
bad = 0
total = 0
for path in sorted(glob.glob(os.path.join(ROOT, "conformance", "cases", "*", "*.json"))):
    doc = json.load(open(path, encoding="utf-8"))
    for err in validator.iter_errors(doc):
        bad += 1
        print(f"{path}: {err.json_path}: {err.message[:200]}")
    for c in doc.get("cases", []):
        total += 1
        if c["id"] in seen:
            bad += 1
            print(f"{path}: duplicate id {c['id']} (also in {seen[c['id']]})")
        seen[c["id"]] = os.path.relpath(path, ROOT)
print(f"{total} cases, {bad} problems")
sys.exit(1 if bad else 0)
