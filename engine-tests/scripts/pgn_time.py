#!/usr/bin/env python3
"""Time use in `lancer match` PGNs (cutechess's move comments `{+0.26/13 0.63s}`).

Usage: pgn_time.py ENGINE FILE.pgn...

For every file: ENGINE's average time a move over the first 40 moves of each game,
its average over all moves, and the games it lost on time (any engine's time losses
are counted too).
"""
import re
import sys

GAME = re.compile(r"\n(?=\[Event )")
TOKEN = re.compile(r"(\d+)\.(\.\.)?|\{([^}]*)\}|([^\s{}]+)")


def games(text):
    for g in GAME.split(text):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', g))
        if "White" in tags:
            yield tags, g[g.rfind("]") + 1:]


def main():
    engine, files = sys.argv[1], sys.argv[2:]
    all_losses = 0
    for path in files:
        first40 = []
        every = []
        losses = 0
        own_losses = 0
        n = 0
        for tags, body in games(open(path, encoding="utf-8").read()):
            n += 1
            move_no, side, last = 0, 0, None
            for num, dots, comment, move in TOKEN.findall(body):
                if num:
                    move_no, side = int(num), 1 if dots else 0
                elif move:
                    if move in ("1-0", "0-1", "1/2-1/2", "*"):
                        continue
                    last = (move_no, side)
                    side ^= 1
                elif comment and last:
                    player = tags["White"] if last[1] == 0 else tags["Black"]
                    if "on time" in comment:
                        losses += 1
                        loser = comment.split(" loses on time")[0].split(", ")[-1]
                        if (loser == "White") == (tags["White"] == engine):
                            own_losses += 1
                    m = re.search(r"(\d+(?:\.\d+)?)s\b", comment)
                    if m and player == engine:
                        t = float(m.group(1))
                        every.append(t)
                        if last[0] <= 40:
                            first40.append(t)
        all_losses += losses
        avg = lambda xs: sum(xs) / len(xs) if xs else 0.0
        print(
            f"{path.split('/')[-1]:<32} {n:4} games  {engine}: {avg(first40):.3f} s/move "
            f"(moves 1-40, {len(first40)} moves), {avg(every):.3f} s/move overall; "
            f"time losses: {losses} ({engine}: {own_losses})"
        )
    print(f"time losses over all games: {all_losses}")


if __name__ == "__main__":
    main()
