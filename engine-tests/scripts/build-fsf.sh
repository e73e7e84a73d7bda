#!/usr/bin/env bash
# Builds a current Fairy-Stockfish for the tests that play against it (a Lighthouse
# match through `lancer match`, engine-tests/referee.rs): the engine sources come
# in PyPI's pyffish sdist (a pip package), compiled here into a plain UCI/CECP binary.
#
#   engine-tests/scripts/build-fsf.sh [OUTDIR]        (default: target/fsf)
#
# Result: OUTDIR/fairy-stockfish, with the sdist it was built from beside it. Nothing
# is done when that binary already answers `uci` as Fairy-Stockfish, so CI can call
# this every run. Fairy-Stockfish is GPL-3.0: the sources and the binary stay under
# target/ (never committed); this script holds none of their code.
#
# Environment: PYFFISH_VERSION (default 0.0.90), JOBS (parallel compiles, default the
# number of cores), CXX (default g++).
set -euo pipefail
cd "$(dirname "$0")/../.."

version="${PYFFISH_VERSION:-0.0.90}"
jobs="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
cxx="${CXX:-g++}"
outdir="${1:-target/fsf}"
mkdir -p "$outdir"
outdir="$(cd "$outdir" && pwd)"
bin="$outdir/fairy-stockfish"

say() { echo "build-fsf: $*" >&2; }

answers_uci() {
  [ -x "$1" ] && printf 'uci\nquit\n' | timeout 20 "$1" 2>/dev/null | grep -q '^id name Fairy-Stockfish'
}

if answers_uci "$bin"; then
  say "$bin is there"
  exit 0
fi

command -v "$cxx" >/dev/null || { say "no C++ compiler '$cxx' (apt-get install g++)"; exit 1; }
if python3 -m pip --version >/dev/null 2>&1; then
  pip=(python3 -m pip)
elif command -v pip >/dev/null; then
  pip=(pip)
else
  say "pip is needed to fetch the pyffish sdist"
  exit 1
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/lancer-fsf.XXXXXX")"
trap 'rm -rf "$work"' EXIT

say "fetching the pyffish $version sdist"
"${pip[@]}" download --quiet --no-deps --no-binary :all: "pyffish==$version" -d "$work" >&2
tar -xzf "$work/pyffish-$version.tar.gz" -C "$work"
src="$work/pyffish-$version/src"
[ -f "$src/main.cpp" ] || { say "no src/main.cpp in the sdist"; exit 1; }

# The engine is every .cpp but the Python and JavaScript bindings. Boards up to 8x8
# (Lighthouse is 4x8 with drops) need no LARGEBOARDS/ALLVARS build.
flags=(-std=c++17 -O3 -DNDEBUG -DIS_64BIT -DUSE_PTHREADS -DNNUE_EMBEDDING_OFF -DUSE_POPCNT -msse4.1 -mpopcnt)
mkdir -p "$work/obj"
(cd "$src" && find . -name '*.cpp' ! -name pyffish.cpp ! -name ffishjs.cpp | sed 's|^\./||' | sort) >"$work/files"
say "compiling $(wc -l <"$work/files") files, $jobs at a time"
t0=$(date +%s)
export cxx src work
export flags_line="${flags[*]}"
xargs -P "$jobs" -I{} sh -c '
  o="$work/obj/$(echo "$1" | tr / _).o"
  $cxx $flags_line -c "$src/$1" -o "$o" 2>"$o.err" || { cat "$o.err" >&2; exit 255; }
' _ {} <"$work/files"
"$cxx" "${flags[@]}" -o "$work/fairy-stockfish" "$work"/obj/*.o -lpthread
answers_uci "$work/fairy-stockfish" || { say "the binary does not answer uci"; exit 1; }
install -m 0755 "$work/fairy-stockfish" "$bin"
cp "$work/pyffish-$version.tar.gz" "$outdir/"
say "built $bin in $(($(date +%s) - t0)) s: $(printf 'uci\nquit\n' | "$bin" | grep -m1 '^id name')"
