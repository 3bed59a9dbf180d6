#!/usr/bin/env bash
# Installs everything Arbor needs on a Debian/Ubuntu machine: the provers and tools from the distribution
# (only those missing), then the npm packages. Used by the README's two set-up commands and by CI.
set -euo pipefail
cd "$(dirname "$0")/.."

# ocaml-nox and git: `npm run bench:aim-advisor` and the real-AIMLEAP tests build AIMLEAP from its public source.
# python3-msgpack … python3-watchdog: the Python clients of Isa-REPL/Minilang in the isabelle real-client check.
# libcoq-core-ocaml-dev: Coq's OCaml API, to build Arbor's Coq plugin (coq-plugin/) against the installed Coq.
debian_packages=(coq libcoq-core-ocaml-dev libcoq-hammer eprover z3 cvc4 bubblewrap chromium redis-server python3-venv ocaml-nox git python3-msgpack python3-lmdb python3-xxhash python3-platformdirs python3-watchdog)
missing=()
for p in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "install: Debian packages: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

echo "install: npm ci"
npm ci --no-audit --no-fund

# Arbor's Coq plugin, compiled by the very Coq that will load it (docs/arbor-plugin.md).
bash coq-plugin/build.sh
