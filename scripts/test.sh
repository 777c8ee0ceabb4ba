#!/usr/bin/env bash
# Runs every test of nhlab: the README's test command, and what CI runs (.ci/run).
#
#   1. installs what is missing (the wasm32 target, clippy, rustfmt) from the registries;
#   2. formatting and lints (native and for wasm32 without std);
#   3. the core builds for wasm32-unknown-unknown without std;
#   4. (NumPy, SciPy and GNU Octave, for the tests of `nhlab export`, install meanwhile:
#      scripts/export-tools.sh; and the Python package's test environment, for step 6)
#      every Rust test of the workspace (unit, integration, doc tests), then the fuzz
#      suite (tests/fuzz: a million generated inputs over every core, about three minutes);
#      both in release mode with debug assertions and overflow checks on (`checked`
#      below), so that the workspace is built once for the tests, the fuzz suite and
#      the command line the browser tests compare with, and the tests run several
#      times faster than in debug mode. The web tools install meanwhile;
#   5. the benchmarks in their quick variants (print figures; never assert on time),
#      built with the tests' checks so that only their own binaries compile;
#   6. the web lab: installs the pinned web tools (trunk, wasm-bindgen-cli, binaryen and
#      playwright-core from npm, Debian's chromium), builds dist/ as the README's serve
#      command does and the notebook widget's module from it (scripts/widget.sh); the
#      Python package (scripts/python.sh: its tests and the example notebooks); the
#      end-to-end tests in headless Chromium against the page, the widget's module
#      alone and the widget in a JupyterLab server (tests/notebooks); checks
#      that every gallery equation's LaTeX compiles (KaTeX, npm), and runs the browser
#      benchmark in its quick variant.
#
# Ends with one summary line: `nhlab: N passed, M failed` (M counts failed tests and
# failed steps, each once; the exit status is non-zero when anything failed).
set -uo pipefail
cd "$(dirname "$0")/.."

# Release builds with the checks of a debug build: `cargo test --release` alone would
# drop the assertions and overflow checks the tests rely on. (The benchmarks' own
# profile and the page's `web` profile are not touched.)
checked() { CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true "$@"; }

# Each step's wall time, printed before the summary line (what CI's log shows last):
# where a slow run spent its time.
timings=()
step_name=""
step_started=$SECONDS
step_end() { [ -n "$step_name" ] && timings+=("$((SECONDS - step_started)) s  $step_name"); step_name=""; }
step() { step_end; step_name=$*; step_started=$SECONDS; printf '\n\033[1m== %s\033[0m\n' "$*"; }
failures=()
# Tests counted; a failed step (format, lint, a build, a benchmark) counts as one
# failure too, so that the summary line never reads "0 failed" when CI fails.
passed=0
failed=0
tally() { # tally NAME STATUS PASSED FAILED: a step's tests counted; a failed step with
    # no failed test (a build failure, a crash) counts as one failure
    passed=$((passed + ${3:-0}))
    failed=$((failed + ${4:-0}))
    if [ "$2" -ne 0 ]; then
        failures+=("$1")
        [ "${4:-0}" -eq 0 ] && failed=$((failed + 1))
    fi
}
cargo_tests() { # cargo_tests NAME CMD...: a `cargo test` whose tests are counted
    local name=$1 log status
    shift
    log=$(mktemp)
    "$@" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    tally "$name" "$status" \
        "$(grep -Eo '^test result: .* ([0-9]+) passed' "$log" | grep -Eo '[0-9]+ passed' | awk '{s+=$1} END {print s+0}')" \
        "$(grep -Eo '[0-9]+ failed;' "$log" | awk '{s+=$1} END {print s+0}')"
    rm -f "$log"
}
run() { # run NAME CMD...: a step that must succeed
    local name=$1; shift
    step "$name"
    if ! "$@"; then failures+=("$name"); failed=$((failed + 1)); fi
}

step "toolchain"
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt
# Figures (`nhlab run --plot`, tested) need a TrueType font for their labels.
if [ ! -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] && [ -z "${NHLAB_FONT:-}" ]; then
    (flock /tmp/nhlab-apt.lock apt-get update -qq && flock /tmp/nhlab-apt.lock apt-get install -y -qq fonts-dejavu-core) || echo "warning: could not install fonts-dejavu-core"
fi
cargo --version
# What the exported code's tests run it with (NumPy, SciPy, Octave): installed while
# the lints run, waited for before the tests.
export_tools_log=$(mktemp)
bash scripts/export-tools.sh >"$export_tools_log" 2>&1 &
export_tools_pid=$!
# The Python package's test environment (JupyterLab, Dask, mystmd…: downloads) too,
# waited for before the package's step. (Each script's apt-get waits for the others'.)
python_env_log=$(mktemp)
bash scripts/python.sh env >"$python_env_log" 2>&1 &
python_env_pid=$!

run "format" cargo fmt --all --check
run "lint" cargo clippy --workspace --all-targets --locked -- -D warnings
run "lint for wasm32 without std" cargo clippy -p nhlab --target wasm32-unknown-unknown --no-default-features --locked -- -D warnings
# Each web module alone: its feature of nhlab-www must build without the others' (and
# the notebook widget's, with all three).
for module in page runner helper widget; do
    run "lint for wasm32, the $module's module" cargo clippy -p "nhlab-$module" --target wasm32-unknown-unknown --locked -- -D warnings
done
# Every doc link resolves (the API documentation is part of the product).
run "documentation" env RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked
# Unoptimised: the build proves the core compiles to wasm32 without std (the lint above
# only type-checks it); the page's optimised modules are built by trunk below. A
# release build here took 106 s of a fresh machine's run, this one about 40.
run "core builds for wasm32 without std" \
    cargo build -p nhlab --target wasm32-unknown-unknown --no-default-features --locked

step "tools of the exported code's tests (installed during the lints)"
wait "$export_tools_pid" || { failures+=("export tools"); failed=$((failed + 1)); }
cat "$export_tools_log"
rm -f "$export_tools_log"

step "tests"
cargo_tests "tests" checked cargo test --release --workspace --locked

# The web tools install in the background while the fuzz suite runs.
tools_log=$(mktemp)
bash scripts/tools.sh browser >"$tools_log" 2>&1 &
tools_pid=$!

step "fuzz suite (release with checks, 1,000,000 generated inputs)"
# `--workspace`: the same features as the tests' build, so nothing is built again.
cargo_tests "fuzz suite" checked cargo test --release --workspace --test fuzz --locked -- --nocapture

step "web toolchain (installed during the fuzz suite)"
web_ok=1
wait "$tools_pid" || { failures+=("web toolchain"); failed=$((failed + 1)); web_ok=0; }
cat "$tools_log"
rm -f "$tools_log"
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
if [ "$web_ok" -eq 1 ]; then
    run "web build (trunk, release)" trunk build --release --offline
    # The notebook widget's module, from the built page: the package below carries it.
    run "notebook widget's module (scripts/widget.sh: its size against its budget)" bash scripts/widget.sh
fi

# After the web tools have installed: the package's tests time two threads on two cores.
step "Python package: pip install ./python, its tests, the example notebooks (nbclient) and docs/python.md's examples (pytest)"
wait "$python_env_pid" || echo "the Python test environment's install failed; trying again"
cat "$python_env_log"
rm -f "$python_env_log"
log=$(mktemp)
# With the tests' flags: the core they compiled is reused, and the binary the package
# is compared with (target/release/nhlab) is the same build.
checked bash scripts/python.sh 2>&1 | tee "$log"
tally "Python package" "${PIPESTATUS[0]}" \
    "$(grep -Eo '[0-9]+ passed' "$log" | tail -1 | grep -Eo '[0-9]+')" \
    "$(tail -1 "$log" | grep -Eo '[0-9]+ (failed|error)' | grep -Eo '[0-9]+' | awk '{s+=$1} END {print s+0}')"
rm -f "$log"

if [ "$web_ok" -eq 1 ]; then
    # Built by the tests already (with checks; the same build, so this is quick).
    run "command line, release (the browser tests compare CSVs with it)" \
        checked cargo build --release --workspace --bins --locked
    step "the page's module structure and types (tsc), browser tests (headless Chromium), the notebook widget in JupyterLab, the LaTeX check (KaTeX)"
    log=$(mktemp)
    node --test --test-reporter=spec tests/page/ tests/browser/ tests/notebooks/ tests/typeset/ 2>&1 | tee "$log"
    tally "browser tests" "${PIPESTATUS[0]}" \
        "$(grep -Eo '^ℹ pass [0-9]+' "$log" | grep -Eo '[0-9]+' | tail -1)" \
        "$(grep -Eo '^ℹ fail [0-9]+' "$log" | grep -Eo '[0-9]+' | tail -1)"
    rm -f "$log"
    echo "screenshots: target/screenshots/"
fi

# The quick variants show that every benchmark builds and runs, and print its figures.
# They are built with the tests' checks and the whole workspace's features, so that
# only the benchmarks' own binaries compile: the bench profile's build of the core took
# about 3 minutes of a fresh machine's run. Their figures are slower than `cargo
# bench`'s by the checks (up to half again; docs/benchmarks.md's figures come from
# `cargo bench`), the ratios about the same.
run "benchmark: expressions (quick, with checks)" checked cargo bench --workspace --bench expr --locked -- --quick
run "benchmark: mechanics (quick, with checks)" checked cargo bench --workspace --bench mechanics --locked -- --quick
run "benchmark: stability map (quick, with checks)" checked cargo bench --workspace --bench map --locked -- --quick
if [ "$web_ok" -eq 1 ] && [ -f dist/index.html ]; then
    # Its native figure (`cargo bench --bench rhs_rate`) is Cranelift's machine code,
    # which the checks do not touch.
    run "benchmark: browser (quick)" checked node tests/browser/bench.mjs --quick
fi

step_end
printf '\nwall time per step (background installs overlap the steps they run beside), %d s in all:\n' "$SECONDS"
printf '  %s\n' "${timings[@]}"
printf '\n'
if [ ${#failures[@]} -gt 0 ]; then
    printf 'failed steps: %s\n' "${failures[*]}"
fi
echo "nhlab: $passed passed, $failed failed"
[ ${#failures[@]} -eq 0 ]
