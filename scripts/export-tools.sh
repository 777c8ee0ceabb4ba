#!/usr/bin/env bash
# Installs what the tests of `nhlab export` run the exported files with, pinned, from the
# package registries only: NumPy and SciPy (PyPI) for the Python file, and GNU Octave
# (Debian's package, the distribution's version) for the MATLAB file. `cc` and `rustc`
# are on every machine of this kind already. A second run takes a second.
set -euo pipefail

NUMPY_VERSION=2.2.6
SCIPY_VERSION=1.15.3
OCTAVE_VERSION=7.3.0-2      # Debian 12's

python_has() { python3 -c "import numpy, scipy, sys; sys.exit(0 if (numpy.__version__, scipy.__version__) == ('$NUMPY_VERSION', '$SCIPY_VERSION') else 1)" 2>/dev/null; }
if ! python_has; then
    echo "installing numpy $NUMPY_VERSION and scipy $SCIPY_VERSION (PyPI)"
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
        "numpy==$NUMPY_VERSION" "scipy==$SCIPY_VERSION"
fi

if ! command -v octave-cli >/dev/null 2>&1; then
    echo "installing octave $OCTAVE_VERSION (Debian packages)"
    sudo_if() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
    sudo_if flock /tmp/nhlab-apt.lock apt-get update -qq
    # The pinned version where the distribution has it, else its own.
    sudo_if env DEBIAN_FRONTEND=noninteractive flock /tmp/nhlab-apt.lock apt-get install -y -qq --no-install-recommends "octave=$OCTAVE_VERSION" >/dev/null \
        || sudo_if env DEBIAN_FRONTEND=noninteractive flock /tmp/nhlab-apt.lock apt-get install -y -qq --no-install-recommends octave >/dev/null
fi
python3 -c "import numpy, scipy; print('numpy', numpy.__version__, 'scipy', scipy.__version__)"
octave-cli --version | head -1
