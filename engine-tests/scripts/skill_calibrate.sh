#!/usr/bin/env bash
# Calibrates lancer's strength levels (Skill Level, UCI_Elo; src/search/skill.rs) in
# chess at 10+0.1 against the two anchors of the scale, Debian's Fairy-Max and
# Sjaak II, and ties full strength and level 0 in with self-play:
#   1. each anchor against each of the levels LEVELS;
#   2. full strength against the highest level, and the lowest level against level 0;
#   3. the anchors against each other.
# Each line of the summary is a `Score of A vs B` and its Elo difference; skill.rs's
# ELO_SCALE is fitted from them (docs/uci.md gives the anchors' ratings).
#
# Usage: skill_calibrate.sh [OUTDIR]
# Environment: LEVELS (default "4 8 12 16"), GAMES (per pair, default 20), TC (default
#   10+0.1), CONCURRENCY (default 2), PARTS (default "anchors ends pair").
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-target/skill}
levels=${LEVELS:-4 8 12 16}
games=${GAMES:-20}
tc=${TC:-10+0.1}
conc=${CONCURRENCY:-2}
parts=${PARTS:-anchors ends pair}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cargo build --release --quiet
me="$out/lancer"
cp target/release/lancer "$me"
fairymax=/usr/games/fairymax
sjaakii=/usr/games/sjaakii
[ -s "$out/chess.epd" ] || "$me" openings --variant chess --count 100 --plies 8 --seed 17 > "$out/chess.epd"

run() { # NAME ENGINE-ARGS... : one match of two engines; prints its score and Elo lines
  local name=$1
  shift
  "$me" match "$@" -variant chess -games "$games" -repeat -concurrency "$conc" -each tc="$tc" \
    -openings file="$out/chess.epd" format=epd order=random \
    -pgnout "$out/$name.pgn" > "$out/$name.log" 2>&1 || true
  printf '%-22s %s\n' "$name" "$(grep -E '^Score of' "$out/$name.log" | tail -1)"
  printf '%-22s %s\n' "" "$(grep -E '^Elo difference' "$out/$name.log" | tail -1)"
}

level() { # LEVEL : the engine arguments of lancer at that level (20: full strength)
  if [ "$1" = 20 ]; then
    printf '%s\n' -engine "cmd=$me" name=full proto=uci
  else
    printf '%s\n' -engine "cmd=$me" "name=L$1" proto=uci "option.Skill Level=$1"
  fi
}

echo "== lancer $(git rev-parse --short HEAD), chess at $tc, $games games a pair, $(date -u +%FT%TZ)"
if [[ " $parts " == *" anchors "* ]]; then
  for anchor in fairymax sjaakii; do
    for l in $levels; do
      mapfile -t e < <(level "$l")
      run "$anchor-L$l" -engine cmd="/usr/games/$anchor" name="$anchor" proto=xboard "${e[@]}"
    done
  done
fi
if [[ " $parts " == *" ends "* ]]; then
  hi=$(echo "$levels" | tr ' ' '\n' | sort -n | tail -1)
  lo=$(echo "$levels" | tr ' ' '\n' | sort -n | head -1)
  mapfile -t a < <(level 20)
  mapfile -t b < <(level "$hi")
  run "full-L$hi" "${a[@]}" "${b[@]}"
  mapfile -t a < <(level "$lo")
  mapfile -t b < <(level 0)
  run "L$lo-L0" "${a[@]}" "${b[@]}"
fi
if [[ " $parts " == *" pair "* ]]; then
  run fairymax-sjaakii -engine cmd="$fairymax" name=fairymax proto=xboard \
    -engine cmd="$sjaakii" name=sjaakii proto=xboard
fi
