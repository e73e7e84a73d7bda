#!/usr/bin/env bash
# Soak: lancer plays itself, UCI against CECP (colours alternate every game), N games
# in every variant at tc=1+0.01 through `lancer match`; every PGN must replay with
# `lancer pgn-check`. Fails on any illegal move, time forfeit, crash, protocol error,
# panic or PGN that does not replay.
#
#   engine-tests/scripts/soak.sh [GAMES_PER_VARIANT] [TC]     (defaults: 20, 1+0.01)
#
# LANCER=path uses that binary instead of building target/release/lancer; SOAK_DIR=dir
# keeps the logs and PGNs there (default: a new temporary directory). The last line
# is `soak: G games, F time forfeits, I illegal moves, C crashes, P protocol errors,
# B PGNs not replayed` (a cargo test runs 2 games per variant: engine-tests/soak.rs).
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-20}
tc=${2:-1+0.01}
if [ -z "${LANCER:-}" ]; then
  cargo build --release --quiet
  LANCER=target/release/lancer
fi
dir=${SOAK_DIR:-$(mktemp -d /tmp/lancer-soak.XXXXXX)}
mkdir -p "$dir"
variants="chess fischerandom fullcavalry eightpiece eightpiecerandom royalstandard lighthouse"
games=0 time=0 illegal=0 crash=0 proto=0 badpgn=0 panic=0
for v in $variants; do
  log="$dir/$v.log" pgn="$dir/$v.pgn"
  rm -f "$pgn"
  # -recover: an engine failure is counted, and the match goes on.
  "$LANCER" match -engine cmd="$LANCER" name=lancer-uci proto=uci \
    -engine cmd="$LANCER" name=lancer-cecp proto=xboard \
    -each tc="$tc" -variant "$v" -games "$n" -recover -seed "$n" \
    -pgnout "$pgn" >"$log" 2>"$dir/$v.err" || true
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
  echo "$v: $g games, $t time forfeits, $i illegal, $c crashes, $p protocol errors, $((b > 0 ? b : 0)) PGN failures, $k panics"
  grep '^Score of' "$log" | tail -1 || true
  games=$((games + g)) time=$((time + t)) illegal=$((illegal + i)) crash=$((crash + c))
  proto=$((proto + p)) badpgn=$((badpgn + (b > 0 ? b : 0))) panic=$((panic + k))
done
crash=$((crash + panic))
echo "logs and PGNs: $dir"
echo "soak: $games games, $time time forfeits, $illegal illegal moves, $crash crashes, $proto protocol errors, $badpgn PGNs not replayed"
[ $((time + illegal + crash + proto + badpgn)) -eq 0 ]
