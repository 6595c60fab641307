"""Shared by the tests of the Python package (tests/e2e/python.sh runs
them): the repository root, the binary, the public collections, and the
package from python/ of this tree (PYTHONPATH=python)."""
import os
import subprocess
import sys

# one BLAS thread, here and in the binary run from here: the solvers whose
# factorisations call threaded BLAS (nsn, prox through UMFPACK) give the same
# bits for the same thread count
os.environ["OPENBLAS_NUM_THREADS"] = "1"

import pytest  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
BIN = os.path.abspath(os.environ.get("LCPSOLVE", os.path.join(ROOT, "lcpsolve")))
DATA = os.environ.get("LCPSOLVE_DATA", os.path.join(ROOT, "..", "shared", "data"))
SICONOS = os.path.join(DATA, "siconos")


def run_bin(*args, check=True):
    """The command, from the repository root; its CompletedProcess."""
    p = subprocess.run([BIN, *map(str, args)], cwd=ROOT, capture_output=True, text=True)
    if check and p.returncode not in (0, 1):
        raise AssertionError(f"lcpsolve {' '.join(map(str, args))}: exit {p.returncode}: {p.stderr}")
    return p


def read_mtx_vector(path):
    """A Matrix Market array vector as the binary writes it (%.17g: exact)."""
    import numpy as np
    with open(path) as f:
        lines = [ln for ln in f if not ln.startswith("%")]
    n = int(lines[0].split()[0])
    return np.array([float(v) for v in lines[1:1 + n]])


@pytest.fixture(scope="session")
def gen(tmp_path_factory):
    """gen(name, *args): a problem folder made by `lcpsolve generate`, once."""
    base = tmp_path_factory.mktemp("gen")
    made = {}

    def make(name, *args):
        if name not in made:
            run_bin("generate", *args, "-o", base / name)
            made[name] = str(base / name)
        return made[name]
    return make
