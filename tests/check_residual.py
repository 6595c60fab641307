#!/usr/bin/env python3
"""tests/check_residual.py: an independent check of an lcp solution.

Reads A, b (Matrix Market) and x (Matrix Market array) with nothing but the
standard library -- none of lcpsolve's code -- and prints the residual of
DESIGN.md, ||min(x, A x + b)||_inf / max(1, ||b||_inf).  With --max X it exits
1 when the residual exceeds X.

    python3 tests/check_residual.py A.mtx b.mtx x.mtx [--max 1e-8]
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


def main(argv):
    if len(argv) < 4:
        raise SystemExit(__doc__)
    n, _, a = read_mtx(argv[1])
    b, x = read_vector(argv[2]), read_vector(argv[3])
    w = list(b)
    for i, j, v in a:
        w[i] += v * x[j]
    res = max(abs(min(xi, wi)) for xi, wi in zip(x, w)) / max(1.0, max(abs(t) for t in b))
    print(f"{res:.6e}")
    if "--max" in argv and res > float(argv[argv.index("--max") + 1]):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
