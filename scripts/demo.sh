#!/usr/bin/env bash
# PageScript's main job on the bundled demo page: install the engines, build, run a script
# through Action.js on WebKit (the default), on Chromium and on Firefox.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-engines.sh
# One file with the Swift runtime and Foundation inside, linked by lld with packed relocations
# (see "Building for use" in the README).
swift build -c release --static-swift-stdlib --toolset scripts/release-toolset.json --product pagescript
bin=.build/release/pagescript
"$bin" engines
for engine in webkit chromium firefox; do
  echo "--- $engine"
  "$bin" run Demo/index.html --engine "$engine" --json -e '
    console.log("running on", document.title);
    ({ title: document.title.toUpperCase(), links: document.links.length, headings: [...document.querySelectorAll("h1, h2")].map(h => h.textContent) })'
done
