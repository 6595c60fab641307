#!/usr/bin/env python3
"""peer/cvxopt_qp.py: the peer CVXOPT (cvxopt.solvers.coneqp, a conic
interior point) on a symmetric lcp or a ccp given as a problem folder
(A.mtx, b.mtx, and mu.mtx for ccp; lcpsolve generate writes them).

    peer/cvxopt_qp.py PROBLEM_DIR OUT.mtx [REPEAT]

lcp (A symmetric positive semidefinite): min 1/2 x'Ax + b'x subject to x >= 0,
whose optimality conditions are the lcp (w = Ax + b >= 0 the multiplier of
x >= 0).  ccp: min 1/2 r'Ar + b'r subject to r_i in the cone of contact i,
mu_i r_n >= ||(r_t1, r_t2)|| (rows 3i, 3i+1, 3i+2), whose optimality
conditions are the ccp.  A and the constraint matrix go to coneqp as sparse
matrices (cvxopt.spmatrix), so its KKT solver ('chol2', the default for
problems without equality constraints) factors them with CHOLMOD; coneqp's
tolerances are its defaults.  Solves up to REPEAT times (default 1,
stopping once 0.5 s have been spent), writes x as a Matrix Market array
and prints one line: info 0 when coneqp reported "optimal", its iterations,
the median seconds of one coneqp call (building the matrices excluded) and
its status.  Exit 0 optimal, 1 otherwise, 2 bad input, 3 where CVXOPT or
numpy/scipy are missing."""
import os, statistics, sys, time

try:
    import numpy as np
    import scipy.io
    import scipy.sparse as sp
    from cvxopt import matrix, solvers, spmatrix
except ImportError as e:
    print(f"cvxopt_qp: {e} (python3-cvxopt, python3-scipy)", file=sys.stderr)
    sys.exit(3)


def cvx_sparse(M):
    M = sp.coo_matrix(M)
    return spmatrix(M.data.tolist(), M.row.tolist(), M.col.tolist(), size=M.shape)


def main():
    if len(sys.argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    d, out = sys.argv[1], sys.argv[2]
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    try:
        A = sp.csr_matrix(scipy.io.mmread(os.path.join(d, "A.mtx")))
        b = np.asarray(scipy.io.mmread(os.path.join(d, "b.mtx"))).ravel()
        mu = os.path.join(d, "mu.mtx")
        mu = np.asarray(scipy.io.mmread(mu)).ravel() if os.path.exists(mu) else None
    except (OSError, ValueError) as e:
        print(f"{d}: {e}", file=sys.stderr)
        return 2
    n = A.shape[0]
    if A.shape != (n, n) or b.size != n:
        print(f"{d}: A is {A.shape[0]}x{A.shape[1]}, b has {b.size} entries", file=sys.stderr)
        return 2
    if abs(A - A.T).max() > 1e-12 * max(1.0, abs(A).max()):
        print(f"{d}: A is not symmetric: no QP of which it is the lcp", file=sys.stderr)
        return 2
    P, q = cvx_sparse(A), matrix(b)
    if mu is None:  # x >= 0: -x + s = 0, s >= 0
        G = cvx_sparse(-sp.identity(n))
        dims = {"l": n, "q": [], "s": []}
    else:
        if n % 3 or mu.size != n // 3:
            print(f"{d}: ccp needs 3 rows a contact and one mu a contact (n = {n}, mu: {mu.size})", file=sys.stderr)
            return 2
        g = np.ones(n)
        g[0::3] = mu  # s_i = (mu_i r_n, r_t1, r_t2) in the second-order cone
        G = cvx_sparse(-sp.diags(g))
        dims = {"l": 0, "q": [3] * (n // 3), "s": []}
    h = matrix(0.0, (n, 1))
    solvers.options["show_progress"] = False
    times, res = [], None
    while len(times) < repeat and (not times or sum(times) < 0.5):
        t0 = time.perf_counter()
        res = solvers.coneqp(P, q, G, h, dims)
        times.append(time.perf_counter() - t0)
    x = np.array(res["x"]).ravel()
    with open(out + ".tmp", "w") as f:
        f.write("%%MatrixMarket matrix array real general\n% cvxopt coneqp peer solution\n")
        f.write(f"{n} 1\n")
        f.writelines(f"{v:.17g}\n" for v in x)
    os.replace(out + ".tmp", out)
    ok = res["status"] == "optimal"
    print(f"info {0 if ok else 1} iterations {res['iterations']} time_s {statistics.median(times):.6e} "
          f"status {res['status'].replace(' ', '_')} repeats {len(times)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
