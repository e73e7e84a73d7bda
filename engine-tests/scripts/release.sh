#!/usr/bin/env bash
# `make release`: every binary of a release in dist/, a zip for WinBoard users,
# SHA256SUMS, then the tests of what ships (docs/download.md, "Building a release").
#
#   make release                      # = engine-tests/scripts/release.sh
#   LEVELS="x86-64-v3" SYSTEMS=linux TEST=0 engine-tests/scripts/release.sh
#
# Needs Debian's rustc-web, cargo-web, rust-web-src and gcc-mingw-w64-x86-64 (the
# builds, engine-tests/scripts/build-release.sh), wine (the Windows tests), python3
# (the zip) and the machine's own cargo (the native build the signatures are checked
# against). About 25 minutes on 2 cores, half of it the tests.
set -euo pipefail
cd "$(dirname "$0")/../.."

DIST=${DIST:-dist}
LEVELS=${LEVELS:-"x86-64-v3 x86-64-v2 x86-64"}
SYSTEMS=${SYSTEMS:-"windows linux"}
PROFILE=${PROFILE:-dist}
TEST=${TEST:-1}
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)

if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  echo "release: the tree has uncommitted changes: the binaries will say 'modified'" >&2
fi
for tool in wine python3 sha256sum; do
  if [ "$TEST" = 1 ] || [ "$tool" != wine ]; then
    command -v "$tool" >/dev/null 2>&1 || { echo "release: no $tool (docs/download.md lists what to install)" >&2; exit 1; }
  fi
done

rm -rf "$DIST"
mkdir -p "$DIST"
for system in $SYSTEMS; do
  for level in $LEVELS; do
    ext=""
    [ "$system" = windows ] && ext=".exe"
    engine-tests/scripts/build-release.sh "$system" "$level" "$PROFILE" \
      "$DIST/lancer-$version-$system-$level$ext"
  done
done

# The bench signature: every binary searches as the native build does, node for node.
cargo build --release --locked
expected=$(target/release/lancer bench 2>/dev/null | sed -n 's/^\([0-9]*\) nodes$/\1/p')
export WINEPREFIX=${WINEPREFIX:-$PWD/target/wine} WINEDEBUG=-all
for bin in "$DIST"/lancer-*; do
  case "$bin" in
    *.exe) if [ "$TEST" = 1 ]; then got=$(wine "$bin" bench 2>/dev/null | tr -d '\r' | sed -n 's/^\([0-9]*\) nodes$/\1/p'); else continue; fi ;;
    *) got=$("$bin" bench 2>/dev/null | sed -n 's/^\([0-9]*\) nodes$/\1/p') ;;
  esac
  if [ "$got" != "$expected" ]; then
    echo "release: $bin: bench $got nodes, the native build $expected" >&2
    exit 1
  fi
  echo "$(basename "$bin"): bench $got nodes, as the native build"
done

# The zip for WinBoard: the Windows executables, variants.ini, the piece images,
# the text on installing, the changelog.
if [[ " $SYSTEMS " == *" windows "* ]]; then
  python3 engine-tests/scripts/package.py --version "$version" --bench "$expected" --dist "$DIST"
fi
(cd "$DIST" && sha256sum -- * > SHA256SUMS && sha256sum -c --quiet SHA256SUMS)

if [ "$TEST" = 1 ]; then
  LANCER_RELEASE_DIR="$PWD/$DIST" cargo test --release --locked --test release -- --nocapture
fi
echo
ls -l "$DIST"
