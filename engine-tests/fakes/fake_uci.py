#!/usr/bin/env python3
"""A scripted UCI engine for referee tests. Behaviour by argument:
illegal  - answers every go with an illegal move
hang     - never answers go
crash    - exits when asked to move
slow     - sleeps past its clock before answering
garbage  - answers with a non-move
limits [GO] - plays 1. e4 e5 only if the go line is GO (default
    "go depth 5 nodes 1234"), else an illegal move
say TEXT - answers every go with bestmove TEXT
sayinfo INFO TEXT - reports "info depth 1 INFO", then answers bestmove TEXT
cycle CP M1 M2 ... - reports score cp CP and plays its moves in turn, round and round
variantpath - knows UCI_Variant lighthouse only once option VariantPath is set (as
    Fairy-Stockfish); plays a2a3 in Lighthouse and e2e4 (illegal there) in chess
ponder - declares the Ponder option and moves a knight out and back (g1f3 f3g1 as
    White, g8f6 f6g8 as Black), naming the other side's knight move as its ponder
    move; `go ponder` is answered at ponderhit or stop
ponderwith TEXT - the same, always naming TEXT as the ponder move
ponderdeaf - as ponder, but never answers a `go ponder` (nor ponderhit or stop)
pondernooption - as ponder, without declaring the Ponder option"""
import sys, time

PONDER_MODES = ("ponder", "ponderwith", "ponderdeaf", "pondernooption")


def knight_move(plies):
    """The knight route's move at ply `plies` of a game from the start."""
    route = ["g1f3", "f3g1"] if plies % 2 == 0 else ["g8f6", "f6g8"]
    return route[(plies // 2) % 2]


def ponder_answer():
    played = len(position.split(" moves ")[1].split()) if " moves " in position else 0
    expected = sys.argv[2] if mode == "ponderwith" else knight_move(played + 1)
    return "bestmove %s ponder %s" % (knight_move(played), expected)


mode = sys.argv[1] if len(sys.argv) > 1 else "illegal"
position = ""
variant_path = False
variant = "chess"
pondering = False
for line in sys.stdin:
    cmd = line.strip()
    if cmd == "uci":
        print("id name fake-" + mode)
        if mode in PONDER_MODES and mode != "pondernooption":
            print("option name Ponder type check default false")
        print("uciok", flush=True)
    elif cmd in ("ponderhit", "stop"):
        if pondering and mode != "ponderdeaf":
            print(ponder_answer(), flush=True)
        pondering = False
    elif cmd == "isready":
        print("readyok", flush=True)
    elif cmd.startswith("setoption name VariantPath value "):
        variant_path = True
    elif cmd.startswith("setoption name UCI_Variant value "):
        v = cmd.split()[-1]
        if v == "lighthouse" and not variant_path:
            print("info string variant lighthouse unknown: chess kept", flush=True)
        else:
            variant = v
    elif cmd.startswith("position"):
        position = cmd
    elif cmd.startswith("go"):
        if mode in PONDER_MODES:
            if cmd.startswith("go ponder"):
                pondering = True
            else:
                print("info depth 1 score cp 0", flush=True)
                print(ponder_answer(), flush=True)
        elif mode == "limits":
            ok = cmd == (sys.argv[2] if len(sys.argv) > 2 else "go depth 5 nodes 1234")
            white = "moves" not in position
            print("bestmove " + (("e2e4" if white else "e7e5") if ok else "e2e5"), flush=True)
        elif mode == "cycle":
            played = len(position.split(" moves ")[1].split()) if " moves " in position else 0
            mine = sys.argv[3:]
            print("info depth 5 score cp " + sys.argv[2], flush=True)
            print("bestmove " + mine[(played // 2) % len(mine)], flush=True)
        elif mode == "say":
            print("bestmove " + sys.argv[2], flush=True)
        elif mode == "sayinfo":
            print("info depth 1 " + sys.argv[2], flush=True)
            print("bestmove " + sys.argv[3], flush=True)
        elif mode == "variantpath":
            white = "moves" not in position
            if variant == "lighthouse":
                print("bestmove " + ("a2a3" if white else "a7a6"), flush=True)
            else:
                print("bestmove " + ("e2e4" if white else "e7e5"), flush=True)
        elif mode == "illegal":
            print("bestmove e2e5", flush=True)
        elif mode == "hang":
            pass
        elif mode == "crash":
            sys.exit(3)
        elif mode == "slow":
            time.sleep(3)
            print("bestmove e2e4", flush=True)
        elif mode == "garbage":
            print("bestmove banana", flush=True)
    elif cmd == "quit":
        break
