#!/usr/bin/env bash
# Builds one lancer executable for a system and an x86-64 level (docs/download.md,
# "Building a release"):
#
#   engine-tests/scripts/build-release.sh SYSTEM LEVEL PROFILE OUT
#
# SYSTEM is windows or linux; LEVEL is x86-64, x86-64-v2, x86-64-v3 or x86-64-v4;
# PROFILE is a Cargo profile (dist for releases, quick for CI); OUT is the file to
# write. Linux builds are static (glibc linked in: `ldd` says "not a dynamic
# executable"); Windows builds target x86_64-win7-windows-gnu (Windows 7 and later,
# and Wine) and link with MinGW, so they need no DLL beyond Windows' own.
#
# The toolchain is Debian's (apt-get install rustc-web cargo-web rust-web-src
# gcc-mingw-w64-x86-64): a target whose standard library is not installed (the
# Windows 7 target, a tier-3 target with none prebuilt) gets it built from source
# with `-Z build-std`. RELEASE_CARGO and RELEASE_RUSTC choose another toolchain
# (rustup's: RELEASE_CARGO=cargo RELEASE_RUSTC=rustc); WINDOWS_TARGET another Windows
# target (x86_64-pc-windows-gnu, whose standard library `rustup target add` installs,
# runs on Windows 10 and later only).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ $# -ne 4 ]; then
  echo "usage: $0 SYSTEM LEVEL PROFILE OUT   (SYSTEM: windows|linux)" >&2
  exit 2
fi
system=$1 level=$2 profile=$3 out=$4

case "$level" in
  x86-64|x86-64-v2|x86-64-v3|x86-64-v4) ;;
  *) echo "$0: unknown level '$level' (x86-64, x86-64-v2, x86-64-v3, x86-64-v4)" >&2; exit 2 ;;
esac

cargo_bin=${RELEASE_CARGO:-/usr/bin/cargo}
rustc_bin=${RELEASE_RUSTC:-/usr/bin/rustc}
for tool in "$cargo_bin" "$rustc_bin"; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "$0: no $tool: apt-get install rustc-web cargo-web rust-web-src gcc-mingw-w64-x86-64" >&2
    exit 1
  fi
done

# Everything else (the standard library where it is built, the dependencies) is
# built for plain x86-64 and only the lancer package for LEVEL, so that the code
# that runs before main and the processor check in main (src/version.rs) use no
# instruction an older processor lacks: a too-new build stops with a message.
# Flags are separated by 0x1f (CARGO_ENCODED_RUSTFLAGS); none gives plain x86-64.
flags=""
exe=lancer
case "$system" in
  windows)
    target=${WINDOWS_TARGET:-x86_64-win7-windows-gnu}
    exe=lancer.exe
    if ! command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
      echo "$0: no x86_64-w64-mingw32-gcc: apt-get install gcc-mingw-w64-x86-64" >&2
      exit 1
    fi
    export "CARGO_TARGET_$(echo "$target" | tr 'a-z-' 'A-Z_')_LINKER=x86_64-w64-mingw32-gcc"
    ;;
  linux)
    target=x86_64-unknown-linux-gnu
    flags=$'-C\x1ftarget-feature=+crt-static'
    ;;
  *) echo "$0: unknown system '$system' (windows, linux)" >&2; exit 2 ;;
esac

unstable=(-Z profile-rustflags --config "profile.$profile.package.lancer.rustflags=[\"-C\", \"target-cpu=$level\"]")
export RUSTC_BOOTSTRAP=1
sysroot=$("$rustc_bin" --print sysroot)
if [ ! -d "$sysroot/lib/rustlib/$target/lib" ]; then
  if [ ! -d "$sysroot/lib/rustlib/src/rust/library" ]; then
    echo "$0: $rustc_bin has no standard library for $target and no source to build one (apt-get install rust-web-src)" >&2
    exit 1
  fi
  unstable+=(-Z build-std=std,panic_abort)
fi

# CARGO_ENCODED_RUSTFLAGS, even empty, replaces .cargo/config.toml's
# target-cpu=native; with --target it reaches only the target's code, not build
# scripts. The package's flags come before these, so these name no target-cpu.
# -Z profile-rustflags and
# -Z build-std are Cargo's unstable options (RUSTC_BOOTSTRAP lets a stable Cargo
# take them).
CARGO_ENCODED_RUSTFLAGS="$flags" RUSTC="$rustc_bin" "$cargo_bin" build --locked --profile "$profile" \
  --target "$target" --target-dir target/release-build "${unstable[@]}"
mkdir -p "$(dirname "$out")"
cp "target/release-build/$target/$profile/$exe" "$out"
echo "built $out ($system, $level, $target, profile $profile)"
