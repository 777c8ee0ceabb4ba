#!/usr/bin/env bash
# Installs the web toolchain, pinned, from the package registries only (never from other hosts).
#
#   scripts/tools.sh build    wasm32 target, trunk, wasm-bindgen-cli, binaryen's wasm-opt (npm)
#   scripts/tools.sh browser  the above, plus Playwright (npm) and Debian's Chromium
#
# Each tool is installed only when missing or at a different version, so a second run takes
# seconds. Versions are pinned here and must agree with Cargo.lock / package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14          # 0.22 needs rustc >= 1.96.1
WASM_BINDGEN_VERSION=0.2.129   # must equal the wasm-bindgen crate in Cargo.lock (pinned with =)

want=${1:-build}
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

have() { # have CMD EXPECTED-VERSION-SUBSTRING
    command -v "$1" >/dev/null 2>&1 && "$1" --version 2>/dev/null | grep -q -- "$2"
}

rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown

# The two cargo installs are independent: run them side by side (about 10 minutes on 2 cores).
# `--force`: a tool is installed here only when its binary is missing or at another
# version, and cargo would skip one its own records list as installed (a binary
# deleted or moved by hand) without putting it back.
pids=()
if ! have trunk "$TRUNK_VERSION"; then
    echo "installing trunk $TRUNK_VERSION (crates.io)"
    # Trunk's own release profile asks for fat LTO and one codegen unit (about 13
    # minutes on 2 cores); its work here is launching cargo and wasm-bindgen, so it
    # is built without them (about 5 minutes). Cargo lets the environment override an
    # installed crate's profile.
    CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
        cargo install trunk --version "$TRUNK_VERSION" --locked --quiet --force &
    pids+=($!)
fi
if ! have wasm-bindgen "$WASM_BINDGEN_VERSION"; then
    echo "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (crates.io)"
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --locked --quiet --force &
    pids+=($!)
fi

# npm packages (binaryen's wasm-opt 132, esbuild and CodeMirror for the editor's bundle,
# axe-core for the accessibility checks of the browser tests,
# playwright-core) are pinned in package-lock.json.
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -x node_modules/.bin/esbuild ] || [ ! -d node_modules/playwright-core ] \
    || [ ! -f node_modules/axe-core/axe.min.js ] \
    || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "installing npm packages (npm registry)"
    npm ci --no-audit --no-fund --loglevel=error
fi

# Chromium, and the Chinese font most Chinese readers on Linux have (Debian, Ubuntu
# and Fedora install it for a Chinese desktop): Noto Sans CJK SC, 56 MB. Its lines
# are taller than Latin fonts', so the tests in 简体中文 see what such a reader sees
# (an equation row a few pixels too tall for its box became a scroll region).
browser_packages=""
if [ "$want" = browser ]; then
    command -v chromium >/dev/null 2>&1 || browser_packages="chromium"
    [ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || browser_packages="$browser_packages fonts-noto-cjk"
fi
if [ -n "$browser_packages" ]; then
    echo "installing$browser_packages (Debian packages)"
    if [ "$(id -u)" -eq 0 ]; then
        flock /tmp/nhlab-apt.lock apt-get update -qq && DEBIAN_FRONTEND=noninteractive flock /tmp/nhlab-apt.lock apt-get install -y -qq $browser_packages >/dev/null
    else
        sudo flock /tmp/nhlab-apt.lock apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive flock /tmp/nhlab-apt.lock apt-get install -y -qq $browser_packages >/dev/null
    fi
fi

status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
[ "$status" -eq 0 ] || { echo "error: a cargo install failed" >&2; exit 1; }
