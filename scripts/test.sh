#!/usr/bin/env bash
# The whole test suite, against real WebKit and Chromium (installed first when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-engines.sh
swift build --build-tests
swift test --skip-build "$@"
