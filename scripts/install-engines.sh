#!/usr/bin/env bash
# Installs the browser engines PageScript drives, from Debian's packages, when they are missing,
# and zlib's and libcrypto's headers, which the build links (zip backups, integrity hashes).
set -euo pipefail
needed=()
command -v WebKitWebDriver >/dev/null || needed+=(webkit2gtk-driver)
command -v Xvfb >/dev/null || needed+=(xvfb)
command -v chromium >/dev/null || needed+=(chromium)
command -v chromedriver >/dev/null || needed+=(chromium-driver)
command -v tmux >/dev/null || needed+=(tmux)
[ -f /usr/share/publicsuffix/public_suffix_list.dat ] || needed+=(publicsuffix)
[ -f /usr/include/zlib.h ] || needed+=(zlib1g-dev)
[ -f /usr/include/openssl/evp.h ] || needed+=(libssl-dev)
if [ ${#needed[@]} -eq 0 ]; then
  echo "engines: all installed"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "engines: installing ${needed[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${needed[@]}" xauth >/dev/null
