#!/usr/bin/env bash
# Builds the web lab and serves it on http://127.0.0.1:8080/ (the README's serve command).
#
#   bash scripts/serve.sh            install missing tools (pinned), build, serve with live rebuild
#   bash scripts/serve.sh --build    only build the static site into dist/ (copy it to any static host)
#   bash scripts/serve.sh --offline  build, then pack it as target/nhlab-offline.zip (a classroom
#                                    without network: unzip, python3 serve.py; scripts/offline.py)
#   PORT=9000 bash scripts/serve.sh  another port
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/tools.sh build
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
port=${PORT:-8080}
if [ "${1:-}" = "--offline" ]; then
    trunk build --release --offline
    python3 scripts/offline.py
elif [ "${1:-}" = "--build" ]; then
    trunk build --release --offline
    echo "built dist/ ($(du -sh dist | cut -f1)): serve it with any static server, e.g."
    echo "  python3 -m http.server $port --bind 127.0.0.1 --directory dist"
else
    echo "serving the lab on http://127.0.0.1:$port/"
    trunk serve --release --offline --port "$port"
fi
