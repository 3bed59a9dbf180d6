#!/usr/bin/env bash
# Builds Arbor's Coq plugin against the installed Coq (coq_makefile; needs libcoq-core-ocaml-dev). The plugin
# must be compiled by the very Coq and OCaml that load it, so it is built on each machine, never committed.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf build work && mkdir -p work && cp -r src _CoqProject work/
if ! (cd work && coq_makefile -f _CoqProject -o Makefile && make) > work.log 2>&1; then
  cat work.log >&2
  echo "coq-plugin: the build failed (is libcoq-core-ocaml-dev installed?); Arbor runs without it, its END judge slower" >&2
  exit 1
fi
mkdir -p build && cp work/src/arbor_plugin.cmxs startup.v build/
rm -rf work work.log
echo "coq-plugin: built $(pwd)/build/arbor_plugin.cmxs"
