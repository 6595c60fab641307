"""Reference counts and memory stay flat over 100,000 small solves."""
import gc
import sys

import numpy as np

import lcpsolve


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def test_100000_small_solves_do_not_grow():
    A = np.array([[2.0, -1.0], [-1.0, 2.0]])
    b = np.array([-1.0, -1.0])
    p = lcpsolve.Problem.from_arrays(A, b)

    def round_(k):
        for i in range(k):
            if i % 2:
                r = lcpsolve.solve(A, b, solver="pgs")
            else:
                r = lcpsolve.solve(p, solver="pgs", max_iter=5)  # a limit: a status, the best iterate
            assert r.x.shape == (2,)

    round_(5000)  # warm up: the settings cache, the allocator's arenas
    gc.collect()
    refs = (sys.getrefcount(A), sys.getrefcount(b), sys.getrefcount(p))
    objects = len(gc.get_objects())
    before = rss_kib()
    round_(100000)
    gc.collect()
    grew = rss_kib() - before
    assert (sys.getrefcount(A), sys.getrefcount(b), sys.getrefcount(p)) == refs
    assert len(gc.get_objects()) - objects < 100
    # a leak of one result (two 2-vectors, its texts: ~2 KiB) a solve would be ~200 MiB here
    assert grew < 2048, f"RSS grew by {grew} KiB over 100,000 solves"


def test_batches_and_reads_do_not_grow():
    import os
    from conftest import ROOT
    path = os.path.join(ROOT, "problems", "murty-8")
    for _ in range(50):
        lcpsolve.solve_batch([lcpsolve.read(path)] * 20, solver="lemke", threads=2)
    gc.collect()
    before = rss_kib()
    for _ in range(400):
        r = lcpsolve.solve_batch([lcpsolve.read(path)] * 20, solver="lemke", threads=2)
        assert r.solved == 20
    gc.collect()
    grew = rss_kib() - before
    assert grew < 2048, f"RSS grew by {grew} KiB over 400 batches of 20 (a leaked result: ~16 MiB)"


def test_stacked_solves_do_not_grow():
    rng = np.random.default_rng(1)
    E, n = 64, 6
    G = rng.standard_normal((E, n, n))
    A = G @ G.transpose(0, 2, 1) + n * np.eye(n)
    b = rng.standard_normal((E, n))
    st = lcpsolve.Stack(A, b)
    V = np.ascontiguousarray(A.reshape(E, -1))  # every entry is in the pattern
    for _ in range(200):
        st.solve(solver="pgs", threads=1, values=V, b=b, max_iter=20)
    gc.collect()
    objects = len(gc.get_objects())
    before = rss_kib()
    for _ in range(1500):
        r = st.solve(solver="pgs", threads=1, values=V, b=b, max_iter=20)
        assert r.x.shape == (E, n) and (r.iterations <= 20).all()
    gc.collect()
    grew = rss_kib() - before
    assert len(gc.get_objects()) - objects < 100
    assert grew < 2048, f"RSS grew by {grew} KiB over 1,500 stacked solves of 64 (a leaked result each: ~50 MiB)"
