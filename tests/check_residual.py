#!/usr/bin/env python3
"""tests/check_residual.py: an independent check of an lcp solution.

Reads A, b (Matrix Market) and x (Matrix Market array) with nothing but the
standard library -- none of lcpsolve's code -- and prints the residual of
docs/contract.md, ||min(x, A x + b)||_inf / max(1, ||b||_inf).  With --max X it exits
1 when the residual exceeds X.  With --lo/--hi (a blcp; values of 1e300 and
beyond are infinite) the residual is ||x - mid(lo, x - w, hi)||_inf /
max(1, ||b||_inf), and with --findex F.mtx --fmu MU.mtx row i of findex
f_i >= 0 has the bounds -+mu_i |x_f| (ODE/Bullet friction; a row's mu in
the row's own entry of MU).  With --mu mu.mtx, x is r of a friction problem
(contact-major: normal, two tangents) and the residual is fc3d's natural map
(De Saxce, as Siconos' fc3d_compute_error; --ccp: without the mu |u_T| term),
sqrt(sum ||r_i - P_K(r_i - (u_i + mu_i |u_Ti| e_n))||^2) / max(||b||, ||r||, ||u||).

    python3 tests/check_residual.py A.mtx b.mtx x.mtx [--max 1e-8]
    python3 tests/check_residual.py A.mtx b.mtx x.mtx --lo LO.mtx --hi HI.mtx [--findex F.mtx --fmu MU.mtx] [--max 1e-8]
    python3 tests/check_residual.py A.mtx b.mtx r.mtx --mu mu.mtx [--ccp] [--max 1e-8]
"""
import sys


def read_mtx(path):
    """Returns (rows, cols, entries) with 0-based (i, j, v) entries."""
    with open(path) as f:
        header = f.readline().split()
        if len(header) < 5 or header[0] != "%%MatrixMarket":
            raise SystemExit(f"{path}: not Matrix Market")
        fmt, sym = header[2].lower(), header[4].lower()
        lines = [ln for ln in f if ln.strip() and not ln.lstrip().startswith("%")]
    size = lines[0].split()
    m, n = int(size[0]), int(size[1])
    entries = []
    if fmt == "coordinate":
        for ln in lines[1:]:
            t = ln.split()
            i, j, v = int(t[0]) - 1, int(t[1]) - 1, float(t[2])
            entries.append((i, j, v))
            if sym != "general" and i != j:
                entries.append((j, i, -v if sym == "skew-symmetric" else v))
    else:
        vals = [float(t) for ln in lines[1:] for t in ln.split()]
        k = 0
        for j in range(n):
            for i in range(m):
                entries.append((i, j, vals[k]))
                k += 1
    return m, n, entries


def read_vector(path):
    m, n, entries = read_mtx(path)
    v = [0.0] * (m if n == 1 else n)
    for i, j, x in entries:
        v[i if n == 1 else j] += x
    return v


def cone_project(mu, r):
    """Projection onto K_mu = {|r_T| <= mu r_n}."""
    rn, nt = r[0], (r[1] ** 2 + r[2] ** 2) ** 0.5
    if rn >= 0 and nt <= mu * rn:
        return list(r)
    if mu * nt <= -rn:
        return [0.0, 0.0, 0.0]
    pn = (rn + mu * nt) / (1.0 + mu * mu)
    s = mu * pn / nt if nt > 0 else 0.0
    return [pn, r[1] * s, r[2] * s]


def friction_residual(b, r, w, mu, desaxce):
    if len(b) != 3 * len(mu):
        raise SystemExit(f"{len(b)} rows but {len(mu)} friction coefficients: need 3 rows a contact")
    err2 = 0.0
    for i, m in enumerate(mu):
        ri, ui = r[3 * i:3 * i + 3], w[3 * i:3 * i + 3]
        v = list(ui)
        if desaxce:
            v[0] += m * (ui[1] ** 2 + ui[2] ** 2) ** 0.5
        z = cone_project(m, [ri[k] - v[k] for k in range(3)])
        err2 += sum((ri[k] - z[k]) ** 2 for k in range(3))
    norm = max(sum(t * t for t in b), sum(t * t for t in r), sum(t * t for t in w)) ** 0.5
    return err2 ** 0.5 / (norm if norm > 0 else 1.0)


def main(argv):
    if len(argv) < 4:
        raise SystemExit(__doc__)
    n, _, a = read_mtx(argv[1])
    b, x = read_vector(argv[2]), read_vector(argv[3])
    w = list(b)
    for i, j, v in a:
        w[i] += v * x[j]
    def opt(name):
        return read_vector(argv[argv.index(name) + 1]) if name in argv else None
    if "--mu" in argv:
        res = friction_residual(b, x, w, opt("--mu"), "--ccp" not in argv)
    elif "--lo" in argv or "--hi" in argv:
        n = len(x)
        lo = opt("--lo") or [0.0] * n
        hi = opt("--hi") or [float("inf")] * n
        lo = [-float("inf") if t <= -1e300 else t for t in lo]
        hi = [float("inf") if t >= 1e300 else t for t in hi]
        fx, fmu = opt("--findex"), opt("--fmu")
        if fx is not None:
            if fmu is None:
                raise SystemExit("--findex needs --fmu")
            for i in range(n):
                f = int(fx[i])
                if f >= 0:
                    lo[i], hi[i] = -fmu[i] * abs(x[f]), fmu[i] * abs(x[f])
        res = max(abs(xi - min(max(xi - wi, l), h)) for xi, wi, l, h in zip(x, w, lo, hi)) if n else 0.0
        res /= max(1.0, max(abs(t) for t in b) if b else 0.0)
    else:
        res = max(abs(min(xi, wi)) for xi, wi in zip(x, w)) / max(1.0, max(abs(t) for t in b))
    print(f"{res:.6e}")
    if "--max" in argv and res > float(argv[argv.index("--max") + 1]):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
