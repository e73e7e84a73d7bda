#!/usr/bin/env bash
# Self-play gain of each main search feature: lancer against itself with the feature
# switched off (UCI option Ablation), through `lancer match`, from balanced random
# openings (`lancer openings`), colours swapped per opening.
# Usage: ablation.sh [GAMES] [LIMIT] [VARIANTS...]
#   LIMIT: nodes per move (a number: node-limited games, fair on a loaded machine)
#          or a time control such as 2+0.05.
#   FEATURES (env): the features to switch off one at a time, default all of them
#   (the names the Ablation option knows, docs/uci.md "Ablation").
# Defaults: 200 games, 50000 nodes, fullcavalry eightpiece.
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-200}; limit=${2:-50000}; shift 2 || true
variants=${*:-fullcavalry eightpiece}
all_features="null lmr pruning aspiration rfp futility lmp histprune see razoring probcut singular checkext iir correction matedistance ttcut qsee qdrops killers countermove history piececorr"
features=${FEATURES:-$all_features}
cargo build --release --quiet
tmp=$(mktemp -d); bin=$tmp/lancer; cp target/release/lancer "$bin"
if [[ $limit == *[+/:.]* ]]; then tc=(tc="$limit"); else tc=(tc=inf nodes="$limit"); fi
for v in $variants; do
  "$bin" openings --variant "$v" --count $(( (games + 1) / 2 )) --plies 8 --seed 7 > "$tmp/$v.epd"
  for f in $features; do
    echo "== $v: full search vs no $f ($limit)"
    "$bin" match -engine cmd="$bin" name=full -engine cmd="$bin" name="no-$f" option.Ablation="$f" \
      -each proto=uci "${tc[@]}" -variant "$v" -games "$games" -repeat -concurrency 2 -recover \
      -openings file="$tmp/$v.epd" format=epd order=sequential \
      -draw movenumber=60 movecount=8 score=10 -maxmoves 200 | grep -E "^(Score|Elo|Finished match)" | tail -3
  done
done
rm -rf "$tmp"
