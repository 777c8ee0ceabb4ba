#!/usr/bin/env bash
# The Python package (python/): builds it into a virtual environment of its own
# (target/python-venv, kept between runs) with `pip install ./python`, as a user
# would, and runs its tests (python/tests) and the examples of docs/python.md against
# the command line built beside it (target/release/nhlab). Prints pytest's summary.
#
#   scripts/python.sh        all of it
#   scripts/python.sh env    the virtual environment and the pinned test packages
#                            only (the test command installs them beside its first
#                            steps: they are downloads, not computation)
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/python-venv
python=${NHLAB_PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
    # Debian's python3 keeps venv in a package of its own.
    "$python" -m venv "$venv" || { flock /tmp/nhlab-apt.lock apt-get update -qq && flock /tmp/nhlab-apt.lock apt-get install -y -qq python3-venv && rm -rf "$venv" && "$python" -m venv "$venv"; }
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r python/requirements-test.txt
[ "${1:-}" = env ] && exit 0
# The package's Rust builds in the workspace's target folder: the core compiled for
# the tests is not compiled again where the flags agree.
started=$(date +%s)
CARGO_TARGET_DIR="$PWD/target" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps ./python
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check ./python
echo "pip install ./python: $(( $(date +%s) - started )) s"
(cd /tmp && "$OLDPWD/$venv/bin/python" -X importtime -c "import nhlab" 2>&1 | tail -1)
NHLAB_BIN="$PWD/target/release/nhlab" "$venv/bin/python" -m pytest -q -p no:cacheprovider \
    --doctest-glob="python.md" python/tests docs/python.md
