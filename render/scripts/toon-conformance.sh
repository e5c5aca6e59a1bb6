#!/bin/sh
# Installs the pinned official TOON packages (render/tests/toon-decode/package-lock.json) and
# runs the tests that use them: the encoder against @toon-format/spec's fixtures, and our
# TOON decoded by @toon-format/toon. Usage: render/scripts/toon-conformance.sh
set -eu
cd "$(dirname "$0")/../.."
npm ci --prefix render/tests/toon-decode --no-audit --no-fund --silent
cargo test -p cal-render --test toon_conformance --test toon_decode -- --nocapture
