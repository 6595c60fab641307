"""Every solver through Python gives the binary's answer, bit for bit; the
array path (numpy, scipy.sparse) gives the file path's; the result object."""
import json
import os
import shutil

import numpy as np
import pytest

import lcpsolve
from conftest import ROOT, SICONOS, read_mtx_vector, run_bin


def bits(a):
    return np.ascontiguousarray(a, dtype=np.float64).view(np.uint64)


@pytest.fixture(scope="module")
def problems(gen, tmp_path_factory):
    """One small problem of each kind (those of tests/e2e/solvers_once.sh)."""
    blcp = tmp_path_factory.mktemp("blcp")
    col = os.path.join(ROOT, "problems", "column-20")
    for f in ("A", "b", "M", "J", "v"):
        shutil.copy(os.path.join(col, f + ".mtx"), blcp / (f + ".mtx"))
    for f, v in (("lo", 0.0), ("hi", 1.0)):  # the lower contacts of the column meet the upper bound
        (blcp / (f + ".mtx")).write_text("%%MatrixMarket matrix array real general\n20 1\n" + f"{v}\n" * 20)
    (blcp / "problem.json").write_text(json.dumps({"kind": "blcp", "A": "A.mtx", "b": "b.mtx", "lo": "lo.mtx",
                                                   "hi": "hi.mtx", "M": "M.mtx", "J": "J.mtx", "v": "v.mtx"}))
    return {"lcp": col, "blcp": str(blcp),
            "ccp": gen("ccp", "pyramid", "--base", "3", "--mu", "0.5", "--kind", "ccp"),
            "fc3d": os.path.join(ROOT, "problems", "pyramid-5-fc3d")}


def solver_kinds():
    out = []
    for name, info in lcpsolve.solvers().items():
        if name.endswith("-cuda") or name.startswith("mpi-"):
            continue
        out += [(name, k) for k in info.kinds]
    return out


def binary_answer(tmp_path, path, *args):
    x = tmp_path / "x.mtx"
    p = run_bin(*args, "--json", "-o", x, path)
    return read_mtx_vector(x), json.loads(p.stdout), p.returncode


@pytest.mark.parametrize("solver,kind", solver_kinds())
def test_every_solver_equals_the_binary(problems, tmp_path, solver, kind):
    path = problems[kind]
    xb, js, rc = binary_answer(tmp_path, path, "-s", solver)
    r = lcpsolve.solve(lcpsolve.read(path), solver=solver)
    assert np.array_equal(bits(r.x), bits(xb)), f"{solver} on {kind}: x differs from the binary's"
    assert r.status == js["status"] and r.exit_code == rc
    assert r.iterations == js["iterations"]
    assert r.residual == pytest.approx(js["residual"], rel=1e-14)  # --json prints 15 digits; x is exact
    assert r.solver == js["solver"]


def test_numpy_and_scipy_arrays_equal_the_binary(tmp_path):
    import scipy.sparse as sp
    path = os.path.join(ROOT, "problems", "random-spd-200")
    xb, js, _ = binary_answer(tmp_path, path, "-s", "pgs", "--tol", "1e-10")
    p = lcpsolve.read(path)
    A, b = p.A, p.b
    for form in (A, A.tocsc(), A.tocoo(), A.toarray(), sp.csr_matrix(A.toarray())):
        r = lcpsolve.solve(form, b, solver="pgs", tol=1e-10)
        assert np.array_equal(bits(r.x), bits(xb)), type(form)
        assert r.status == "solved" and r.iterations == js["iterations"]


def test_a_problem_built_in_numpy():
    A = np.array([[2.0, -1.0], [-1.0, 2.0]])
    r = lcpsolve.solve(A, [-1, -1], solver="pgs", tol=1e-12)
    assert r.converged and np.allclose(r.x, [1, 1], atol=1e-10)
    assert np.allclose(r.w, A @ r.x + np.array([-1.0, -1.0]))
    assert r.residual <= 1e-12 and r.time_s >= 0 and r.precond == "none"


@pytest.mark.parametrize("name", ["lcp/lcp_CPS_1.dat", "fc3d/FC3D_Example1.dat"])
def test_siconos_file_equals_the_binary(tmp_path, name):
    path = os.path.join(SICONOS, name)
    if not os.path.exists(path):
        pytest.skip(f"{path} absent (LCPSOLVE_DATA)")
    xb, js, _ = binary_answer(tmp_path, path)
    r = lcpsolve.solve(lcpsolve.read(path))
    assert np.array_equal(bits(r.x), bits(xb)) and r.solver == js["solver"] and r.status == js["status"]


def test_limit_is_a_status_not_an_exception():
    p = lcpsolve.read(os.path.join(ROOT, "problems", "column-20"))
    r = lcpsolve.solve(p, solver="pgs", max_iter=3)
    assert r.status == "max_iter" and r.exit_code == 1 and r.iterations == 3 and not r.converged
    assert r.x.shape == (20,) and np.isfinite(r.x).all()


def test_no_solution_is_a_status(tmp_path):
    # x >= 0, w = -x - 1 >= 0 has no solution: lemke ends on a ray
    r = lcpsolve.solve(np.array([[-1.0]]), [-1.0], solver="lemke")
    assert r.status == "no_solution" and r.exit_code == 3 and r.message


def test_options_x0_and_trace():
    p = lcpsolve.read(os.path.join(ROOT, "problems", "column-20"))
    r = lcpsolve.solve(p, solver="psor", omega="auto", trace=True)
    t = r.trace
    assert t.dtype.names[:5] == ("iteration", "time_s", "residual", "complementarity", "feasibility")
    assert t["iteration"][0] == 0 and t["iteration"][-1] == r.iterations and len(t) == r.iterations + 1
    assert t["residual"][-1] == r.residual and 0 < r.omega < 2
    rows = lcpsolve.solve(p, solver="pgs", trace="rows").trace
    assert isinstance(rows, list) and rows[0][0] == 0
    warm = lcpsolve.solve(p, solver="pgs", x0=lcpsolve.solve(p, solver="pgs").x)
    assert warm.iterations <= 1
    assert lcpsolve.solve(p, solver="pgs", precond="diag").precond == "diag"


def test_problem_data_out_and_write(tmp_path):
    p = lcpsolve.generate("pyramid", base=3, mu=0.5)
    assert p.kind == "fc3d" and p.n == p.A.shape[0] and p.mu.shape == (p.n // 3,)
    assert p.M is not None and p.J.shape == (p.n, p.M.shape[0]) and p.v.shape == (p.M.shape[0],)
    p.write(str(tmp_path / "pyr"))
    q = lcpsolve.read(str(tmp_path / "pyr"))
    assert (q.A != p.A).nnz == 0 and np.array_equal(q.b, p.b) and np.array_equal(q.mu, p.mu)
    # the scene is the one `lcpsolve generate` writes: the same bits
    run_bin("generate", "pyramid", "--base", "3", "--mu", "0.5", "-o", tmp_path / "bin")
    c = lcpsolve.read(str(tmp_path / "bin"))
    assert (c.A != p.A).nnz == 0 and np.array_equal(bits(c.b), bits(p.b))
    b = lcpsolve.Problem.from_arrays(np.eye(2), [-1, 1], "blcp", lo=[-np.inf, 0], hi=[1, np.inf], findex=[-1, 0],
                                     mu=[0, 0.5])
    assert b.lo[0] == -np.inf and b.hi[1] == np.inf and list(b.findex) == [-1, 0] and b.M is None
    assert list(b.mu) == [0, 0.5]


def test_problem_update_path():
    """Problem.update(values=, b=): new values in place, the same bits as a
    new problem with them; with auto the choice of the last solve (its
    reason says so: 140 unknowns, more than pivot's small path takes, which
    solves before any choice); bad lengths and a factored A refused."""
    rng = np.random.default_rng(7)
    n = 140
    G = rng.standard_normal((n, n))
    A = G @ G.T + n * np.eye(n)
    A[0, n - 1] = A[n - 1, 0] = 0.0  # a hole: the values of the nonzeros, row by row
    b = rng.standard_normal(n)
    p = lcpsolve.Problem.from_arrays(A, b)
    first = p.solve()
    assert first.status == "solved" and "before A's values changed" not in first.auto_reason
    for k in (1, 2):
        A2, b2 = A * (1 + 0.05 * k), b - 0.1 * k
        assert p.update(values=A2[A != 0], b=b2) is p
        assert np.array_equal(p.A.toarray(), A2) and np.array_equal(p.b, b2)
        r = p.solve(solver="pgs", tol=1e-12)
        q = lcpsolve.solve(A2, b2, solver="pgs", tol=1e-12)
        assert np.array_equal(bits(r.x), bits(q.x)) and r.iterations == q.iterations
        a = p.solve()
        assert a.status == "solved" and a.solver == first.solver and "before A's values changed" in a.auto_reason
    p.update(b=-np.abs(b))  # b alone
    assert np.array_equal(p.b, -np.abs(b))
    with pytest.raises(lcpsolve.InputError, match="entries"):
        p.update(values=np.ones(3))
    with pytest.raises(lcpsolve.InputError):
        p.update(values=np.full(int((A != 0).sum()), np.nan))
    f = lcpsolve.generate("column", bodies=4)
    with pytest.raises(lcpsolve.InputError, match="factored"):
        f.update(values=f.A.data)


def test_registry():
    s = lcpsolve.solvers()
    assert "pgs" in s and s["pgs"].kinds == ("lcp", "blcp") and s["pgs"].preconds[0] == "none"
    assert "mg" in s["ipm"].preconds and s["nsn"].summary
    listed = [ln.split()[0] for ln in run_bin("--list-solvers").stdout.splitlines()]
    assert list(s) == listed
    names = [o.name for o in lcpsolve.options()]
    assert "max-iter" in names and "tol" in names and "output" not in names


def test_results_are_their_own_after_the_next_solves():
    """The plain solve reuses one result struct a thread: each Result keeps
    its own copies, and a solve from a signal handler in the middle of
    another (the struct in use) gives the same answers."""
    import signal
    p = lcpsolve.generate("column", bodies=10)
    ref = lcpsolve.solve(p, solver="pgs")
    r1 = lcpsolve.solve(p, solver="pgs", max_iter=1)
    x1 = r1.x.copy()
    r2 = lcpsolve.solve(p, solver="pgs")
    assert r1.iterations == 1 and np.array_equal(r1.x, x1) and r1.x is not r2.x
    assert r1.status == "max_iter" and r2.status == "solved" and r1.exit_code == 1 and r2.exit_code == 0
    inner, busy = [], [False]

    def on_alarm(signum, frame):
        if busy[0]:  # not inside itself (a loaded machine: a solve longer than the period)
            return
        busy[0] = True
        try:
            inner.append(lcpsolve.solve(p, solver="pgs"))
        finally:
            busy[0] = False
    old = signal.signal(signal.SIGALRM, on_alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.0003, 0.0003)
        outer = [lcpsolve.solve(p, solver="pgs") for _ in range(300)]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0, 0)
        signal.signal(signal.SIGALRM, old)
    assert inner, "the timer never fired"
    for r in outer + inner:
        assert r.status == "solved" and np.array_equal(r.x, ref.x) and r.iterations == ref.iterations
        assert r.solver == "pgs" and r.residual == ref.residual
