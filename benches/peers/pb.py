#!/usr/bin/env python3
"""The peer table of docs/pb.md (issue 40), measured in one run: every OPB
file of a folder (default instances/pb) solved by `puzzlesat pb FILE -q`
(default encodings, BatSat), by PySAT + CaDiCaL 1.5.3 with the constraints
encoded by `pysat.pb` (PBEnc, the pindakaas backend) and by OR-tools CP-SAT
(1 worker), each answer (SAT / UNSAT / optimum) compared; a disagreement
exits 3. puzzlesat's time is the whole process's wall time; the peers' times
are their own wall time from the parsed file (encoding and solving) in this
process. An objective is minimised by PySAT by a linear SAT-UNSAT search
(each better model adds `objective <= best - 1`, encoded by PBEnc).

Needs `pip install 'python-sat[pb]' ortools` and a release build.
Usage: python3 benches/peers/pb.py [FOLDER] [LIMIT_S]
"""
import glob
import os
import re
import subprocess
import sys
import time

try:
    from pysat.pb import PBEnc, EncType
    from pysat.formula import IDPool
    from pysat.solvers import Solver
    from ortools.sat.python import cp_model
except ImportError as e:
    sys.exit(f"pb.py: {e}: pip install 'python-sat[pb]' ortools")

BIN = os.environ.get("PUZZLESAT", "target/release/puzzlesat")
FOLDER = sys.argv[1] if len(sys.argv) > 1 else "instances/pb"
LIMIT = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0


def read_opb(path):
    """(objective terms or None, [(terms, rel, rhs)]); a term is (a, var, negated)."""
    text = "\n".join(l for l in open(path) if not l.lstrip().startswith("*"))
    text = re.sub(r"([A-Za-z_][\w\[\]{}^]*?)([+-]\d)", r"\1 \2", text)  # x4-1 -> x4 -1
    text = re.sub(r"([+-]?\d+)\*", r"\1 ", text)  # +25*x1 (the PB evaluation of 2005) -> +25 x1
    names, obj, cons = {}, None, []

    def var(tok):
        neg = tok.startswith("~")
        name = tok[1:] if neg else tok
        return names.setdefault(name, len(names) + 1), neg

    for stmt in text.split(";"):
        toks = stmt.split()
        if not toks:
            continue
        if toks[0] in ("min:", "max:"):
            sign = 1 if toks[0] == "min:" else -1
            obj = [(sign * int(a), *var(l)) for a, l in zip(toks[1::2], toks[2::2])]
            continue
        rel = next(i for i, t in enumerate(toks) if t in (">=", "<=", "="))
        terms = [(int(a), *var(l)) for a, l in zip(toks[:rel:2], toks[1:rel:2])]
        cons.append((terms, toks[rel], int(toks[rel + 1])))
    return obj, cons, names


def geq(terms, rhs):
    """`sum a*l >= rhs` with positive weights (PBEnc takes no negative ones):
    -a*l = a*(-l) - a. Literals, weights, bound."""
    lits, weights = [], []
    for a, v, neg in terms:
        l = -v if neg else v
        if a < 0:
            l, a, rhs = -l, -a, rhs - a
        if a:
            lits.append(l)
            weights.append(a)
    return lits, weights, rhs


def pysat_solve(obj, cons, names):
    pool = IDPool(start_from=len(names) + 1)
    clauses = []
    for terms, rel, rhs in cons:
        halves = []
        if rel in (">=", "="):
            halves.append(geq(terms, rhs))
        if rel in ("<=", "="):
            halves.append(geq([(-a, v, n) for a, v, n in terms], -rhs))
        for lits, weights, bound in halves:
            if bound <= 0:
                continue
            if bound > sum(weights):
                clauses.append([])
                continue
            cnf = PBEnc.atleast(lits=lits, weights=weights, bound=bound, vpool=pool, encoding=EncType.best)
            clauses += cnf.clauses
    if [] in clauses:
        return "UNSAT"
    with Solver(name="cadical153", bootstrap_with=clauses) as s:
        if not s.solve():
            return "UNSAT"
        if obj is None:
            return "SAT"
        best = None
        while s.solve():
            m = set(l for l in s.get_model() if l > 0)
            best = sum(a for a, v, neg in obj if (v in m) != neg)
            lits, weights, bound = geq([(-a, v, n) for a, v, n in obj], 1 - best)
            if bound > sum(weights):
                break
            if bound > 0:
                for c in PBEnc.atleast(lits=lits, weights=weights, bound=bound, vpool=pool).clauses:
                    s.add_clause(c)
        return f"optimum {best}"


def cpsat_solve(obj, cons, names):
    m = cp_model.CpModel()
    x = {v: m.NewBoolVar(f"x{v}") for v in names.values()}
    lit = lambda v, neg: x[v].Not() if neg else x[v]
    for terms, rel, rhs in cons:
        e = sum(a * lit(v, neg) for a, v, neg in terms)
        m.Add(e >= rhs) if rel == ">=" else m.Add(e <= rhs) if rel == "<=" else m.Add(e == rhs)
    if obj is not None:
        m.Minimize(sum(a * lit(v, neg) for a, v, neg in obj))
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    s.parameters.max_time_in_seconds = LIMIT
    st = s.Solve(m)
    if st == cp_model.INFEASIBLE:
        return "UNSAT"
    if st == cp_model.OPTIMAL:
        return "SAT" if obj is None else f"optimum {round(s.ObjectiveValue())}"
    return "unknown"


def puzzlesat(path):
    t = time.time()
    p = subprocess.run([BIN, "pb", path, "-q", "--timeout", str(LIMIT)], capture_output=True, text=True)
    line = p.stdout.splitlines()[0] if p.stdout else p.stderr.strip()
    took = time.time() - t
    if line.startswith("optimal: "):
        return f"optimum {line.split()[1]}", took
    if p.returncode == 20:
        return "UNSAT", took
    if p.returncode == 10:
        return "SAT", took
    return "unknown", took


def timed(f, *args):
    t = time.time()
    r = f(*args)
    return r, time.time() - t


print(f"load: {os.getloadavg()[0]:.2f}")
print("| instance | vars | constraints | answer | puzzlesat s | PySAT+CaDiCaL s | CP-SAT s |")
print("| --- | ---: | ---: | --- | ---: | ---: | ---: |")
bad = False
totals = [0.0, 0.0, 0.0]
for path in sorted(glob.glob(os.path.join(FOLDER, "*.opb"))):
    obj, cons, names = read_opb(path)
    (a1, t1) = puzzlesat(path)
    (a2, t2) = timed(pysat_solve, obj, cons, names)
    (a3, t3) = timed(cpsat_solve, obj, cons, names)
    answers = {a for a in (a1, a2, a3) if a != "unknown"}
    flag = "" if len(answers) <= 1 else " DISAGREE"
    bad |= bool(flag)
    for i, t in enumerate((t1, t2, t3)):
        totals[i] += t
    name = os.path.basename(path)
    print(f"| {name} | {len(names)} | {len(cons)} | {a1}{flag} | {t1:.3f} | {t2:.3f} | {t3:.3f} |")
print(f"| total | | | | {totals[0]:.2f} | {totals[1]:.2f} | {totals[2]:.2f} |")
print(f"load: {os.getloadavg()[0]:.2f}")
sys.exit(3 if bad else 0)
