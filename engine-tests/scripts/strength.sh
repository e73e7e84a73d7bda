#!/usr/bin/env bash
# The playing-strength measurements of issues 13 and 32, side by side in one run:
#   1. the current lancer against commit 1d8ed94 (before the variants' networks) at
#      1+0.01 in every variant;
#   2. chess against Debian's fairy-stockfish 11.1 at 2+0.02 and at 10+0.1;
#   3. lighthouse against a current Fairy-Stockfish (built from PyPI's pyffish sdist by
#      build-fsf.sh) at 2+0.02 and at 10+0.1;
#   4. the win/draw/loss models (wdlModel in variants.ini) against self-play of the
#      current lancer at 1+0.01 in each variant that has a model of its own: the
#      model in use and a refit (wdl_fit.py), each with its mean log-loss;
#   5. lancer's average time a move over the first 40 moves at 10+0.1, and the time
#      losses over every game.
# Every match is `lancer match` (cutechess-cli's options and output) from balanced
# openings written by `lancer openings`, colours swapped per opening, two games at a
# time. PGNs and logs stay in the output folder.
#
# Usage: strength.sh [OUTDIR]
# Environment: GAMES_SELF (games per variant against the old commit, default 200),
#   GAMES_FSF (games per FSF match, default 100), GAMES_WDL (self-play games per
#   variant for the WDL models, default 200), BASE (the old commit, default 1d8ed94),
#   PARTS (which parts to run, default "self chess lighthouse wdl"), VARIANTS (the
#   self-play variants, default all seven), CONCURRENCY (default 2).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-target/strength}
games_self=${GAMES_SELF:-200}
games_fsf=${GAMES_FSF:-100}
games_wdl=${GAMES_WDL:-200}
base=${BASE:-1d8ed94}
variants=${VARIANTS:-chess fischerandom fullcavalry eightpiece eightpiecerandom royalstandard lighthouse}
parts=${PARTS:-self chess lighthouse wdl}
conc=${CONCURRENCY:-2}
mkdir -p "$out"
out=$(cd "$out" && pwd)

cargo build --release --quiet
new="$out/lancer-new"
cp target/release/lancer "$new"
old="$out/lancer-$base"
# The old commit is built only for the self-play part.
if [[ " $parts " == *" self "* ]] && [ ! -x "$old" ]; then
  wt="$out/worktree-$base"
  rm -rf "$wt"
  git worktree add --detach "$wt" "$base" >/dev/null
  (cd "$wt" && cargo build --release --quiet)
  cp "$wt/target/release/lancer" "$old"
  git worktree remove --force "$wt"
fi
fsf_debian=/usr/games/fairy-stockfish
fsf_current=target/fsf/fairy-stockfish
ini=$(pwd)/engine-tests/fsf/lighthouse.ini

openings() { # variant count
  [ -s "$out/$1.epd" ] || "$new" openings --variant "$1" --count "$2" --plies 8 --seed 13 > "$out/$1.epd"
}

# match NAME VARIANT GAMES ENGINE-ARGS... : runs one match, keeps its log and PGN.
match() {
  local name=$1 variant=$2 games=$3
  shift 3
  openings "$variant" $(( (games + 1) / 2 ))
  "$new" match "$@" -variant "$variant" -games "$games" -repeat -concurrency "$conc" \
    -openings file="$out/$variant.epd" format=epd order=sequential \
    -pgnout "$out/$name.pgn" > "$out/$name.log" 2>&1 || true
  printf '%-28s %s\n' "$name" "$(grep -E '^Score of' "$out/$name.log" | tail -1)"
  printf '%-28s %s\n' "" "$(grep -E '^Elo difference' "$out/$name.log" | tail -1)"
}

rm -f "$out"/*.pgn
echo "== lancer $(git rev-parse --short HEAD) ($new), $(date -u +%FT%TZ)"
if [[ " $parts " == *" self "* ]]; then
  echo "== 1. against $base at 1+0.01, $games_self games per variant"
  for v in $variants; do
    match "self-$v" "$v" "$games_self" -engine cmd="$new" name=lancer -engine cmd="$old" name="$base" \
      -each proto=uci tc=1+0.01
  done
fi
if [[ " $parts " == *" chess "* ]]; then
  echo "== 2. chess against Debian fairy-stockfish 11.1, $games_fsf games per time control"
  [ -x "$fsf_debian" ] || { echo "missing $fsf_debian (apt-get install fairy-stockfish)"; exit 1; }
  for tc in 2+0.02 10+0.1; do
    match "fsf11-chess-$tc" chess "$games_fsf" -engine cmd="$new" name=lancer \
      -engine cmd="$fsf_debian" name=fsf11 -each proto=uci tc="$tc"
  done
fi
if [[ " $parts " == *" lighthouse "* ]]; then
  echo "== 3. lighthouse against current Fairy-Stockfish, $games_fsf games per time control"
  engine-tests/scripts/build-fsf.sh target/fsf >/dev/null
  for tc in 2+0.02 10+0.1; do
    match "fsf-lighthouse-$tc" lighthouse "$games_fsf" -engine cmd="$new" name=lancer \
      -engine cmd="$fsf_current" name=fsf option.VariantPath="$ini" -each proto=uci tc="$tc"
  done
fi
if [[ " $parts " == *" wdl "* ]]; then
  echo "== 4. WDL models against $games_wdl self-play games per variant at 1+0.01"
  # Each variant whose section of variants.ini gives a model of its own (the others
  # inherit one of these), with that model: "variant a0 a1 a2 b0 b1 b2".
  mapfile -t models < <(awk '/^\[/ {v = substr($1, 2); sub(/\]$/, "", v)}
    /^wdlModel *=/ {sub(/^[^=]*= */, ""); print v, $0}' variants.ini)
  for row in "${models[@]}"; do
    v=${row%% *} model=${row#* }
    match "wdl-$v" "$v" "$games_wdl" -engine cmd="$new" name=a -engine cmd="$new" name=b \
      -each proto=uci tc=1+0.01
    # --cross: the refit and the model in use, each scored on games the refit was
    # not fitted to; a refit replaces the model only if it wins there.
    fit=$(python3 engine-tests/scripts/wdl_fit.py --model "$model" --cross "$out/wdl-$v.pgn")
    printf '%-28s in use: %s; refit: %s\n' "wdl-$v" \
      "$(grep -o 'log-loss [0-9.]*' <<<"$fit" | head -1)" "$(grep -o 'log-loss [0-9.]*' <<<"$fit" | tail -1)"
    printf '%-28s %s\n' "" "$(grep '^cross-validated' <<<"$fit")"
    printf '%-28s %s; %s\n' "" "$(grep 'PGN games' <<<"$fit" | cut -d, -f1,2)" "$(grep '^wdlModel' <<<"$fit")"
  done
fi
echo "== 5. time"
# The WDL part's self-play has no engine named lancer.
timed=()
for f in "$out"/*.pgn; do
  [[ $(basename "$f") == wdl-* ]] || timed+=("$f")
done
if [ ${#timed[@]} -gt 0 ]; then
  python3 engine-tests/scripts/pgn_time.py lancer "${timed[@]}"
fi
