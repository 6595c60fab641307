#!/usr/bin/env python3
"""tests/check_friction.py: an independent check of a ccp / fc3d solution.

Reads W, q (Matrix Market, via tests/check_residual.py's reader), mu (one a
contact) and r, and prints the natural-map residual of docs/contract.md,
sqrt(sum_i |r_i - P_K(r_i - u~_i)|^2) / max(|q|, |r|, |u|) with u = W r + q
and u~_i = u_i + mu_i |u_Ti| e_n for fc3d (u~ = u for ccp).  With --max X it
exits 1 when the residual exceeds X.

    python3 tests/check_friction.py fc3d|ccp W.mtx q.mtx mu.mtx r.mtx [--max 1e-8]
"""
import math, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_residual import read_mtx  # noqa: E402


def vec(path):
    m, n, e = read_mtx(path)
    v = [0.0] * (m * n)
    for i, j, x in e:
        v[i + j * m] = x
    return v


def proj(rn, t1, t2, mu):
    nt = math.hypot(t1, t2)
    if nt <= mu * rn:
        return rn, t1, t2
    if mu * nt <= -rn or nt == 0:
        return 0.0, 0.0, 0.0
    a = (rn + mu * nt) / (1 + mu * mu)
    return a, mu * a * t1 / nt, mu * a * t2 / nt


def main():
    a = sys.argv[1:]
    mx = None
    if "--max" in a:
        k = a.index("--max")
        mx = float(a[k + 1])
        del a[k:k + 2]
    kind, W, q, mu, r = a[0], a[1], vec(a[2]), vec(a[3]), vec(a[4])
    n, _, ent = read_mtx(W)
    u = list(q)
    for i, j, x in ent:
        u[i] += x * r[j]
    s = 0.0
    for c in range(n // 3):
        un, ut1, ut2 = u[3 * c:3 * c + 3]
        if kind == "fc3d":
            un += mu[c] * math.hypot(ut1, ut2)
        rn, rt1, rt2 = r[3 * c:3 * c + 3]
        p = proj(rn - un, rt1 - ut1, rt2 - ut2, mu[c])
        s += (rn - p[0]) ** 2 + (rt1 - p[1]) ** 2 + (rt2 - p[2]) ** 2
    norm = lambda v: math.sqrt(sum(x * x for x in v))
    res = math.sqrt(s) / max(norm(q), norm(r), norm(u), 1e-300)
    print("%.6e" % res)
    return 1 if mx is not None and not res <= mx else 0


if __name__ == "__main__":
    sys.exit(main())
