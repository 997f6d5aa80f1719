#!/usr/bin/env bash
# What scripts/run-fuzzers and scripts/fuzz-long share (docs/fuzzing.md): the packages, the
# libFuzzer build in ./build-fuzz (clang, ASan + UBSan, only the core and the fuzzers), and the
# seed corpora, made from examples/ and tests/data at run time. Sourced, from the repository root.
set -euo pipefail

fuzz_targets=(rlx expression simengine2d adams)

# clang with libFuzzer, and the core's libraries; installs only what is missing.
fuzz_setup() {
  local packages=(cmake ccache clang libclang-rt-14-dev libeigen3-dev libsuitesparse-dev
    nlohmann-json3-dev python3)
  local missing=() p sudo=""
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "Installing: ${missing[*]}"
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# Warnings fail this build as they fail the gcc build: clang 14 has some of its own. Line tables
# are all a finding's stack trace needs.
fuzz_build() {
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" \
    -DREULEAUX_FUZZ=ON -DREULEAUX_BUILD_GUI=OFF -DREULEAUX_BUILD_TESTS=OFF \
    -DREULEAUX_BUILD_BENCH=OFF -DREULEAUX_WERROR=ON >/dev/null
  cmake --build build-fuzz -j2 --target "${fuzz_targets[@]/#/fuzz_}"
}

# fuzz_seeds DIR: DIR/<target>/ for every target. rlx: the .rlx files; simengine2d: each JSON
# .adm with its .acf after the separator (tests/fuzz/fuzz_targets.h); adams: the .adm files that
# are Adams datasets (text, not JSON), those of tests/data/adams/ among them; expression: every string of the model files (the
# expressions among them, and names).
fuzz_seeds() {
  local dir=$1 adm
  mkdir -p "$dir"/rlx "$dir"/simengine2d "$dir"/expression "$dir"/adams
  cp examples/*.rlx tests/data/*.rlx "$dir"/rlx/
  cp tests/data/adams/*.adm tests/data/adams/chrono/*.adm "$dir"/adams/
  for adm in tests/data/*.adm; do
    if [ "$(head -c 1 "$adm")" != "{" ]; then
      cp "$adm" "$dir/adams/"
      continue
    fi
    cp "$adm" "$dir/simengine2d/$(basename "$adm")"
    [ -f "${adm%.adm}.acf" ] &&
      { cat "$adm"; printf '\n#acf\n'; cat "${adm%.adm}.acf"; } >"$dir/simengine2d/$(basename "$adm").acf"
  done
  python3 - "$dir"/expression examples/*.rlx tests/data/*.rlx tests/data/*.adm <<'PY'
import hashlib, json, sys
def strings(v):
    if isinstance(v, str): yield v
    elif isinstance(v, list):
        for x in v: yield from strings(x)
    elif isinstance(v, dict):
        for x in v.values(): yield from strings(x)
for path in sys.argv[2:]:
    try:
        model = json.load(open(path))
    except ValueError:  # an Adams dataset
        continue
    for s in set(strings(model)):
        name = hashlib.sha1(s.encode()).hexdigest()
        open(f"{sys.argv[1]}/{name}", "w").write(s)
PY
}

# fuzz_options TARGET: the limits of every run. Inputs up to 64 KiB (.rlx, .adm) or 4 KiB (an
# expression); an input that takes more than 10 s is a hang; more than 2 GiB of memory, a leak.
# ASan keeps every allocation's stack in a table that is never freed; the expression fuzzer's
# recursive descent makes new 30-frame stacks without end (1.8 GB after 8.5 million executions),
# 10 frames keep it flat (544 MB) and still show where a reported block came from.
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=10}
fuzz_options() {
  local max_len=65536
  [ "$1" = expression ] && max_len=4096
  echo "-max_len=$max_len -timeout=10 -rss_limit_mb=2048 -dict=tests/fuzz/$1.dict"
}
