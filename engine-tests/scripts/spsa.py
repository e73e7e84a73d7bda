#!/usr/bin/env python3
"""SPSA tuning of lancer's search parameters in one variant, by games of `lancer
match` between two copies of one build: each iteration perturbs every tuned
parameter by +c or -c at random (c shrinking as the run goes on), plays PAIRS pairs
of games (colours swapped) between the two sides, and moves each parameter towards
the side that scored more. The schedule is OpenBench's and fishtest's (docs/testing.md,
"Tuning the search's parameters"): c_k = c / k^0.101, a_k = a / (A + k)^0.602, A =
N / 10, with c and a made from each parameter's C_END (its step at the end) and
R_END (0.002 unless given). Parameters are integers: a perturbed value is rounded at
random, up with the chance of its fraction, so that steps below one still count.

  engine-tests/scripts/spsa.py --variant chess --tc 1+0.01 --iterations 500 \\
      --out spsa-chess lmr_base lmr_div futility_margin:8

A parameter is NAME, NAME:C_END or NAME:C_END:START; it starts from the variant's
value (`lancer params --variant V`) and stays in its range. The run appends one line
an iteration to OUT/spsa.csv and goes on from its last line when started again with
the same arguments; at the end (and with --report) it prints the values as a
variants.ini `searchParams` line. Openings: OUT/openings.epd, written once by
`lancer openings --variant V --count 2000 --plies 8 --seed SEED` unless --openings
names a file, each iteration taking the next PAIRS of them.

--self-test runs the same arithmetic on a made-up match (a logistic score of the
distance to known best values) and fails unless the run ends near them.
"""
import argparse
import csv
import math
import os
import random
import re
import subprocess
import sys

ALPHA = 0.602
GAMMA = 0.101


class Param:
    """One tuned parameter: its range, its value and the schedule's constants."""

    def __init__(self, name, lo, hi, value, c_end, r_end, iterations):
        self.name, self.lo, self.hi, self.value = name, lo, hi, float(value)
        big_a = iterations / 10.0
        self.c = c_end * iterations**GAMMA
        self.a = r_end * c_end**2 * (big_a + iterations) ** ALPHA
        self.big_a = big_a

    def ck(self, k):
        return self.c / k**GAMMA

    def ak(self, k):
        return self.a / (self.big_a + k) ** ALPHA

    def clamp(self, v):
        return min(max(v, self.lo), self.hi)


def stochastic_round(v, rng):
    """v rounded up with the chance of its fraction, down otherwise."""
    f = math.floor(v)
    return int(f) + (1 if rng.random() < v - f else 0)


def iteration(params, k, rng, play):
    """One SPSA step: perturb, play, move. `play(plus, minus, k)` gives (wins, losses,
    draws) of the side with `plus`; returns that result."""
    deltas = [rng.choice((-1, 1)) for _ in params]
    plus, minus = {}, {}
    for p, d in zip(params, deltas):
        c = p.ck(k)
        plus[p.name] = stochastic_round(p.clamp(p.value + c * d), rng)
        minus[p.name] = stochastic_round(p.clamp(p.value - c * d), rng)
    w, l, dr = play(plus, minus, k)
    for p, d in zip(params, deltas):
        p.value = p.clamp(p.value + p.ak(k) * (w - l) * d / p.ck(k))
    return w, l, dr


def lancer_params(lancer, variant):
    """name -> (value, lo, hi) from `lancer params --variant V`."""
    try:
        r = subprocess.run([lancer, "params", "--variant", variant], capture_output=True, text=True)
    except OSError as e:
        sys.exit(f"cannot run {lancer}: {e}")
    if r.returncode != 0:
        sys.exit(f"{lancer} params --variant {variant}: {r.stderr.strip()}")
    out = r.stdout
    table = {}
    for line in out.splitlines():
        m = re.match(r"(\w+)\s+(-?\d+)\s+(-?\d+)\.\.(-?\d+)\s", line)
        if m:
            table[m.group(1)] = tuple(int(x) for x in m.group(2, 3, 4))
    return table


def parse_spec(spec, table, r_end, iterations):
    parts = spec.split(":")
    name = parts[0]
    if name not in table:
        sys.exit(f"unknown search parameter '{name}' (see `lancer params`)")
    value, lo, hi = table[name]
    try:
        c_end = float(parts[1]) if len(parts) > 1 and parts[1] else max(0.5, (hi - lo) / 20.0)
        if len(parts) > 2:
            value = int(parts[2])
    except ValueError:
        sys.exit(f"bad parameter '{spec}': NAME, NAME:C_END or NAME:C_END:START")
    if len(parts) > 3 or c_end <= 0 or not lo <= value <= hi:
        sys.exit(f"bad parameter '{spec}': C_END > 0 and START within {lo}..{hi}")
    return Param(name, lo, hi, value, c_end, r_end, iterations)


def params_text(values):
    return " ".join(f"{n}={v}" for n, v in values.items())


def match_player(a, openings, count):
    """The `play` of `iteration` for real games of `lancer match`."""

    def play(plus, minus, k):
        # Iteration k's openings follow iteration k - 1's, also in a resumed run.
        start = (k - 1) * a.pairs % count + 1
        limit = [f"tc={a.tc}"] if a.nodes is None else ["tc=inf", f"nodes={a.nodes}"]
        cmd = [
            a.lancer, "match",
            "-engine", f"cmd={a.lancer}", "name=plus", f"option.SearchParams={params_text(plus)}",
            "-engine", f"cmd={a.lancer}", "name=minus", f"option.SearchParams={params_text(minus)}",
            "-each", "proto=uci", *limit,
            "-variant", a.variant,
            "-openings", f"file={openings}", "format=epd", "order=sequential", f"start={start}",
            "-games", "2", "-rounds", str(a.pairs), "-repeat",
            "-concurrency", str(a.concurrency),
        ]  # fmt: skip
        r = subprocess.run(cmd, capture_output=True, text=True)
        m = re.findall(r"Score of plus vs minus: (\d+) - (\d+) - (\d+)", r.stdout)
        if r.returncode != 0 or not m:
            sys.exit(f"lancer match failed ({r.returncode}):\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
        w, l, d = (int(x) for x in m[-1])
        return w, l, d

    return play


def self_test():
    """SPSA on a made-up match whose score is a logistic of the distance to known
    best values; fails unless every parameter ends within its tolerance of them."""
    rng = random.Random(7)
    best = {"x": 140, "y": 40, "z": 6}
    specs = {"x": (100, 0, 300, 10.0), "y": (80, 0, 200, 6.0), "z": (3, 1, 10, 0.6)}
    n = 3000
    params = [Param(k, lo, hi, v, c, 0.002, n) for k, (v, lo, hi, c) in specs.items()]
    scale = {"x": 60.0, "y": 40.0, "z": 3.0}

    def strength(vals):
        return -sum(((vals[k] - best[k]) / scale[k]) ** 2 for k in best)

    def play(plus, minus, _k):
        p = 1 / (1 + math.exp(-(strength(plus) - strength(minus)) * 4))
        w = l = d = 0
        for _ in range(4):
            u = rng.random()
            if u < 0.3:
                d += 1
            elif u < 0.3 + 0.7 * p:
                w += 1
            else:
                l += 1
        return w, l, d

    for k in range(1, n + 1):
        iteration(params, k, rng, play)
    ok = True
    for p in params:
        tol = scale[p.name] / 3
        good = abs(p.value - best[p.name]) <= tol
        ok &= good
        print(f"{p.name}: {p.value:.1f} (best {best[p.name]}, within {tol:.1f}: {good})")
    print("self-test " + ("passed" if ok else "FAILED"))
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("params", nargs="*", help="NAME[:C_END[:START]]")
    ap.add_argument("--lancer", default="target/release/lancer")
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--tc", default="1+0.01", help="time control of the games (as -each tc=)")
    ap.add_argument("--nodes", type=int, help="nodes a move instead of a clock")
    ap.add_argument("--iterations", type=int, default=500)
    ap.add_argument("--pairs", type=int, default=2, help="pairs of games an iteration")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--r-end", type=float, default=0.002)
    ap.add_argument("--seed", type=int, default=1, help="of the perturbations and the openings")
    ap.add_argument("--openings", help="an EPD file instead of OUT/openings.epd")
    ap.add_argument("--out", help="directory of spsa.csv (and openings.epd)")
    ap.add_argument("--report", action="store_true", help="print the values reached and stop")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not a.params or not a.out:
        ap.error("give the parameters to tune and --out")
    if a.iterations < 1 or a.pairs < 1 or a.concurrency < 1:
        ap.error("--iterations, --pairs and --concurrency must be at least 1")
    table = lancer_params(a.lancer, a.variant)
    params = [parse_spec(s, table, a.r_end, a.iterations) for s in a.params]
    os.makedirs(a.out, exist_ok=True)
    log = os.path.join(a.out, "spsa.csv")
    header = ["iteration", "wins", "losses", "draws"] + [p.name for p in params]
    done = 0
    if os.path.exists(log):
        with open(log) as f:
            rows = list(csv.reader(f))
        if rows and rows[0] != header:
            sys.exit(f"{log} tunes other parameters: {rows[0][4:]}")
        if len(rows) > 1:
            done = int(rows[-1][0])
            for p, v in zip(params, rows[-1][4:]):
                p.value = float(v)
    else:
        with open(log, "w", newline="") as f:
            csv.writer(f, lineterminator="\n").writerow(header)
    if a.report or done >= a.iterations:
        print(f"after {done} iterations:")
        print("searchParams = " + params_text({p.name: round(p.value) for p in params}))
        return 0
    openings = a.openings
    if openings is None:
        openings = os.path.join(a.out, "openings.epd")
        if not os.path.exists(openings):
            epd = subprocess.run(
                [a.lancer, "openings", "--variant", a.variant, "--count", "2000",
                 "--plies", "8", "--seed", str(a.seed)],
                capture_output=True, text=True, check=True,
            ).stdout  # fmt: skip
            with open(openings, "w") as f:
                f.write(epd)
    with open(openings) as f:
        count = sum(1 for line in f if line.strip())
    if count == 0:
        sys.exit(f"no openings in {openings}")
    play = match_player(a, openings, count)
    for k in range(done + 1, a.iterations + 1):
        # Iteration k's draws come from (seed, k): a resumed run draws what an
        # unbroken one would have.
        rng = random.Random(a.seed * 1_000_003 + k)
        w, l, d = iteration(params, k, rng, play)
        with open(log, "a", newline="") as f:
            row = [k, w, l, d] + [f"{p.value:.3f}" for p in params]
            csv.writer(f, lineterminator="\n").writerow(row)
        if k % 10 == 0 or k == a.iterations:
            vals = " ".join(f"{p.name}={p.value:.1f}" for p in params)
            print(f"{k}/{a.iterations}: {vals}", flush=True)
    print("searchParams = " + params_text({p.name: round(p.value) for p in params}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
