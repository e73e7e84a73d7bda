#!/usr/bin/env bash
# Soak: lancer plays itself, UCI against CECP (colours alternate every game), N games
# in every variant at tc=1+0.01 through `lancer match`; every PGN must replay with
# `lancer pgn-check`. Fails on any illegal move, time forfeit, crash, protocol error,
# panic, PGN that does not replay, or memory beyond the bound below.
#
#   engine-tests/scripts/soak.sh [GAMES_PER_VARIANT] [TC]     (defaults: 20, 1+0.01)
#
# Both engines get `option.Hash=$HASH` and, by default, `option.Threads=2` and
# `ponder` (lancer match's cutechess flag: UCI `go ponder`, CECP `hard`), so the
# games also run Lazy SMP and pondering. Environment switches:
#   THREADS=N   threads per engine (default 2; 0: no Threads option, lancer's 1)
#   PONDER=0    no pondering (default 1)
#   HASH=MB     the table of both engines (default 16)
#   MEMORY=0    no memory measurement (default 1)
#   MEM_MARGIN=MB  the margin of the memory bounds (default 16 + 8 a thread)
#
# The default TC becomes 1+0.05 when the search threads busy at once (THREADS, twice
# that with pondering: both engines search) outnumber the cores: the side to move
# then shares the cores with the pondering engine, and once its clock is spent its
# answers come close to a 10 ms increment (a search with a 14 ms limit answers in
# 15 ms median, 22 ms p90, while a 2-thread search runs). On a quiet machine 1+0.01
# holds (1,001 games, 0 forfeits, Threads 2 and ponder on 2 cores); anything else
# running costs games on time, so the default keeps a margin. Pass 1+0.01 for it.
#
# Memory: every second, while a match runs, the VmHWM (the process's peak resident
# memory) and VmRSS of each engine (the children of `lancer match`) are read from
# /proc/PID/status (Linux; needs pgrep and ps); the largest of each is reported. Both
# are bounded by HASH + MEM_MARGIN, the table plus lancer's own memory (measured: about
# 7 MB + 7 MB a search thread, 21 MB with two, `go movetime 400` three times in each
# of five variants). lancer makes its default 64 MB table only when first needed
# (isready, a new game, a search), so the referee's `setoption name Hash` or `memory`
# before then is the only table an engine ever writes, and the peak is bounded too.
#
# LANCER=path uses that binary instead of building target/release/lancer; SOAK_DIR=dir
# keeps the logs and PGNs there (default: a new temporary directory). The last line
# is `soak: G games, F time forfeits, I illegal moves, C crashes, P protocol errors,
# B PGNs not replayed; peak RSS M MB of L MB allowed (in play R of S), Hash H MB,
# Threads T, ponder on|off` (a cargo test runs 2 games per variant: engine-tests/soak.rs).
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-20}
tc=${2:-1+0.01}
threads=${THREADS:-2}
ponder=${PONDER:-1}
hash=${HASH:-16}
memory=${MEMORY:-1}
search_threads=$((threads > 0 ? threads : 1))
margin=${MEM_MARGIN:-$((16 + 8 * search_threads))}
busy=$((search_threads * (ponder != 0 ? 2 : 1)))
cores=$(nproc 2>/dev/null || echo 1)
if [ -z "${2:-}" ] && [ "$busy" -gt "$cores" ]; then
  tc=1+0.05
  echo "tc $tc: $busy search threads busy at once on $cores cores"
fi
if [ -z "${LANCER:-}" ]; then
  cargo build --release --quiet
  LANCER=target/release/lancer
fi
if [ "$memory" != 0 ] && ! { command -v pgrep && command -v ps; } >/dev/null; then
  echo "soak.sh: the memory measurement needs pgrep and ps (procps); MEMORY=0 skips it" >&2
  exit 1
fi
dir=${SOAK_DIR:-$(mktemp -d /tmp/lancer-soak.XXXXXX)}
mkdir -p "$dir"
each=(tc="$tc" option.Hash="$hash")
[ "$threads" != 0 ] && each+=(option.Threads="$threads")
[ "$ponder" != 0 ] && each+=(ponder)

# The largest VmHWM and VmRSS (kB) seen among the children of process $1 (VmRSS
# from an engine's second second on), kept in hwm_kb and rss_kb for this variant.
mb() { echo $((($1 + 512) / 1024)); }
status_kb() { awk -v k="$1:" '$1 == k { print $2 }' "$2" 2>/dev/null || true; }
sample() {
  local c h r age
  for c in $(pgrep -P "$1" || true); do
    h=$(status_kb VmHWM "/proc/$c/status")
    r=$(status_kb VmRSS "/proc/$c/status")
    age=$(ps -o etimes= -p "$c" 2>/dev/null || true)
    if [ -n "$h" ] && [ "$h" -gt "$hwm_kb" ]; then hwm_kb=$h; fi
    if [ -n "$r" ] && [ "${age// /}" -ge 1 ] 2>/dev/null && [ "$r" -gt "$rss_kb" ]; then
      rss_kb=$r
    fi
  done
}

variants="chess fischerandom fullcavalry eightpiece eightpiecerandom royalstandard lighthouse"
games=0 time=0 illegal=0 crash=0 proto=0 badpgn=0 panic=0 peak_kb=0 play_kb=0
for v in $variants; do
  log="$dir/$v.log" pgn="$dir/$v.pgn"
  rm -f "$pgn"
  hwm_kb=0 rss_kb=0
  # -recover: an engine failure is counted, and the match goes on.
  "$LANCER" match -engine cmd="$LANCER" name=lancer-uci proto=uci \
    -engine cmd="$LANCER" name=lancer-cecp proto=xboard \
    -each "${each[@]}" -variant "$v" -games "$n" -recover -seed "$n" \
    -pgnout "$pgn" >"$log" 2>"$dir/$v.err" &
  match=$!
  while kill -0 "$match" 2>/dev/null; do
    [ "$memory" != 0 ] && sample "$match"
    sleep 1
  done
  wait "$match" || true
  g=$(grep -c '^Finished game' "$log" || true)
  t=$(grep -c '^Finished game.*loses on time' "$log" || true)
  i=$(grep -c '^Finished game.*illegal move' "$log" || true)
  c=$(grep -c '^Finished game.*connection stalls' "$log" || true)
  p=$(grep -c '^Finished game.*protocol error' "$log" || true)
  k=$(grep -c 'panicked' "$dir/$v.err" || true)
  if [ -s "$pgn" ] && "$LANCER" pgn-check "$pgn" >"$dir/$v.check" 2>&1; then
    replayed=$(grep -oE '^[0-9]+' "$dir/$v.check" | head -1)
  else
    replayed=0
  fi
  b=$((g - replayed))
  [ "$g" -eq "$n" ] || { echo "$v: $g of $n games finished" >&2; crash=$((crash + n - g)); }
  mem=""
  [ "$memory" != 0 ] && mem=", peak RSS $(mb $hwm_kb) MB, in play $(mb $rss_kb) MB"
  echo "$v: $g games, $t time forfeits, $i illegal, $c crashes, $p protocol errors, $((b > 0 ? b : 0)) PGN failures, $k panics$mem"
  grep '^Score of' "$log" | tail -1 || true
  games=$((games + g)) time=$((time + t)) illegal=$((illegal + i)) crash=$((crash + c))
  proto=$((proto + p)) badpgn=$((badpgn + (b > 0 ? b : 0))) panic=$((panic + k))
  peak_kb=$((hwm_kb > peak_kb ? hwm_kb : peak_kb)) play_kb=$((rss_kb > play_kb ? rss_kb : play_kb))
done
crash=$((crash + panic))

# The memory bounds (MB), see the head of this file.
peak=$(mb $peak_kb) play=$(mb $play_kb)
peak_limit=$((hash + margin)) play_limit=$((hash + margin))
overmem=0
if [ "$memory" = 0 ]; then
  mem="memory not measured"
elif [ "$peak_kb" -eq 0 ]; then
  mem="memory not measured (no engine process seen)"
  overmem=1
else
  mem="peak RSS $peak MB of $peak_limit MB allowed (in play $play of $play_limit)"
  if [ "$peak" -gt "$peak_limit" ] || [ "$play" -gt "$play_limit" ]; then
    echo "memory beyond its bound: $mem" >&2
    overmem=1
  fi
fi
ponder_text=$([ "$ponder" != 0 ] && echo on || echo off)
echo "logs and PGNs: $dir"
echo "soak: $games games, $time time forfeits, $illegal illegal moves, $crash crashes, $proto protocol errors, $badpgn PGNs not replayed; $mem, Hash $hash MB, Threads $search_threads, ponder $ponder_text"
[ $((time + illegal + crash + proto + badpgn + overmem)) -eq 0 ]
