"""Derivatives of a solution through Python (Result.jvp, Result.vjp,
Result.degenerate, lcpsolve.torch): against central finite differences of
solves, the dot-product test <g, J d> = <J^T g, d>, the binary's
--sensitivity output, and torch.autograd.gradcheck (skipped without
python3-torch)."""
import os

import numpy as np
import pytest

import lcpsolve
from conftest import read_mtx_vector, run_bin

H = 1e-6


def spd(n, seed):
    rng = np.random.default_rng(seed)
    M = rng.standard_normal((n, n))
    return M @ M.T + n * np.eye(n), rng.standard_normal(n), rng


def fd(f, h=H):
    return (f(h) - f(-h)) / (2 * h)


@pytest.mark.parametrize("solver", ["lemke", "ipm", "pivot"])
def test_lcp_dense_jvp_vjp(solver):
    A, b, rng = spd(9, 3)
    r = lcpsolve.solve(A, b, solver=solver, tol=1e-12)
    assert r.status == "solved"
    assert not r.degenerate.any()
    dA, db = rng.standard_normal(A.shape) * (A != 0), rng.standard_normal(9)
    dx = r.jvp(dA=dA, db=db)
    ref = fd(lambda h: lcpsolve.solve(A + h * dA, b + h * db, solver="lemke", tol=1e-13).x)
    assert np.abs(dx - ref).max() <= 1e-6 * max(1.0, np.abs(ref).max())
    g = rng.standard_normal(9)
    gr = r.vjp(g)
    assert gr["A"].shape == A.shape and gr["mu"] is None
    lhs, rhs = g @ dx, (gr["A"] * dA).sum() + gr["b"] @ db
    assert abs(lhs - rhs) <= 1e-10 * max(1.0, abs(lhs))


def test_sparse_gradient_has_the_pattern():
    import scipy.sparse as sp
    n = 40
    A = sp.diags([-1.0, 2.5, -1.0], [-1, 0, 1], shape=(n, n), format="csr")
    b = np.linspace(-1, 1, n)
    r = lcpsolve.solve(A, b, solver="ipm", tol=1e-12)
    gA = r.vjp(np.ones(n))["A"]
    assert sp.issparse(gA) and gA.nnz == A.nnz
    assert (gA.indptr == A.indptr).all() and (gA.indices == A.indices).all()
    dA = sp.random(n, n, density=1.0, random_state=1, format="csr")  # read at A's pattern only
    dAp = sp.csr_matrix((np.asarray(dA[A.nonzero()]).ravel(), A.indices, A.indptr), shape=(n, n))
    assert np.allclose(r.jvp(dA=dA), r.jvp(dA=dAp), rtol=0, atol=0)
    ref = fd(lambda h: lcpsolve.solve(A + h * dAp, b, solver="ipm", tol=1e-13).x)
    assert np.abs(r.jvp(dA=dAp) - ref).max() <= 1e-6 * max(1.0, np.abs(ref).max())


def test_degenerate_row_flagged():
    A = np.eye(3)
    b = np.array([-1.0, 0.0, 2.0])  # row 2: x = 0 and w = 0
    r = lcpsolve.solve(A, b, solver="lemke", tol=1e-12)
    assert list(r.degenerate) == [False, True, False]
    dx = r.jvp(db=np.array([0.5, -1.0, 1.0]))
    assert dx[0] == pytest.approx(-0.5) and dx[1] == 0.0 and dx[2] == 0.0


def test_fc3d_jvp_in_b_and_mu(gen):
    p = lcpsolve.read(gen("col6-fc3d", "column", "--bodies", "6", "--mu", "0.4"))
    r = p.solve(solver="nsn", tol=1e-13)
    assert r.status == "solved" and p.kind == "fc3d"
    rng = np.random.default_rng(5)
    db = rng.standard_normal(p.n) * 0.1
    b0, mu0 = p.b, p.mu
    A = p.A

    def sol(h, dmu=None):
        q = lcpsolve.Problem.from_arrays(A, b0 + h * db, "fc3d", mu=mu0 + (0 if dmu is None else h * dmu))
        return q.solve(solver="nsn", tol=1e-13).x
    ref = fd(sol)
    dx = r.jvp(db=db)
    assert np.abs(dx - ref).max() <= 1e-6 * max(1.0, np.abs(ref).max())
    dmu = np.full(mu0.shape, 0.1)
    ref_mu = fd(lambda h: lcpsolve.Problem.from_arrays(A, b0, "fc3d", mu=mu0 + h * dmu).solve(
        solver="nsn", tol=1e-13).x)
    assert np.abs(r.jvp(dmu=dmu) - ref_mu).max() <= 1e-6 * max(1.0, np.abs(ref_mu).max())
    g = rng.standard_normal(p.n)
    gr = r.vjp(g)
    assert abs(g @ dx - gr["b"] @ db) <= 1e-10 * max(1.0, abs(g @ dx))
    assert abs(g @ r.jvp(dmu=dmu) - gr["mu"] @ dmu) <= 1e-10 * max(1.0, abs(gr["mu"] @ dmu))


def test_factored_form(gen):
    p = lcpsolve.read(gen("col6-fc3d", "column", "--bodies", "6", "--mu", "0.4"))
    r = p.solve(solver="nsn", tol=1e-13)
    gr = r.vjp(np.ones(p.n))
    assert {"M", "J", "v", "e"} <= set(gr)
    dv = np.random.default_rng(7).standard_normal(p.v.shape[0])
    dx = r.jvp(dv=dv)
    assert abs(np.ones(p.n) @ dx - gr["v"] @ dv) <= 1e-10 * max(1.0, abs(gr["v"] @ dv))
    with pytest.raises(lcpsolve.InputError):
        r.jvp(db=np.ones(p.n), dv=dv)


def test_python_equals_the_binary(gen, tmp_path):
    d = gen("col8-fc3d", "column", "--bodies", "8", "--mu", "0.3")
    p = lcpsolve.read(d)
    db = np.cos(np.arange(p.n))
    with open(tmp_path / "db.mtx", "w") as f:
        f.write("%%%%MatrixMarket matrix array real general\n%d 1\n" % p.n)
        f.writelines("%.17g\n" % v for v in db)
    run_bin("-s", "nsn", "-t", "1e-13", d, "--sensitivity", tmp_path / "db.mtx", "--sensitivity-out",
            tmp_path / "dx.mtx")
    dx_bin = read_mtx_vector(tmp_path / "dx.mtx")
    dx = p.solve(solver="nsn", tol=1e-13).jvp(db=db)
    assert np.abs(dx - dx_bin).max() <= 1e-12 * max(1.0, np.abs(dx).max())


def test_errors():
    A, b, _ = spd(4, 1)
    r = lcpsolve.solve(A, b, solver="lemke", tol=1e-12)
    with pytest.raises(lcpsolve.InputError):
        r.jvp(db=np.ones(3))  # wrong length
    with pytest.raises(lcpsolve.InputError):
        r.vjp(np.ones(5))
    rb = lcpsolve.solve_batch(np.stack([A, A]), np.stack([b, b]), solver="lemke")
    with pytest.raises(lcpsolve.InputError):
        rb[0].vjp(np.ones(4))  # a batch's results carry no problem handle


def test_torch_gradcheck():
    torch = pytest.importorskip("torch")
    import lcpsolve.torch as lt
    A, b, _ = spd(6, 11)
    At = torch.tensor(A, requires_grad=True)
    bt = torch.tensor(b, requires_grad=True)
    assert torch.autograd.gradcheck(lambda A, b: lt.solve(A, b, solver="lemke", tol=1e-13), (At, bt),
                                    eps=1e-6, atol=1e-6, rtol=1e-5)
    x = lt.solve(At, bt, solver="lemke", tol=1e-13)
    x.sum().backward()
    r = lcpsolve.solve(A, b, solver="lemke", tol=1e-13)
    gr = r.vjp(np.ones(6))
    assert np.allclose(bt.grad.numpy(), gr["b"], rtol=0, atol=1e-12)


def test_torch_mu_gradient():
    torch = pytest.importorskip("torch")
    import lcpsolve.torch as lt
    p = lcpsolve.generate("column", bodies=5, mu=0.4)
    A = torch.tensor(p.A.toarray(), requires_grad=True)
    b = torch.tensor(p.b)
    mu = torch.tensor(p.mu, requires_grad=True)
    x = lt.solve(A, b, kind="fc3d", mu=mu, solver="nsn", tol=1e-13)
    (x ** 2).sum().backward()
    d = np.full(p.mu.shape, 1.0)
    ref = fd(lambda h: np.sum(lcpsolve.Problem.from_arrays(p.A, p.b, "fc3d", mu=p.mu + h * d).solve(
        solver="nsn", tol=1e-13).x ** 2))
    assert abs(mu.grad.numpy() @ d - ref) <= 1e-6 * max(1.0, abs(ref))
    with pytest.raises(RuntimeError):
        lt.solve(A, b, kind="fc3d", mu=mu, solver="nsgs", tol=1e-13, max_iter=1)


def boxed(n, seed):
    """A random blcp: boxes of both signs, one-sided rows, b pushing rows to
    both bounds."""
    A, b, rng = spd(n, seed)
    r = np.arange(n) % 4
    lo = np.where(r == 0, -0.3, np.where(r == 1, 0.1, np.where(r == 2, -np.inf, -1.0)))
    hi = np.where(r == 0, 0.4, np.where(r == 1, np.inf, np.where(r == 2, 0.2, -0.5)))
    return A, 3.0 * n * b, lo, hi, rng


def test_blcp_bounds_jvp_vjp():
    A, b, lo, hi, rng = boxed(16, 21)
    r = lcpsolve.solve(A, b, kind="blcp", lo=lo, hi=hi, solver="pivot", tol=1e-13)
    assert r.status == "solved" and r.minimum_norm == 0
    held = (r.x == lo) | (r.x == hi)
    assert held.any()
    dlo = np.where(np.isfinite(lo), rng.standard_normal(16) * 0.05, 0.0)
    dhi = np.where(np.isfinite(hi), rng.standard_normal(16) * 0.05, 0.0)
    db = rng.standard_normal(16)
    dx = r.jvp(db=db, dlo=dlo, dhi=dhi)
    ref = fd(lambda h: lcpsolve.solve(A, b + h * db, kind="blcp", lo=lo + h * dlo, hi=hi + h * dhi, solver="pivot",
                                      tol=1e-13).x)
    assert np.abs(dx - ref).max() <= 1e-6 * max(1.0, np.abs(ref).max())
    assert np.abs(dx - r.jvp(db=db)).max() > 1e-3  # the bounds move the solution
    g = rng.standard_normal(16)
    gr = r.vjp(g)
    assert gr["lo"].shape == (16,) and gr["hi"].shape == (16,)
    assert not gr["lo"][r.x != lo].any() and not gr["hi"][r.x != hi].any()
    lhs, rhs = g @ dx, gr["b"] @ db + gr["lo"] @ dlo + gr["hi"] @ dhi
    assert abs(lhs - rhs) <= 1e-10 * max(1.0, abs(lhs))


def test_bounds_only_for_blcp():
    A, b, _ = spd(4, 1)
    r = lcpsolve.solve(A, b, solver="lemke", tol=1e-12)
    with pytest.raises(lcpsolve.InputError):
        r.jvp(dlo=np.ones(4))
    assert r.vjp(np.ones(4))["lo"] is None


def test_minimum_norm_on_duplicated_rows():
    """Rows 0, 3 of a strictly complementary lcp duplicated: A singular, the
    forces on the copies any split; the interior-point solver splits them,
    the derivative is the one of minimal norm and w's is exact."""
    m = 9
    A0, _, rng = spd(m, 4)
    xs = np.where(np.arange(m) % 3 == 0, 0.5 + rng.random(m), 0.0)
    ws = np.where(np.arange(m) % 3 == 0, 0.0, 0.5 + rng.random(m))
    b0 = ws - A0 @ xs
    src = np.r_[np.arange(m), 0, 3]
    A, b = A0[np.ix_(src, src)], b0[src]
    n = len(src)
    r = lcpsolve.solve(A, b, solver="ipm", tol=1e-12)
    assert r.minimum_norm == 2
    db = A @ rng.standard_normal(n)  # a change the problem stays solvable under
    dx = r.jvp(db=db)
    dw = A @ dx + db
    ref = fd(lambda h: A @ lcpsolve.solve(A, b + h * db, solver="lemke", tol=1e-13).x + b + h * db)
    assert np.abs(dw - ref).max() <= 1e-6 * max(1.0, np.abs(ref).max())
    assert np.abs(dw).max() > 0
    assert dx[0] == pytest.approx(dx[m], abs=1e-9) and dx[3] == pytest.approx(dx[m + 1], abs=1e-9)  # equal split
    g = rng.standard_normal(n)
    gr = r.vjp(g)
    dA = rng.standard_normal(A.shape)
    dx2 = r.jvp(dA=dA, db=db)
    assert abs(g @ dx2 - (gr["A"] * dA).sum() - gr["b"] @ db) <= 1e-10 * max(1.0, abs(g @ dx2))


def test_minimum_norm_of_a_large_pyramid(gen):
    """A pyramid of 3,136 contacts as generated (A singular, more free rows
    than a dense pseudo-inverse takes): the sparse one; the velocities' JVP
    along a change the problem stays solvable under is orthogonal to the
    null space it leaves out, and the VJP is its adjoint."""
    p = lcpsolve.read(gen("pyr28", "pyramid", "--base", "28"))
    r = p.solve(solver="ipm", tol=1e-10)
    assert r.status == "solved" and p.n == 3136
    assert r.minimum_norm > 0
    rng = np.random.default_rng(11)
    A = p.A
    db = A @ rng.standard_normal(p.n)
    dx = r.jvp(db=db)
    assert np.abs(A @ dx + db).max() <= 1e-8 * max(1.0, np.abs(db).max())  # at rest, w stays 0
    g = rng.standard_normal(p.n)
    gr = r.vjp(g)
    assert abs(g @ dx - gr["b"] @ db) <= 1e-10 * max(1.0, abs(g @ dx))


def test_torch_bounds_gradient():
    torch = pytest.importorskip("torch")
    import lcpsolve.torch as lt
    A, b, lo, hi, rng = boxed(8, 23)
    lo[np.isinf(lo)], hi[np.isinf(hi)] = -1e3, 1e3  # finite: every bound a variable for gradcheck
    args = [torch.tensor(v, requires_grad=True) for v in (A, b, lo, hi)]
    f = lambda A, b, lo, hi: lt.solve(A, b, kind="blcp", lo=lo, hi=hi, solver="pivot", tol=1e-13)  # noqa: E731
    assert torch.autograd.gradcheck(f, args, eps=1e-6, atol=1e-6, rtol=1e-5)
    f(*args).sum().backward()
    assert args[2].grad.abs().max() > 0 or args[3].grad.abs().max() > 0
