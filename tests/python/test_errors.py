"""Bad input raises clear exceptions carrying the library's message."""
import os

import numpy as np
import pytest
import scipy.sparse as sp

import lcpsolve
from conftest import ROOT

A = np.array([[2.0, -1.0], [-1.0, 2.0]])


@pytest.mark.parametrize("args,exc,text", [
    ((np.ones((2, 3)), [1, 1]), lcpsolve.InputError, "square"),
    ((sp.csr_matrix(np.ones((2, 3))), [1, 1]), lcpsolve.InputError, "square"),
    ((np.ones(4), [1, 1]), lcpsolve.InputError, "square"),
    ((np.ones((2, 2, 2)), [1, 1]), lcpsolve.InputError, "square"),
    ((A, [1, 1, 1]), lcpsolve.InputError, "b: has 3 entries, expected 2"),
    ((A, [[1, 1]]), lcpsolve.InputError, "b: expected a vector"),
    ((np.array([[1.0, np.nan], [0, 1]]), [1, 1]), lcpsolve.InputError, "A[0, 1] = nan is not finite"),
    ((sp.csr_matrix(np.array([[1.0, 0], [np.inf, 1]])), [1, 1]), lcpsolve.InputError, "A[1, 0] = inf"),
    ((A, [1, np.nan]), lcpsolve.InputError, "b[1] = nan is not finite"),
    ((A.astype(complex), [1, 1]), TypeError, "complex128 is not a real number type"),
    ((np.array([["a", "b"], ["c", "d"]]), [1, 1]), TypeError, "is not a real number type"),
    ((A, np.array(["1", "2"])), TypeError, "b: dtype"),
    ((A > 0, [1, 1]), TypeError, "bool is not a real number type"),
    (("A.mtx", [1, 1]), TypeError, "A: expected a numpy array"),
    ((A, None), lcpsolve.InputError, "b: missing"),
])
def test_bad_arrays(args, exc, text):
    with pytest.raises(exc) as e:
        lcpsolve.solve(*args)
    assert text in str(e.value)


def test_input_error_is_a_value_error_with_the_exit_code():
    with pytest.raises(ValueError) as e:
        lcpsolve.solve(A, [1, 1], kind="nonsense")
    assert isinstance(e.value, lcpsolve.LcpsolveError) and e.value.code == 2 and "nonsense" in str(e.value)


def test_bad_options_carry_the_library_message():
    with pytest.raises(lcpsolve.InputError, match="tol"):
        lcpsolve.solve(A, [1, 1], tol=-1.0)
    with pytest.raises(lcpsolve.InputError, match="unknown option 'bogus-thing'"):
        lcpsolve.solve(A, [1, 1], bogus_thing=3)
    with pytest.raises(lcpsolve.InputError, match="nosuch"):
        lcpsolve.solve(A, [1, 1], solver="nosuch")
    with pytest.raises(lcpsolve.InputError, match="refused|output|command"):
        lcpsolve.solve(A, [1, 1], output="x.mtx")
    with pytest.raises(TypeError, match="not a number, string or bool"):
        lcpsolve.solve(A, [1, 1], max_iter=[3])
    with pytest.raises(lcpsolve.InputError, match="x0: has 3 entries"):
        lcpsolve.solve(A, [1, 1], x0=[0, 0, 0])
    with pytest.raises(lcpsolve.InputError):  # a friction kind without mu: the library's check
        lcpsolve.solve(np.eye(3), [1, 1, 1], kind="fc3d")


def test_a_bad_file_names_the_file_and_line(tmp_path):
    d = tmp_path / "bad"
    d.mkdir()
    (d / "A.mtx").write_text("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 2.0\n2 x 1.0\n")
    (d / "b.mtx").write_text("%%MatrixMarket matrix array real general\n2 1\n-1\n-1\n")
    with pytest.raises(lcpsolve.InputError) as e:
        lcpsolve.read(str(d))
    assert f"{d}/A.mtx:4" in str(e.value), str(e.value)
    with pytest.raises(lcpsolve.InputError, match="nowhere"):
        lcpsolve.read(str(tmp_path / "nowhere"))


def test_bad_scene_and_batch_arguments():
    with pytest.raises(lcpsolve.InputError, match="nosuchscene"):
        lcpsolve.generate("nosuchscene")
    with pytest.raises(lcpsolve.InputError, match="base"):
        lcpsolve.generate("pyramid", base=-3)
    with pytest.raises(TypeError, match="problems\\[1\\]"):
        lcpsolve.solve_batch([lcpsolve.read(os.path.join(ROOT, "problems", "murty-8")), "x"])
    with pytest.raises(lcpsolve.InputError, match="3-d"):
        lcpsolve.solve_batch(np.ones((2, 2)), b=np.ones(2))
    with pytest.raises(lcpsolve.InputError, match="b has shape"):
        lcpsolve.solve_batch(np.ones((3, 2, 2)), b=np.ones((3, 3)))
