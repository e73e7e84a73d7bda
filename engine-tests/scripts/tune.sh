#!/bin/sh
# Regenerates the evaluation's weights (src/eval/weights.ini) from the data of
# datagen.sh (issue 14): each variant with files DIR/<variant>.*.data (or .txt) is tuned from the
# hand-set weights, and its section of the file is replaced. Rebuild afterwards.
#
#   engine-tests/scripts/tune.sh DIR [EPOCHS]
#
# Environment: LANCER (the binary, default target/release/lancer), VARIANTS (default
# chess fullcavalry eightpiece royalstandard lighthouse), TUNE_ARGS (more options for
# `lancer tune`, e.g. "--reg 0.0001"). The target is half the game result, half the
# search score (--lambda 0.5): it beat results alone in Full Cavalry and Royal Standard.
# K, the sigmoid's scale, is fitted to the weights the file holds before the run.
set -eu
dir=${1:?usage: tune.sh DIR [EPOCHS]}
epochs=${2:-1000}
lancer=${LANCER:-target/release/lancer}
variants=${VARIANTS:-chess fullcavalry eightpiece royalstandard lighthouse}
for v in $variants; do
    set --
    for f in "$dir/$v".*.data "$dir/$v".*.txt; do [ -e "$f" ] && set -- "$@" "$f"; done
    [ $# -gt 0 ] || { echo "tune.sh: no data for $v in $dir" >&2; continue; }
    # K is fitted to the weights the file holds now, not to the hand-set ones: the
    # search's margins were set on that scale, and where the hand-set evaluation
    # predicts results poorly (Royal Standard, Lighthouse) its K would sink to the
    # floor and every weight would grow to make up for it.
    k=$("$lancer" tune --variant "$v" --epochs 0 --lambda 0.5 --dry-run "$@" 2>&1 >/dev/null |
        sed -n 's/^K = \([0-9.e-]*\) per centipawn$/\1/p')
    [ -n "$k" ] || { echo "tune.sh: no K for $v" >&2; exit 1; }
    # shellcheck disable=SC2086
    "$lancer" tune --variant "$v" --from-hand-set --k "$k" --epochs "$epochs" --report 50 \
        --lambda 0.5 ${TUNE_ARGS:-} "$@"
done
