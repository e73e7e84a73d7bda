#!/usr/bin/env bash
# The playing-strength measurements of issue 50 (docs/testing.md, "Measuring
# strength"), side by side in one run:
#   self    the current lancer against an old commit (BASE) at 1+0.01 in every
#           variant (GAMES_SELF, or GAMES_SELF_<variant>);
#   self10  the same at 10+0.1 in the five lancer variants among VARIANTS
#           (GAMES_SELF10);
#   chess   chess against Debian's fairy-stockfish 11.1 at 10+0.1 on two kinds of
#           openings: `lancer openings` lines (seed SEED) and random 8-ply lines that
#           Debian's stockfish at depth 10 scores within 60 cp (sf_openings.py, seed
#           SEED), GAMES_FSF games each;
#   lighthouse  Lighthouse against a current Fairy-Stockfish (build-fsf.sh) at 10+0.1
#           (GAMES_LH) and at 60+0.6 (GAMES_LH60);
#   clocks  the current lancer against itself over UCI against XBoard (proto=xboard)
#           at 60+0.6, 40 moves in 60 s (XBoard's `level 40 1 0`) and 60+0 sudden
#           death, in chess and Lighthouse among VARIANTS (GAMES_CLOCKS a control),
#           for time losses;
#   wdl     the win/draw/loss models (wdlModel in variants.ini) against self-play of
#           the current lancer at 1+0.01: the model in use and a refit (wdl_fit.py);
#   time    lancer's time a move over the first 40 moves, and the time losses of
#           every game (pgn_time.py).
# Every match is `lancer match` (cutechess-cli's options and output), colours swapped
# per opening, CONCURRENCY games at a time. PGNs and logs stay in the output folder.
#
# Usage: strength.sh [OUTDIR]
# Environment: BASE (default b2b323c), PARTS (default "self self10 chess lighthouse
#   clocks wdl"), SEED (openings seed, default 50: use one not used before),
#   VARIANTS, GAMES_SELF (200), GAMES_SELF10 (100), GAMES_FSF (100 per kind),
#   GAMES_LH (80), GAMES_LH60 (40), GAMES_CLOCKS (10), GAMES_WDL (200), CONCURRENCY (2).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-target/strength}
base=${BASE:-b2b323c}
parts=${PARTS:-self self10 chess lighthouse clocks wdl}
seed=${SEED:-50}
variants=${VARIANTS:-chess fischerandom fullcavalry eightpiece eightpiecerandom royalstandard lighthouse}
games_self=${GAMES_SELF:-200}
games_self10=${GAMES_SELF10:-100}
games_fsf=${GAMES_FSF:-100}
games_lh=${GAMES_LH:-80}
games_lh60=${GAMES_LH60:-40}
games_clocks=${GAMES_CLOCKS:-10}
games_wdl=${GAMES_WDL:-200}
conc=${CONCURRENCY:-2}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# among WORD LIST: WORD is one of the space-separated LIST.
among() { [[ " $2 " == *" $1 "* ]]; }
has() { among "$1" "$parts"; }

cargo build --release --quiet
new="$out/lancer-new"
cp target/release/lancer "$new"
old="$out/lancer-$base"
if { has self || has self10; } && [ ! -x "$old" ]; then
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

# openings FILE VARIANT COUNT: `lancer openings` lines, made once.
openings() {
  [ -s "$1" ] || "$new" openings --variant "$2" --count "$3" --plies 8 --seed "$seed" > "$1"
}

# match NAME VARIANT GAMES EPD ENGINE-ARGS... : runs one match, keeps its log and PGN.
match() {
  local name=$1 variant=$2 games=$3 epd=$4
  shift 4
  "$new" match "$@" -variant "$variant" -games "$games" -repeat -concurrency "$conc" \
    -openings file="$epd" format=epd order=sequential \
    -pgnout "$out/$name.pgn" > "$out/$name.log" 2>&1 || true
  printf '%-28s %s\n' "$name" "$(grep -E '^Score of' "$out/$name.log" | tail -1)"
  printf '%-28s %s\n' "" "$(grep -E '^Elo difference' "$out/$name.log" | tail -1)"
}

rm -f "$out"/*.pgn
echo "== lancer $(git rev-parse --short HEAD) ($new), $(date -u +%FT%TZ), openings seed $seed"
if has self; then
  echo "== self: against $base at 1+0.01"
  for v in $variants; do
    var="GAMES_SELF_$v"
    g=${!var:-$games_self}
    openings "$out/$v.epd" "$v" $(( (g + 1) / 2 ))
    match "self-$v" "$v" "$g" "$out/$v.epd" -engine cmd="$new" name=lancer \
      -engine cmd="$old" name="$base" -each proto=uci tc=1+0.01
  done
fi
if has self10; then
  echo "== self10: against $base at 10+0.1, $games_self10 games per variant"
  for v in fullcavalry eightpiece eightpiecerandom royalstandard lighthouse; do
    # Only the lancer variants among VARIANTS: chess and Chess960 have no 10+0.1 row.
    among "$v" "$variants" || continue
    openings "$out/$v.epd" "$v" $(( (games_self10 + 1) / 2 ))
    match "self10-$v" "$v" "$games_self10" "$out/$v.epd" -engine cmd="$new" name=lancer \
      -engine cmd="$old" name="$base" -each proto=uci tc=10+0.1
  done
fi
if has chess; then
  echo "== chess: against Debian fairy-stockfish 11.1 at 10+0.1, $games_fsf games per kind of openings"
  [ -x "$fsf_debian" ] || { echo "missing $fsf_debian (apt-get install fairy-stockfish)"; exit 1; }
  n=$(( (games_fsf + 1) / 2 ))
  openings "$out/chess.epd" chess "$n"
  [ -s "$out/chess-sf.epd" ] || python3 engine-tests/scripts/sf_openings.py --count "$n" \
    --seed "$seed" > "$out/chess-sf.epd"
  for kind in chess chess-sf; do
    match "fsf11-$kind-10+0.1" chess "$games_fsf" "$out/$kind.epd" -engine cmd="$new" \
      name=lancer -engine cmd="$fsf_debian" name=fsf11 -each proto=uci tc=10+0.1
  done
fi
if has lighthouse; then
  echo "== lighthouse: against current Fairy-Stockfish"
  engine-tests/scripts/build-fsf.sh target/fsf >/dev/null
  for row in "10+0.1 $games_lh" "60+0.6 $games_lh60"; do
    read -r tc g <<<"$row"
    openings "$out/lighthouse.epd" lighthouse $(( (g + 1) / 2 ))
    match "fsf-lighthouse-$tc" lighthouse "$g" "$out/lighthouse.epd" -engine cmd="$new" \
      name=lancer -engine cmd="$fsf_current" name=fsf option.VariantPath="$ini" \
      -each proto=uci tc="$tc"
  done
fi
if has clocks; then
  echo "== clocks: lancer over UCI against lancer over XBoard, $games_clocks games a control"
  for v in chess lighthouse; do
    among "$v" "$variants" || continue
    openings "$out/$v.epd" "$v" $(( (games_clocks + 1) / 2 ))
    for tc in 60+0.6 40/60 60; do
      match "clocks-$v-${tc//\//m}" "$v" "$games_clocks" "$out/$v.epd" \
        -engine cmd="$new" name=lancer proto=uci -engine cmd="$new" name=lancer-xb \
        proto=xboard -each tc="$tc"
    done
  done
fi
if has wdl; then
  echo "== wdl: models against $games_wdl self-play games per variant at 1+0.01"
  # Each variant whose section of variants.ini gives a model of its own (the others
  # inherit one of these), with that model: "variant a0 a1 a2 b0 b1 b2".
  mapfile -t models < <(awk '/^\[/ {v = substr($1, 2); sub(/\]$/, "", v)}
    /^wdlModel *=/ {sub(/^[^=]*= */, ""); print v, $0}' variants.ini)
  for row in "${models[@]}"; do
    v=${row%% *} model=${row#* }
    openings "$out/$v.epd" "$v" $(( (games_wdl + 1) / 2 ))
    match "wdl-$v" "$v" "$games_wdl" "$out/$v.epd" -engine cmd="$new" name=a \
      -engine cmd="$new" name=b -each proto=uci tc=1+0.01
    # --cross: the refit and the model in use, each scored on games the refit was
    # not fitted to; a refit replaces the model only if it wins there.
    fit=$(python3 engine-tests/scripts/wdl_fit.py --model "$model" --cross "$out/wdl-$v.pgn")
    printf '%-28s in use: %s; refit: %s\n' "wdl-$v" \
      "$(grep -o 'log-loss [0-9.]*' <<<"$fit" | head -1)" "$(grep -o 'log-loss [0-9.]*' <<<"$fit" | tail -1)"
    printf '%-28s %s\n' "" "$(grep '^cross-validated' <<<"$fit")"
    printf '%-28s %s; %s\n' "" "$(grep 'PGN games' <<<"$fit" | cut -d, -f1,2)" "$(grep '^wdlModel' <<<"$fit")"
  done
fi
echo "== time"
# The WDL part's self-play has no engine named lancer.
timed=()
for f in "$out"/*.pgn; do
  [[ $(basename "$f") == wdl-* ]] || timed+=("$f")
done
if [ ${#timed[@]} -gt 0 ]; then
  python3 engine-tests/scripts/pgn_time.py lancer "${timed[@]}"
fi
