#!/usr/bin/env python3
"""A scripted CECP engine for referee tests: it answers every command it does not
know (`post`, `option`, `memory`, `cores`, ...) with `Error (unknown command): ...`,
as many engines do, and moves a knight out and back (g1f3 f3g1 as White, g8f6 f6g8
as Black)."""
import sys

KNOWN = ("xboard", "protover", "new", "variant", "force", "level", "st", "sd",
         "time", "otim", "usermove", "go", "quit", "result", "setboard")
moves_seen = 0
mine = 0
white = True
for line in sys.stdin:
    cmd = line.strip()
    word = cmd.split(" ")[0] if cmd else ""
    if word == "protover":
        print("feature usermove=1 setboard=1 done=1", flush=True)
    elif word == "new":
        moves_seen, mine, white = 0, 0, True
    elif word == "usermove":
        moves_seen += 1
    elif word == "go":
        if mine == 0:
            white = moves_seen == 0
        route = ["g1f3", "f3g1"] if white else ["g8f6", "f6g8"]
        print("move " + route[mine % 2], flush=True)
        mine += 1
    elif word == "quit":
        break
    elif word not in KNOWN:
        print("Error (unknown command): " + cmd, flush=True)
