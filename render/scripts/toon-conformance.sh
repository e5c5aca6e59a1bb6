#!/bin/sh
# Installs @toon-format/spec into a temporary directory (outside the Rust build) and runs our
# TOON encoder against its encoding fixtures. Usage: render/scripts/toon-conformance.sh
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
(cd "$dir" && npm install --silent --no-audit --no-fund @toon-format/spec >/dev/null)
TOON_SPEC_DIR="$dir/node_modules/@toon-format/spec" \
  cargo test -p cal-render --test toon_conformance -- --ignored --nocapture
