#!/usr/bin/env bash
# The whole test suite, against real WebKit and Chromium (installed first when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-engines.sh
# Warnings are errors, and a target that imports a module must declare it. No debug information
# for Swift code: nothing here reads it, and writing it is a good part of the build's time.
swift build --build-tests -Xswiftc -warnings-as-errors -Xswiftc -gnone --explicit-target-dependency-import-check error
# At most two tests at a time: every end-to-end test runs real browsers, and Swift's
# concurrency runs async tests on one thread per core; more at once on a two-core machine
# starves them until their own timeouts fire.
swift test --skip-build --experimental-maximum-parallelization-width 2 "$@"
