#!/bin/bash
# Issue 14's measure: the tuned evaluation against the hand-set one, same search.
# Builds a copy of this tree whose weights.ini has no tuned weights (so every variant
# plays the hand-set defaults of src/eval/params.rs), then plays lancer match
# at 1+0.01 in each variant from balanced openings, colours swapped per opening.
#
#   engine-tests/scripts/tuned_vs_handset.sh [GAMES] [OUT]
#
# Environment: VARIANTS (default chess fullcavalry eightpiece royalstandard lighthouse),
# CONCURRENCY (default 2), TC (default 1+0.01).
set -euo pipefail
games=${1:-60}
out=${2:-target/tuned-vs-handset}
variants=${VARIANTS:-chess fullcavalry eightpiece royalstandard lighthouse}
conc=${CONCURRENCY:-2}
tc=${TC:-1+0.01}
mkdir -p "$out"
cargo build --release --quiet
new=target/release/lancer
src="$out/handset-src"
rm -rf "$src"
mkdir -p "$src"
cp -r Cargo.toml Cargo.lock src variants.ini engine-tests "$src/"
[ -d xboard ] && cp -r xboard "$src/"
{
  echo "# hand-set weights only"
  for v in chess fullcavalry eightpiece royalstandard lighthouse; do echo "[$v]"; done
} > "$src/src/eval/weights.ini"
cargo build --release --quiet --manifest-path "$src/Cargo.toml" --target-dir "$out/handset-target"
old="$out/handset-target/release/lancer"
echo "== tuned $(git rev-parse --short HEAD) vs hand-set weights, $tc, $games games per variant"
for v in $variants; do
  [ -s "$out/$v.epd" ] || "$new" openings --variant "$v" --count $(( (games + 1) / 2 )) \
    --plies 8 --seed 14 > "$out/$v.epd"
  "$new" match -engine cmd="$new" name=tuned -engine cmd="$old" name=handset \
    -each proto=uci tc="$tc" -variant "$v" -games "$games" -repeat -concurrency "$conc" \
    -openings file="$out/$v.epd" format=epd order=sequential \
    -pgnout "$out/$v.pgn" > "$out/$v.log" 2>&1 || true
  printf '%-14s %s\n' "$v" "$(grep -E '^Score of' "$out/$v.log" | tail -1)"
  printf '%-14s %s\n' "" "$(grep -E '^Elo difference' "$out/$v.log" | tail -1)"
done
