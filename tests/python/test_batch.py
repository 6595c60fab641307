"""solve_batch: the library's batched path gives each problem's own answer
(the same bits for any thread count); stacked arrays; Ctrl-C stops a solve
with its best iterate."""
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import lcpsolve
from conftest import ROOT, run_bin


@pytest.fixture(scope="module")
def envs(tmp_path_factory):
    d = tmp_path_factory.mktemp("envs") / "e"
    run_bin("generate", "pyramid", "--base", "2", "--envs", "64", "-o", d)
    names = sorted(os.listdir(d))
    return str(d), [lcpsolve.read(os.path.join(d, n)) for n in names], names


def test_batch_equals_single_solves_and_the_command(envs, tmp_path):
    d, problems, names = envs
    one = lcpsolve.solve_batch(problems, solver="pgs", threads=1)
    two = lcpsolve.solve_batch(problems, solver="pgs", threads=2)
    assert len(one) == 64 and one.solved == 64 and one.exit_code == 0 and one.env_steps_per_s > 0
    assert one.x.shape == (64, problems[0].n)
    assert np.array_equal(one.x.view(np.uint64), two.x.view(np.uint64))
    for k in (0, 17, 63):
        r = lcpsolve.solve(problems[k], solver="pgs")
        assert np.array_equal(r.x.view(np.uint64), one.x[k].view(np.uint64))
        assert one[k].iterations == r.iterations and one[k].residual == r.residual and one[k].solver == "pgs"
    # the command's batch writes the same answers (%.17g: exact)
    run_bin("batch", "-s", "pgs", "-j", "2", "-o", tmp_path / "out", d)
    from conftest import read_mtx_vector
    for k in (0, 31):
        xb = read_mtx_vector(tmp_path / "out" / (names[k] + ".mtx"))
        assert np.array_equal(xb.view(np.uint64), one.x[k].view(np.uint64))


def test_batch_statuses_and_starts(envs):
    _, problems, _ = envs
    r = lcpsolve.solve_batch(problems[:8], solver="pgs", max_iter=2)
    assert list(r.status) == ["max_iter"] * 8 and r.exit_code == 1 and list(r.exit_codes) == [1] * 8
    full = lcpsolve.solve_batch(problems[:8], solver="pgs")
    warm = lcpsolve.solve_batch(problems[:8], solver="pgs", x0=list(full.x))
    assert (warm.iterations <= 1).all()


def test_stacked_arrays():
    rng = np.random.default_rng(3)
    E, n = 32, 6
    B = rng.standard_normal((E, n, n))
    A = B @ B.transpose(0, 2, 1) + n * np.eye(n)
    b = rng.standard_normal((E, n))
    r = lcpsolve.solve_batch(A, b=b, solver="pgs", tol=1e-12, threads=2)
    assert r.solved == E and r.x.shape == (E, n)
    for k in (0, E - 1):
        s = lcpsolve.solve(A[k], b[k], solver="pgs", tol=1e-12)
        assert np.array_equal(s.x, r.x[k])
        w = A[k] @ r.x[k] + b[k]
        assert (r.x[k] >= 0).all() and (w >= -1e-9).all() and abs(r.x[k] @ w) < 1e-9


def test_an_empty_batch():
    r = lcpsolve.solve_batch([], solver="pgs")
    assert len(r) == 0 and r.exit_code == 0 and r.solved == 0


def test_mixed_sizes_give_a_list(envs):
    _, problems, _ = envs
    other = lcpsolve.read(os.path.join(ROOT, "problems", "murty-8"))
    r = lcpsolve.solve_batch([problems[0], other], solver="pgs")
    assert isinstance(r.x, list) and r.x[1].shape == (8,)


CHILD = r"""
import signal, sys, time
sys.path.insert(0, sys.argv[1])
signal.signal(signal.SIGINT, signal.default_int_handler)
import lcpsolve
p = lcpsolve.generate("column", bodies=3000)
print("start", flush=True)
t = time.perf_counter()
r = lcpsolve.solve(p, solver="pgs", tol=1e-15, max_iter=10**9, trace=sys.argv[2] == "trace")
print(r.status, r.interrupted, r.message, r.iterations, r.residual < 1, round(time.perf_counter() - t, 1), flush=True)
try:
    lcpsolve.solve(p, solver="pgs", max_iter=5)  # the next solve is not stopped by the old Ctrl-C
    print("next ok", flush=True)
except KeyboardInterrupt:
    print("next interrupted", flush=True)
"""


@pytest.mark.parametrize("mode", ["plain", "trace"])
def test_ctrl_c_stops_a_long_solve_with_the_best_iterate(mode):
    p = subprocess.Popen([sys.executable, "-c", CHILD, os.path.join(ROOT, "python"), mode],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "start"
        time.sleep(1.0)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    lines = out.split("\n")
    status, interrupted, message, iterations, finite, secs = lines[0].split()
    assert status == "time_limit" and interrupted == "True" and message == "interrupted", out + err
    assert int(iterations) > 0 and finite == "True"
    assert lines[1] == "next ok", out + err


# ---- the stacked path (Stack, lcps_solve_stacked) -------------------------

def _bits(a):
    return np.ascontiguousarray(a).view(np.uint64)


def test_stack_of_problems_equals_the_batch(envs):
    _, problems, _ = envs
    st = lcpsolve.Stack(problems)
    one = st.solve(solver="pgs", threads=1)
    two = st.solve(solver="pgs", threads=2)
    ref = lcpsolve.solve_batch(problems, solver="pgs", threads=2)
    assert isinstance(one, lcpsolve.StackResult) and len(one) == 64 and one.exit_code == 0
    assert one.x.shape == (64, problems[0].n) and one.status_code.dtype == np.int32
    assert one.solved == 64 and list(one.status) == ["solved"] * 64 and (one.exit_codes == 0).all()
    assert np.array_equal(_bits(one.x), _bits(two.x)) and np.array_equal(_bits(one.x), _bits(ref.x))
    assert np.array_equal(one.iterations, ref.iterations) and np.array_equal(_bits(one.residual), _bits(ref.residual))
    assert one[5].status == "solved" and one[5].iterations == ref[5].iterations and one.env_steps_per_s > 0
    short = st.solve(solver="pgs", max_iter=2)
    assert list(short.status) == ["max_iter"] * 64 and short.exit_code == 1 and (short.exit_codes == 1).all()
    warm = st.solve(solver="pgs", x0=one.x)
    assert (warm.iterations <= 1).all()


def test_stack_on_one_pattern_with_new_values_each_step():
    rng = np.random.default_rng(5)
    E, n = 16, 7
    G = rng.standard_normal((E, n, n))
    A = G @ G.transpose(0, 2, 1) + n * np.eye(n)
    A[:, 0, n - 1] = A[:, n - 1, 0] = 0.0  # one pattern with a hole
    import scipy.sparse as sp
    pattern = sp.csr_matrix(A[0])
    V = np.stack([a[pattern.toarray() != 0] for a in A])
    b = rng.standard_normal((E, n))
    st = lcpsolve.Stack(pattern, b, values=V)
    r = st.solve(solver="pgs", tol=1e-12)
    for k in (0, E - 1):
        s = lcpsolve.solve(A[k], b[k], solver="pgs", tol=1e-12)
        assert np.array_equal(_bits(s.x), _bits(r.x[k])) and s.iterations == r.iterations[k]
    # the next step: new values of A and b in the same call, kept for the solves after it
    A2, b2 = A * 1.5, -np.abs(b)
    V2 = np.stack([a[pattern.toarray() != 0] for a in A2])
    r2 = st.solve(solver="pgs", tol=1e-12, values=V2, b=b2)
    again = st.solve(solver="pgs", tol=1e-12)
    for k in (1, 9):
        s = lcpsolve.solve(A2[k], b2[k], solver="pgs", tol=1e-12)
        assert np.array_equal(_bits(s.x), _bits(r2.x[k])) and np.array_equal(_bits(s.x), _bits(again.x[k]))


def test_stack_friction_kinds_from_3d_arrays(gen):
    p = lcpsolve.read(gen("col3mu", "column", "--bodies", "3", "--mu", "0.5"))
    A, b, mu = p.A.toarray(), p.b, p.mu
    E = 6
    As, bs = np.stack([A] * E), np.stack([b * (1 + 0.1 * k) for k in range(E)])
    r = lcpsolve.solve_batch(As, b=bs, kind="fc3d", mu=np.stack([mu] * E), solver="nsgs", threads=2)
    assert isinstance(r, lcpsolve.StackResult) and r.solved == E
    for k in (0, E - 1):
        s = lcpsolve.solve(A, bs[k], kind="fc3d", mu=mu, solver="nsgs")
        assert np.array_equal(_bits(s.x), _bits(r.x[k]))
    # one row of mu for all
    r1 = lcpsolve.Stack(As, bs, kind="fc3d", mu=mu).solve(solver="nsgs")
    assert np.array_equal(_bits(r1.x), _bits(r.x))


def test_stack_bad_input(envs):
    _, problems, _ = envs
    other = lcpsolve.read(os.path.join(ROOT, "problems", "murty-8"))
    with pytest.raises(lcpsolve.InputError, match="one size"):
        lcpsolve.Stack([problems[0], other])
    with pytest.raises(TypeError, match="not a Problem"):
        lcpsolve.Stack([problems[0], "x"])
    A = np.stack([np.eye(3)] * 4)
    with pytest.raises(lcpsolve.InputError, match=r"b: has shape \(5,\), expected \(4, 3\)"):
        lcpsolve.Stack(A, np.ones(5))
    with pytest.raises(lcpsolve.InputError, match=r"b\[0, 0\] = nan is not finite"):
        lcpsolve.Stack(A, np.ones(3) * np.nan)  # one row for all
    st = lcpsolve.Stack(A, -np.ones((4, 3)))
    with pytest.raises(lcpsolve.InputError, match=r"values: has shape \(4, 2\), expected \(4, 3\)"):
        st.solve(solver="pgs", values=np.ones((4, 2)))
    bad = np.ones((4, 3))
    bad[2, 1] = np.inf
    with pytest.raises(lcpsolve.InputError, match=r"values\[2, 1\] = inf is not finite"):
        st.solve(solver="pgs", values=bad)
    with pytest.raises(lcpsolve.InputError, match="x0: has shape"):
        st.solve(solver="pgs", x0=np.zeros((3, 3)))
    # a factored problem changes through v and e, not the values of A: refused, each environment's error
    with pytest.raises(lcpsolve.InputError, match="problem 0: .*factored"):
        lcpsolve.Stack(problems[:3]).solve(solver="pgs", values=np.ones((3, problems[0].A.nnz)))
    twice = lcpsolve.Stack([problems[0], problems[0]])
    assert twice.solve(solver="pgs").solved == 2  # one handle twice: solved, not changed
    with pytest.raises(lcpsolve.InputError, match="more than once"):
        twice.solve(solver="pgs", b=np.zeros((2, problems[0].n)))
    r = st.solve(solver="pgs")  # still whole after the refusals
    assert r.solved == 4 and np.array_equal(r.x, np.ones((4, 3)))
