#!/usr/bin/env python3
"""The peer row of docs/alien-tiles.md for playing a goal (issue 30), measured
in one run: OR-tools CP-SAT (1 worker) beside `puzzlesat solve alien-tiles
--goal` (the default row/column minimisation), on the same random reachable
goals (the board a random click matrix reaches, fixed seed), both
whole-process wall time per goal for puzzlesat and CP-SAT's own wall time
(model built and solved in this process), both optima compared.

CP-SAT model: click counts x_ij in 0..c-1, cell (i, j) changes by
R_i + C_j - x_ij = goal_ij + c*k_ij with R, C the row and column sums and
k_ij an integer; minimise the sum of x.

Needs `pip install ortools` and a release build (cargo build --release).
Usage: python3 benches/peers/alien_play.py [LIMIT_S] [GOALS_PER_CELL]
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

try:
    from ortools.sat.python import cp_model
except ImportError:
    sys.exit("alien_play.py: OR-tools is missing: pip install ortools")

BIN = os.environ.get("PUZZLESAT", "target/release/puzzlesat")
LIMIT = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
GOALS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
CELLS = [(5, 4), (5, 6), (6, 5), (7, 3), (7, 4), (7, 6)]


def effect(x, n, c):
    rows = [sum(x[i]) for i in range(n)]
    cols = [sum(x[i][j] for i in range(n)) for j in range(n)]
    return [[(rows[i] + cols[j] - x[i][j]) % c for j in range(n)] for i in range(n)]


def cpsat(goal, n, c):
    m = cp_model.CpModel()
    x = [[m.NewIntVar(0, c - 1, f"x{i}{j}") for j in range(n)] for i in range(n)]
    for i in range(n):
        for j in range(n):
            k = m.NewIntVar(-c * n, 2 * c * n, f"k{i}{j}")
            m.Add(sum(x[i]) + sum(x[a][j] for a in range(n)) - x[i][j] == goal[i][j] + c * k)
    m.Minimize(sum(v for r in x for v in r))
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    s.parameters.max_time_in_seconds = LIMIT
    t = time.time()
    st = s.Solve(m)
    wall = time.time() - t
    if st == cp_model.OPTIMAL:
        return wall, int(s.ObjectiveValue())
    return wall, None


def ours(path, n, c):
    t = time.time()
    try:
        out = subprocess.run(
            [BIN, "solve", "alien-tiles", "-n", str(n), "-c", str(c), "--goal", path, "--json", "-q"],
            capture_output=True, text=True, timeout=LIMIT + 30,
        )
    except subprocess.TimeoutExpired:
        return LIMIT + 30, None
    wall = time.time() - t
    r = json.loads(out.stdout)
    return wall, (r["objective"] if r["status"] == "optimal" else None)


def main():
    if not os.access(BIN, os.X_OK):
        sys.exit(f"alien_play.py: {BIN} missing: cargo build --release")
    rng = random.Random(30)
    print(f"| board | goals | puzzlesat --goal (row/column), mean / max | CP-SAT 1 worker, mean / max | optima |")
    print("| --- | ---: | ---: | ---: | --- |")
    disagree = 0
    with tempfile.TemporaryDirectory() as d:
        for n, c in CELLS:
            ours_t, cp_t, verdict, compared = [], [], None, 0
            for g in range(GOALS):
                x = [[rng.randrange(c) for _ in range(n)] for _ in range(n)]
                goal = effect(x, n, c)
                path = os.path.join(d, f"g{n}{c}{g}.txt")
                with open(path, "w") as f:
                    f.write("\n".join(" ".join(map(str, r)) for r in goal) + "\n")
                ow, ov = ours(path, n, c)
                cw, cv = cpsat(goal, n, c)
                ours_t.append(ow)
                cp_t.append(cw if cv is not None else None)
                if ov is None:
                    verdict = "puzzlesat gave no optimum"
                elif cv is not None and cv != ov:
                    verdict = f"DISAGREE ({ov} against {cv})"
                    disagree += 1
                elif cv is not None:
                    compared += 1
            if verdict is None:
                verdict = (
                    f"agree on {compared} of {GOALS}" if compared
                    else "not compared (no CP-SAT optimum)"
                )
            done = [t for t in cp_t if t is not None]
            cp_cell = (
                f"{sum(done) / len(done):.3f} s / {max(done):.3f} s"
                if len(done) == len(cp_t)
                else f"{len(cp_t) - len(done)} of {len(cp_t)} not optimal in {LIMIT:.0f} s"
            )
            print(
                f"| {n}×{n}/{c} | {GOALS} | {sum(ours_t) / len(ours_t):.3f} s / {max(ours_t):.3f} s | {cp_cell} | {verdict} |"
            )
    sys.exit(1 if disagree else 0)


main()
