#!/usr/bin/env python3
"""Real-GUI test: Debian's XBoard 4.9.1 hosts lancer under a private Xvfb display.

1. lancer plays itself one fast game in every variant (TwoMachines mode, legality
   testing off, the arrow images from xboard/pieces). From XBoard's debug log and
   saved PGN it checks: the game ended with a result, no `Illegal move`, no `Error`,
   no engine crash. A screenshot per variant goes to OUTDIR/<variant>.png.
   Then a two-game match (-matchGames) in each random-setup variant, where XBoard
   starts games differently: the same checks, and one setup announced per game.
2. A human move in Full Cavalry driven with xdotool: a click lifts a lancer (XBoard
   sends `lift`, lancer answers `highlight`), a press on a magenta target (`put`,
   answered by `choice`), a drag backwards sweeps through the facings, the release
   sends the move with the chosen facing; lancer must accept it and reply.

Usage: run.py [--lancer PATH] [--pieces DIR] [--out DIR] [--variants a,b,...]
       [--matches a,b,...] [--no-human]
Exit status 0 = every check passed; the reasons for a failure are printed.
Needs /usr/games/xboard, Xvfb, import (imagemagick) and xdotool.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
XBOARD = "/usr/games/xboard"

# lancer's variant name -> XBoard's
VARIANTS = {
    "chess": "normal",
    "chess960": "fischerandom",
    "fullcavalry": "fullcavalry",
    "eightpiece": "eightpiece",
    "eightpiecerandom": "eightpiecerandom",
    "royalstandard": "royalstandard",
    "lighthouse": "lighthouse",
}

# A game ends when the PGN is saved; XBoard adjudicates a draw after this many
# moves (a safety cap: the time control below ends nearly every game earlier).
MOVE_CAP = 120
GAME_TIMEOUT = 75  # seconds of wall clock per game, GUI start included

failures = []

# Debug-log lines start with a time stamp in ms: "260 >first : new".
P = r"^(?:\d+ )?"


def fail(msg):
    print("FAIL: " + msg, flush=True)
    failures.append(msg)


def free_display():
    for n in range(91, 400):
        if not os.path.exists(f"/tmp/.X{n}-lock") and not os.path.exists(
            f"/tmp/.X11-unix/X{n}"
        ):
            return n
    raise RuntimeError("no free X display number")


class Display:
    """A private Xvfb server, killed (by its pid) on exit."""

    def __init__(self):
        self.proc = None
        for _ in range(5):
            n = free_display()
            p = subprocess.Popen(
                ["Xvfb", f":{n}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            for _ in range(100):
                if os.path.exists(f"/tmp/.X11-unix/X{n}") or p.poll() is not None:
                    break
                time.sleep(0.05)
            if p.poll() is None and os.path.exists(f"/tmp/.X11-unix/X{n}"):
                self.proc, self.name = p, f":{n}"
                return
            kill(p)  # lost a race for that number; try the next free one
        raise RuntimeError("could not start Xvfb")

    def close(self):
        kill(self.proc)


def kill(p):
    """Ends a process we started, with its process group (the engines XBoard ran)."""
    if p is None or p.poll() is not None:
        return
    try:
        os.killpg(p.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        p.wait(5)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait(5)


def xboard(env, args, log):
    return subprocess.Popen(
        [XBOARD] + args,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def common_args(lancer, pieces, variant, work, tag):
    return [
        "-fcp", f"{lancer} xboard",
        "-fd", work,
        "-variant", variant,
        "-testLegality", "false",
        "-testClaims", "false",
        "-showTargetSquares", "true",
        "-sweepPromotions", "true",
        "-highlightDragging", "true",
        "-pieceImageDirectory", pieces,
        "-boardSize", "Medium",
        "-showCoords", "true",
        "-popupExitMessage", "false",
        "-popupMoveErrors", "false",
        "-startupMessage", "",
        "-saveSettingsOnExit", "false",
        "-debug",
        "-nameOfDebugFile", os.path.join(work, f"{tag}.debug"),
        "-saveGameFile", os.path.join(work, f"{tag}.pgn"),
    ]


def screenshot(env, path):
    r = subprocess.run(
        ["import", "-window", "root", "-crop", "600x720+0+0", "+repage", path],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=30,
    )
    if r.returncode != 0:
        fail(f"screenshot {path}: {r.stderr.decode(errors='replace').strip()}")


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except FileNotFoundError:
        return ""
    # XBoard logs each write to an engine separately, so one command may be split:
    # "3456 >first : usermove 3456 >first : c2c4". Glue such pieces back together.
    return re.sub(r"(?<=[^\n\d])\d+ >(?:first|second) *: ", "", text)


ENGINE_MOVE = re.compile(P + r"<(?:first|second) *: *move ", re.M)
RESULT = re.compile(r'\[Result "(1-0|0-1|1/2-1/2)"\]')
BAD = re.compile(
    r"Illegal move|^(?:\d+ )?<(first|second) *: *Error|tellusererror|"
    r"exited unexpectedly|terminated|panicked|Engine did not send|Forfeit|"
    r"[Ii]nvalid move|False .*claim",
    re.M,
)


def check_log(tag, debug):
    for m in BAD.finditer(debug):
        start = debug.rfind("\n", 0, m.start()) + 1
        end = debug.find("\n", m.end())
        fail(f"{tag}: debug log: {debug[start:end if end >= 0 else None]}")


def play_variant(env, lancer, pieces, out, work, name):
    xb_name = VARIANTS[name]
    tag = name
    args = common_args(lancer, pieces, xb_name, work, tag) + [
        "-scp", f"{lancer} xboard",
        "-sd", work,
        "-mode", "TwoMachines",
        # 10 s + 0.1 s per move each: a game of a few dozen moves in about 30 s.
        "-tc", "0:10",
        "-inc", "0.1",
        "-adjudicateDrawMoves", str(MOVE_CAP),
    ]
    t0 = time.time()
    with open(os.path.join(work, f"{tag}.out"), "w") as log:
        p = xboard(env, args, log)
        pgn_path = os.path.join(work, f"{tag}.pgn")
        debug_path = os.path.join(work, f"{tag}.debug")
        pgn = ""
        early = False
        try:
            while time.time() - t0 < GAME_TIMEOUT:
                time.sleep(0.5)
                pgn = read(pgn_path)
                if RESULT.search(pgn) or p.poll() is not None:
                    break
                # A second screenshot after ten moves, with most pieces still on.
                if not early and len(ENGINE_MOVE.findall(read(debug_path))) >= 10:
                    screenshot(env, os.path.join(out, f"{name}-move10.png"))
                    early = True
            time.sleep(1.0)  # let the board redraw the final position
            if p.poll() is None:
                screenshot(env, os.path.join(out, f"{name}.png"))
        finally:
            kill(p)
    secs = time.time() - t0
    debug = read(os.path.join(work, f"{tag}.debug"))
    pgn = read(pgn_path)
    for f in (f"{tag}.debug", f"{tag}.pgn", f"{tag}.out"):
        if os.path.exists(os.path.join(work, f)):
            shutil.copy(os.path.join(work, f), os.path.join(out, f))
    r = RESULT.search(pgn)
    if not r:
        fail(f"{name}: no result in the saved PGN after {secs:.0f}s")
    check_log(name, debug)
    moves = len(ENGINE_MOVE.findall(debug))
    if moves < 4:
        fail(f"{name}: only {moves} engine moves in the debug log")
    # The first engine defined the variant; XBoard showed it with a setup line.
    if xb_name not in ("normal", "fischerandom") and not re.search(
        P + r"<first *: *setup \(", debug, re.M
    ):
        fail(f"{name}: no setup line from lancer")
    term = re.search(r'\[Termination "([^"]*)"\]|\{([^}]*)\} *(1-0|0-1|1/2-1/2)', pgn)
    why = (term.group(1) or term.group(2)) if term else "?"
    print(
        f"{name}: {r.group(1) if r else 'no result'} {{{why}}}, {moves} moves, {secs:.0f}s",
        flush=True,
    )


# Match mode (-matchGames) runs the game start differently: XBoard sends the first
# engine `new` + `variant` twice before the first answer, keeps the first `setup` it
# receives for a game and relays it to the second engine with `setboard`.
MATCH_VARIANTS = ("eightpiecerandom", "chess960")
MATCH_GAMES = 2
SETUP = re.compile(P + r"<first *: *setup \(\S+\) \S+ (\S+)", re.M)


def play_match(env, lancer, pieces, out, work, name):
    """A TwoMachines match of MATCH_GAMES games: every game ends with a result, no
    `Illegal move`, and in each game lancer announced one setup only (the one XBoard
    keeps and relays), so both engines play the same position."""
    xb_name = VARIANTS[name]
    tag = f"{name}-match"
    args = common_args(lancer, pieces, xb_name, work, tag) + [
        "-scp", f"{lancer} xboard",
        "-sd", work,
        "-mode", "TwoMachines",
        "-matchGames", str(MATCH_GAMES),
        "-tc", "0:06",
        "-inc", "0.05",
        "-adjudicateDrawMoves", "80",
    ]
    t0 = time.time()
    pgn_path = os.path.join(work, f"{tag}.pgn")
    with open(os.path.join(work, f"{tag}.out"), "w") as log:
        p = xboard(env, args, log)
        try:
            # XBoard quits by itself once the match is over.
            while time.time() - t0 < GAME_TIMEOUT * MATCH_GAMES and p.poll() is None:
                time.sleep(0.5)
        finally:
            kill(p)
    secs = time.time() - t0
    debug = read(os.path.join(work, f"{tag}.debug"))
    pgn = read(pgn_path)
    for f in (f"{tag}.debug", f"{tag}.pgn", f"{tag}.out"):
        if os.path.exists(os.path.join(work, f)):
            shutil.copy(os.path.join(work, f), os.path.join(out, f))
    results = RESULT.findall(pgn)
    if len(results) != MATCH_GAMES:
        fail(f"{tag}: {len(results)} of {MATCH_GAMES} games have a result after {secs:.0f}s")
    check_log(tag, debug)
    # One game per Reset: each may announce its setup more than once, never two.
    for n, game in enumerate(re.split(r"^Reset\(", debug, flags=re.M)[1:], 1):
        setups = set(SETUP.findall(game))
        if len(setups) > 1:
            fail(f"{tag}: part {n} of the debug log announces {len(setups)} setups: {sorted(setups)}")
    print(f"{tag}: {' '.join(results)}, {secs:.0f}s", flush=True)


def xdo(env, *args):
    subprocess.run(["xdotool"] + [str(a) for a in args], env=env, check=True, timeout=20)


# With -boardSize Medium and no window manager XBoard's board has 65 px squares
# and a8's centre at (35, 135) on the root window (checked on the screenshots).
SQUARE = 65


def centre(sq):
    f = ord(sq[0]) - ord("a")
    r = int(sq[1:])
    return 35 + SQUARE * f, 135 + SQUARE * (8 - r)


def human_move(env, lancer, pieces, out, work):
    """8-Piece Chess, the user plays White against lancer: first c2c4 by two clicks,
    then the b1 lancer (facing NE) to d3, turned by sweep-selection."""
    tag = "human"
    args = common_args(lancer, pieces, "eightpiece", work, tag) + [
        "-tc", "0:30", "-inc", "0.1",
    ]
    debug_path = os.path.join(work, f"{tag}.debug")
    t0 = time.time()

    def wait_for(pattern, what, timeout=20):
        rx = re.compile(pattern, re.M)
        end = time.time() + timeout
        while time.time() < end:
            m = rx.search(read(debug_path))
            if m:
                return m
            time.sleep(0.2)
        fail(f"human move: no {what} in the debug log ({pattern})")
        return None

    def click(sq):
        x, y = centre(sq)
        xdo(env, "mousemove", x, y, "click", "1")

    def drive():
        if not wait_for(P + r"<first *: *pong", "engine start"):
            return
        time.sleep(2.0)
        screenshot(env, os.path.join(out, "human-start.png"))
        # 1. c2c4 by click-click: lift c2 -> highlight, then the target.
        click("c2")
        if not wait_for(P + r">first *: *lift c2", "lift c2"):
            return
        wait_for(P + r">first *: *lift c2\s*\n(?:.*\n)*?(?:\d+ )?<first *: *highlight \S+",
                 "highlight answer to lift c2")
        time.sleep(0.5)
        click("c4")
        if not wait_for(P + r">first *: *usermove c2c4", "usermove c2c4"):
            return
        if not wait_for(P + r">first *: *usermove c2c4\s*\n(?:.*\n)*?(?:\d+ )?<first *: *move \S+",
                        "engine reply to c2c4", 30):
            return
        time.sleep(1.0)
        # 2. Click the lancer on b1: XBoard sends `lift b1`, lancer answers
        # `highlight` with magenta targets (the facing may change there).
        click("b1")
        if not wait_for(P + r">first *: *lift b1", "lift b1"):
            return
        wait_for(P + r">first *: *lift b1\s*\n(?:.*\n)*?(?:\d+ )?<first *: *highlight \S*M",
                 "magenta highlight answer to lift b1")
        time.sleep(0.5)
        # Press on d3: XBoard sends `put d3`, lancer answers `choice`.
        x, y = centre("d3")
        xdo(env, "mousemove", x, y, "mousedown", "1")
        if not wait_for(P + r">first *: *put d3\s*\n(?:.*\n)*?(?:\d+ )?<first *: *choice [A-Z]+",
                        "choice answer to put d3"):
            xdo(env, "mouseup", "1")
            return
        # Drag backwards (down for White): sweep through the offered facings.
        for k in range(1, 4):
            time.sleep(0.4)
            xdo(env, "mousemove", x, y + k * SQUARE // 2)
        time.sleep(0.4)
        screenshot(env, os.path.join(out, "human-sweep.png"))
        xdo(env, "mouseup", "1")
        m = wait_for(P + r">first *: *usermove (b1d3[a-z]?)\s*$", "usermove b1d3")
        if m:
            print(f"human move: XBoard sent usermove {m.group(1)}", flush=True)
            if m.group(1) == "b1d3":
                fail("human move: the sweep did not change the facing")
        wait_for(P + r">first *: *usermove b1d3\S*\s*\n(?:.*\n)*?(?:\d+ )?<first *: *move \S+",
                 "engine reply after the lancer move", 30)
        time.sleep(1.0)
        screenshot(env, os.path.join(out, "human.png"))

    with open(os.path.join(work, f"{tag}.out"), "w") as log:
        p = xboard(env, args, log)
        try:
            drive()
        finally:
            kill(p)
    debug = read(debug_path)
    for f in (f"{tag}.debug", f"{tag}.out"):
        if os.path.exists(os.path.join(work, f)):
            shutil.copy(os.path.join(work, f), os.path.join(out, f))
    check_log("human move", debug)
    for l in debug.splitlines():
        if re.match(P + r"[<>]first *: *(lift|put|highlight|choice|usermove|move) ", l):
            print("human move log: " + l.strip(), flush=True)
    print(f"human move: {time.time() - t0:.0f}s", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lancer", default=os.path.join(ROOT, "target", "release", "lancer"))
    ap.add_argument("--pieces", default=os.path.join(ROOT, "xboard", "pieces"))
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "xboard-gui"))
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--matches", default=",".join(MATCH_VARIANTS))
    ap.add_argument("--no-human", action="store_true")
    a = ap.parse_args()
    for tool in (XBOARD, shutil.which("Xvfb"), shutil.which("import"), shutil.which("xdotool")):
        if not tool or not os.path.exists(tool):
            print("missing tool; need xboard, Xvfb, imagemagick, xdotool", file=sys.stderr)
            return 2
    os.makedirs(a.out, exist_ok=True)
    lancer = os.path.abspath(a.lancer)
    pieces = os.path.abspath(a.pieces)
    t0 = time.time()
    # A SIGTERM (a test harness giving up) still runs the clean-up below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    disp = Display()
    work = tempfile.mkdtemp(prefix="lancer-xboard-gui-")
    env = dict(os.environ, DISPLAY=disp.name, HOME=work, LC_ALL="C")
    env["PATH"] = env.get("PATH", "") + ":/usr/games"
    try:
        print(f"xboard-gui: display {disp.name}, artifacts in {a.out}", flush=True)
        if not a.no_human:
            human_move(env, lancer, pieces, a.out, work)
        for name in filter(None, a.variants.split(",")):
            play_variant(env, lancer, pieces, a.out, work, name)
        for name in filter(None, a.matches.split(",")):
            play_match(env, lancer, pieces, a.out, work, name)
    finally:
        disp.close()
        shutil.rmtree(work, ignore_errors=True)
    print(f"xboard-gui: {time.time() - t0:.0f}s in total, {len(failures)} failure(s)", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
