#!/usr/bin/env bash
# Runs one cargo-fuzz target of engine-tests/fuzz on one core.
#   engine-tests/scripts/fuzz.sh TARGET [SECONDS] [extra libFuzzer flags...]
# A run to a fixed number of executions (libFuzzer stops at whichever limit comes
# first), e.g. issue 34's 10 million:
#   nice -n 10 engine-tests/scripts/fuzz.sh uci 0 -runs=10000000
# SECONDS 0 means no time limit.
# Targets: efen movetext ini uci cecp playout. Needs `cargo install cargo-fuzz` and a
# nightly toolchain. The corpus grows in engine-tests/fuzz/corpus/TARGET (not
# committed; the seeds in engine-tests/fuzz/seeds/TARGET are), crashes land in
# engine-tests/fuzz/artifacts/TARGET. Replay one with
#   cargo +nightly fuzz run -s none --fuzz-dir engine-tests/fuzz TARGET FILE
# The last lines print libFuzzer's final stats (stat::number_of_executed_units).
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${1:?usage: fuzz.sh TARGET [SECONDS] [libFuzzer flags...]}
secs=${2:-600}
shift $(( $# >= 2 ? 2 : 1 ))
mkdir -p "engine-tests/fuzz/corpus/$target"
dict=()
if [ -f "engine-tests/fuzz/dicts/$target.dict" ]; then
  dict=("-dict=engine-tests/fuzz/dicts/$target.dict")
fi
# Comparison tracing steers libFuzzer toward the constants a parser compares with.
# playout's bytes only pick moves (modulo the number of legal moves), and uci's and
# cecp's time goes to searches and evaluation, whose comparisons no input can steer
# (their keywords come from the dictionaries in engine-tests/fuzz/dicts): the three
# are built without it, which runs them 1.7 to 3 times as fast, in a target
# directory of their own (the flags differ, so sharing one would rebuild everything
# at each switch). efen, movetext and ini keep it.
# playout's inputs also stop at 3 + 256 bytes (MAX_PLIES): longer ones would only be
# mutated where nothing reads them.
build=() lengths=()
case "$target" in
  playout | uci | cecp) build=(--no-trace-compares --target-dir engine-tests/fuzz/target-nocmp) ;;
esac
if [ "$target" = playout ]; then
  lengths=(-max_len=259)
fi
# glibc serves the 8 MB history table that each fresh engine makes (uci, cecp) from
# the heap and clears it; from mmap it comes zeroed, and only the pages a tiny search
# touches are faulted in. Not trimming the heap after each input spares refaulting
# the table and the rest. Together about 1.5 times the executions per second.
export MALLOC_MMAP_THRESHOLD_=${MALLOC_MMAP_THRESHOLD_:-4194304}
export MALLOC_TRIM_THRESHOLD_=${MALLOC_TRIM_THRESHOLD_:-67108864}
# -s none: the crate forbids unsafe code, so AddressSanitizer adds cost and little
# else; panics, overflow checks and debug assertions are what the targets catch.
exec cargo +nightly fuzz run -s none "${build[@]}" --fuzz-dir engine-tests/fuzz "$target" \
  "engine-tests/fuzz/corpus/$target" "engine-tests/fuzz/seeds/$target" -- \
  -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -close_fd_mask=1 \
  -print_final_stats=1 "${dict[@]}" "${lengths[@]}" "$@"
