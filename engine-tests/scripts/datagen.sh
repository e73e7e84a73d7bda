#!/bin/sh
# Self-play data for `lancer tune` (issue 14), in chunks: round after round, each
# variant plays GAMES games with the round's seed into DIR/<variant>.<round>.data, until
# MINUTES have passed. An existing chunk is kept, so a later run with a longer
# deadline adds to the data instead of repeating it.
#
#   engine-tests/scripts/datagen.sh DIR MINUTES [GAMES] [NODES]
#
# Environment: LANCER (the binary, default target/release/lancer), VARIANTS (default
# chess fullcavalry eightpiece royalstandard lighthouse), THREADS (default 2), SEED0
# (added to the round number to make the seed, default 0: a new run with another
# engine can draw other openings).
set -eu
dir=${1:?usage: datagen.sh DIR MINUTES [GAMES] [NODES]}
minutes=${2:?usage: datagen.sh DIR MINUTES [GAMES] [NODES]}
games=${3:-200}
nodes=${4:-2500}
lancer=${LANCER:-target/release/lancer}
variants=${VARIANTS:-chess fullcavalry eightpiece royalstandard lighthouse}
threads=${THREADS:-2}
seed0=${SEED0:-0}
mkdir -p "$dir"
end=$(( $(date +%s) + minutes * 60 ))
round=1
while [ "$(date +%s)" -lt "$end" ]; do
    for v in $variants; do
        f="$dir/$v.$round.data"
        [ -s "$f" ] && continue
        [ "$(date +%s)" -ge "$end" ] && break
        # A killed chunk (.part) goes on where it stopped.
        "$lancer" datagen --variant "$v" --games "$games" --nodes "$nodes" \
            --seed "$((seed0 + round))" --threads "$threads" -o "$f.part"
        mv "$f.part" "$f"
    done
    round=$((round + 1))
done
ls -l "$dir"/*.data | awk '{s += $5} END {print s " bytes of data"}'
