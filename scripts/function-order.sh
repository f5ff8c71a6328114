#!/usr/bin/env bash
# Writes scripts/function-order.txt: the code a `pagescript run` executes, which the release link
# (scripts/release-toolset.json, `--symbol-ordering-file`) places together at the start of the
# program's code. A run then touches the front of the executable's code instead of pages
# scattered over all of it, and the kernel maps in (and counts as resident) less of the
# executable. See "Building for use" in the README.
#
# Run it again after a change that moves much of what a run executes (a new dependency, a
# restructured run path): code missing from the list still runs, from where the linker puts it,
# and a name the build no longer has is skipped. Run it on a clean build (a fresh clone, or after
# deleting .build/release): SwiftPM does not compile the dependencies' Swift targets again when
# the toolset changes, and code compiled without `-function-sections` lays out differently. Needs valgrind (Debian `valgrind`):
# callgrind records every function that runs, on every thread, without sampling.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "function-order: needs valgrind (sudo apt-get install valgrind)" >&2; exit 1; }
scripts/install-engines.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The link reads the list; a first one may be empty.
[ -f scripts/function-order.txt ] || : >scripts/function-order.txt
# The link map says which functions share a section: the linker moves sections, not functions,
# and a section's code (an async function's parts, a prebuilt library's whole file) goes where
# its first listed function sends it.
swift build -c release --static-swift-stdlib --toolset scripts/release-toolset.json --product pagescript \
  -Xlinker -Map="$work/pagescript.map"
# valgrind cannot read the DWARF the Swift compiler writes; the symbol table is all it needs.
cp .build/release/pagescript "$work/pagescript"
strip --strip-debug "$work/pagescript"

# What the bench's memory rows run (see BenchmarkFixture): a small page and a library of scripts
# for other sites, once without and once with a script for the page, here one using the GM API.
python3 - "$work" <<'EOF'
import os, sys
work = sys.argv[1]
open(f"{work}/page.html", "w").write("<!doctype html><title>Order</title><p>order</p>\n")
for library in ("library-none", "library-one"):
    os.makedirs(f"{work}/{library}")
    for n in range(200):
        open(f"{work}/{library}/site-{n}.user.js", "w").write(
            "// ==UserScript==\n"
            f"// @name         Site {n}\n"
            f"// @namespace    https://example.org/{n}\n"
            "// @version      1.0\n"
            f"// @match        https://*.site{n}.example/*\n"
            f"// @match        http://site{n}.example/path/*\n"
            f"// @include      /^https://www\\.other{n}\\.example/.*$/\n"
            f"// @exclude      https://site{n}.example/private/*\n"
            "// @grant        none\n"
            "// ==/UserScript==\n"
            f"document.body.dataset.site = '{n}';\n")
open(f"{work}/library-one/page.user.js", "w").write(
    "// ==UserScript==\n"
    "// @name         Order page\n"
    f"// @match        file://{work}/*\n"
    "// @grant        GM_getValue\n"
    "// @grant        GM_setValue\n"
    "// @grant        GM_addStyle\n"
    "// @run-at       document-end\n"
    "// ==/UserScript==\n"
    "GM_setValue('visits', GM_getValue('visits', 0) + 1);\n"
    "GM_addStyle('p { color: teal }');\n"
    "console.log(GM_info.script.name, document.title);\n")
EOF

for engine in webkit chromium; do
  for library in library-none library-one; do
    echo "function-order: $engine, $library"
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$engine-$library.out" \
      "$work/pagescript" run "file://$work/page.html" --library "$work/$library" --engine "$engine" \
      >"$work/$engine-$library.log" 2>&1 || { cat "$work/$engine-$library.log" >&2; exit 1; }
  done
done

# One function for each section of the program's code that ran: the section's first to run, in
# the order the profiles first name them. The map lists sections and where they are, the symbol
# table where each function is (the map leaves out local symbols: static C and C++ functions,
# Swift's private ones). callgrind names code without a symbol 0x...; that matches nothing.
nm --defined-only .build/release/pagescript >"$work/pagescript.symbols"
python3 - "$work/pagescript.map" "$work/pagescript.symbols" "$work"/*.out >"$work/function-order.txt" <<'EOF'
import bisect, re, sys
rank = {}
for path in sys.argv[3:]:
    for line in open(path):
        match = re.match(r"^c?fn=\(\d+\) (.+)$", line)
        if match and match.group(1) not in rank:
            rank[match.group(1)] = len(rank)
# lld's map: address, load address, size, alignment, then the name, indented by one space for an
# output section and nine for an input section.
starts, ends = [], []
in_text = False
for line in open(sys.argv[1]):
    match = re.match(r"^\s*([0-9a-f]+)\s+\S+\s+([0-9a-f]+)\s+\S+( +)(.*)$", line.rstrip("\n"))
    if not match:
        continue
    depth = len(match.group(3))
    if depth == 1:
        in_text = match.group(4) == ".text"
    elif in_text and depth == 9:
        starts.append(int(match.group(1), 16))
        ends.append(int(match.group(1), 16) + int(match.group(2), 16))
addresses = {}
for line in open(sys.argv[2]):
    fields = line.split(" ", 2)
    if len(fields) == 3 and fields[1] in "tTwW" and fields[2].rstrip("\n") in rank:
        addresses.setdefault(fields[2].rstrip("\n"), []).append(int(fields[0], 16))
claimed = set()
for name in sorted(addresses, key=rank.get):
    sections = set()
    for address in addresses[name]:
        index = bisect.bisect_right(starts, address) - 1
        if index >= 0 and address < ends[index]:
            sections.add(index)
    if sections - claimed:
        claimed |= sections
        print(name)
EOF
mv "$work/function-order.txt" scripts/function-order.txt
# SwiftPM does not see the list change: link again without being asked.
rm -f .build/release/pagescript
swift build -c release --static-swift-stdlib --toolset scripts/release-toolset.json --product pagescript
echo "function-order: $(wc -l <scripts/function-order.txt) sections of code, each named by a function, in scripts/function-order.txt"
