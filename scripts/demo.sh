#!/usr/bin/env bash
# demo.sh BUILD_DIR - the main job on the embedded default.
# Runs the most complete flow that exists so far; grows with the harness.
set -euo pipefail
BUILD=${1:-build}
OPFORGE=$BUILD/harness/opforge
echo "== opforge version"
$OPFORGE version
echo "== resolved default architecture (scenarios/arch/mtia-2i.json)"
$OPFORGE config show
