#!/usr/bin/env python3
"""Every mate suite position (engine-tests/mates/*.epd) searched for a fixed time, as a
user would run it (`lancer analyse --movetime MS`): the mate must be found with the
exact score and a listed best move. Prints one line per miss and a total.
Usage: mates_timed.py [MS] [LANCER]   (defaults: 1000, target/release/lancer)"""
import glob, os, subprocess, sys, time

ms = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
lancer = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "target/release/lancer")
found = missed = 0
slowest = (0.0, "")
for path in sorted(glob.glob(os.path.join(root, "engine-tests/mates/*.epd"))):
    variant = os.path.basename(path)[:-4]
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fen, mate, bm = [p.strip() for p in line.split(";")[:3]]
        n = int(mate.split()[1])
        best = bm.split()[1:]
        t0 = time.time()
        out = subprocess.run([lancer, "analyse", "--variant", variant, "--fen", fen,
                              "--movetime", str(ms)], capture_output=True, text=True).stdout
        infos = [l for l in out.splitlines() if l.startswith("info depth")]
        last = infos[-1].split() if infos else []
        score = " ".join(last[last.index("score") + 1:last.index("score") + 3]) if last else ""
        move = out.strip().splitlines()[-1].split()[1] if out.strip() else ""
        # The first info line that shows the mate: how soon it was seen.
        seen = next((int(l.split()[l.split().index("time") + 1]) for l in infos
                     if f"score mate {n} " in l + " "), None)
        if score == f"mate {n}" and move in best:
            found += 1
            if seen is not None and seen >= slowest[0]:
                slowest = (seen, f"{variant} {fen}")
        else:
            missed += 1
            print(f"MISS {variant} {fen}: want mate {n} {best}, got {score} {move}")
print(f"{found} found, {missed} missed at {ms} ms a position; slowest seen at {slowest[0]} ms ({slowest[1]})")
sys.exit(1 if missed else 0)
