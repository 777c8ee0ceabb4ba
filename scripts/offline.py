"""Packs the built lab (dist/) into target/nhlab-offline.zip, for a classroom without
network: unzip it, start `serve.py` (Python 3, nothing else), open the address it
prints. The page needs a server, not a file:// address: browsers refuse module
scripts, workers and WebAssembly from files. `bash scripts/serve.sh --offline` builds
dist/ first and then runs this; tests/browser/offline.test.mjs unpacks the zip, starts
its server and plays a system with the network cut off.

    python3 scripts/offline.py [DIST] [ZIP]
"""

import pathlib
import sys
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

# The zip's server: Python's own, with the types the page needs whatever the
# machine's tables say (an old Python or Windows registry may not know .wasm).
SERVE_PY = '''"""nhlab offline: serves the lab in ./lab on http://127.0.0.1:8080/ (another port:
python3 serve.py 9000; for the students' machines on the room's network:
python3 serve.py 8080 0.0.0.0, then open http://<this machine's address>:8080/)."""
import functools, http.server, pathlib, sys

port = int(sys.argv[1]) if len(sys.argv) > 1 else 8080
bind = sys.argv[2] if len(sys.argv) > 2 else "127.0.0.1"
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(pathlib.Path(__file__).parent / "lab"))
handler.func.extensions_map.update({".wasm": "application/wasm", ".js": "text/javascript", ".mjs": "text/javascript"})
with http.server.ThreadingHTTPServer((bind, port), handler) as server:
    print(f"nhlab: open http://{'127.0.0.1' if bind == '0.0.0.0' else bind}:{port}/ (Ctrl+C stops it)", flush=True)
    server.serve_forever()
'''

README = """nhlab, offline
==============

The lab as it is on the web, for a machine or a room without network.

1. Unzip this folder anywhere.
2. Start its server (Python 3 is all it needs):
     macOS, Linux:  python3 serve.py
     Windows:       py serve.py      (or double-click serve.py)
3. Open the address it prints, http://127.0.0.1:8080/, in a current browser.

Students on the room's network: python3 serve.py 8080 0.0.0.0, and they open
http://<this machine's address>:8080/. The page cannot be opened as a file
(file://): browsers refuse its scripts and WebAssembly from files.

Everything is in lab/: the page, its three WebAssembly modules, the editor, the
Help and the gallery; nothing is fetched from elsewhere.
"""


def main() -> None:
    dist = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "dist"
    out = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "target" / "nhlab-offline.zip"
    if not (dist / "index.html").is_file():
        sys.exit(f"{dist}/index.html is missing: build the lab first (bash scripts/serve.sh --build)")
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for path in sorted(p for p in dist.rglob("*") if p.is_file()):
            z.write(path, f"nhlab/lab/{path.relative_to(dist).as_posix()}")
        z.writestr("nhlab/serve.py", SERVE_PY)
        z.writestr("nhlab/README.txt", README)
    print(f"{out} ({out.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
