#!/usr/bin/env bash
# The notebook widget's ES module (python/nhlab/static/lab.mjs, which nhlab.Lab
# shows): builds the widget's WebAssembly module (www/modules/widget: the page's, the
# runner's and the helper's exports in one) as Trunk builds the page's — the `web`
# profile, wasm-bindgen for the web, wasm-opt -Oz — and packs it with the built page
# (dist/: run `trunk build --release --offline` first) by scripts/widget.mjs.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

[ -f dist/index.html ] || { echo "widget.sh: dist/index.html is missing: build the page first (trunk build --release --offline)" >&2; exit 1; }
command -v xz >/dev/null || { flock /tmp/nhlab-apt.lock apt-get update -qq && flock /tmp/nhlab-apt.lock apt-get install -y -qq xz-utils; }
cargo build --profile web --target wasm32-unknown-unknown -p nhlab-widget --locked --quiet
mkdir -p target/widget
wasm-bindgen --target web --out-dir target/widget target/wasm32-unknown-unknown/web/nhlab_widget.wasm
wasm-opt -Oz target/widget/nhlab_widget_bg.wasm -o target/widget/nhlab_widget_opt.wasm
node scripts/widget.mjs
