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
