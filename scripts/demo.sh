#!/usr/bin/env bash
# PageScript's main job on the bundled demo page: install the engines, build, run a script
# through Action.js on WebKit (the default) and on Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-engines.sh
swift build -c release --product pagescript
bin=.build/release/pagescript
"$bin" engines
for engine in webkit chromium; do
  echo "--- $engine"
  "$bin" run Demo/index.html --engine "$engine" --json -e '
    console.log("running on", document.title);
    ({ title: document.title.toUpperCase(), links: document.links.length, headings: [...document.querySelectorAll("h1, h2")].map(h => h.textContent) })'
done
