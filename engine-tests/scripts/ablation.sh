#!/usr/bin/env bash
# Self-play gain of each main search feature: lancer against itself with the feature
# switched off (UCI option Ablation), through `lancer match`.
# Usage: ablation.sh [GAMES] [TC] [VARIANTS...]   (defaults: 40 games, 1+0.05, fullcavalry eightpiece)
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-40}; tc=${2:-1+0.05}; shift 2 || true
variants=${*:-fullcavalry eightpiece}
cargo build --release --quiet
bin=$(mktemp -d)/lancer; cp target/release/lancer "$bin"
for v in $variants; do
  for f in null lmr pruning; do
    echo "== $v: full search vs no $f"
    "$bin" match -engine cmd="$bin" name=full -engine cmd="$bin" name="no-$f" option.Ablation="$f" \
      -each proto=uci tc="$tc" -variant "$v" -games "$games" -repeat -concurrency 2 -recover \
      -draw movenumber=60 movecount=8 score=10 -maxmoves 200 | grep -E "^(Score|Elo|Finished match)" | tail -3
  done
done
