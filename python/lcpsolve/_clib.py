"""The C library (liblcpsolve) through ctypes: where it is found, and the
signatures of the calls of include/lcpsolve.h the package uses."""
import ctypes
import glob
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def _candidates():
    env = os.environ.get("LCPSOLVE_LIB")
    if env:
        yield env
        return
    try:  # written by `make install`: the LIBDIR the library went to
        from ._install import LIBDIR
        yield os.path.join(LIBDIR, "liblcpsolve.so.0")
    except ImportError:
        pass
    # the build tree: python/lcpsolve/ beside build/
    for p in sorted(glob.glob(os.path.join(_HERE, "..", "..", "build", "liblcpsolve.so.*")), reverse=True):
        yield p
    yield "liblcpsolve.so.0"  # the dynamic loader's search path


def _load():
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append(f"{path} ({e})")
    raise ImportError("lcpsolve: cannot load liblcpsolve: tried " + "; ".join(tried) +
                      " (build it with make, or set LCPSOLVE_LIB to the .so)")


lib, path = _load()

c_int, c_double, c_char_p, c_void_p, c_size_t = (ctypes.c_int, ctypes.c_double, ctypes.c_char_p,
                                                  ctypes.c_void_p, ctypes.c_size_t)
P = ctypes.POINTER


class Result(ctypes.Structure):
    _fields_ = [("status", c_int), ("iterations", c_int), ("time_s", c_double), ("residual", c_double),
                ("complementarity", c_double), ("feasibility", c_double), ("solver", c_char_p),
                ("precond", c_char_p), ("n", c_int), ("x", c_void_p), ("w", c_void_p),
                ("message", c_char_p), ("auto_reason", c_char_p), ("components", c_int), ("omega", c_double),
                ("internal_", c_void_p)]


class Iteration(ctypes.Structure):
    _fields_ = [("iteration", c_int), ("time_s", c_double), ("residual", c_double),
                ("complementarity", c_double), ("feasibility", c_double), ("nextra", c_int),
                ("extra_names", P(c_char_p)), ("extra", P(c_double))]


class StopFd(ctypes.Structure):
    _fields_ = [("fd", c_int), ("signum", c_int), ("stopped", c_int), ("started_", c_int), ("next_s_", c_double)]


ON_ITERATION = ctypes.CFUNCTYPE(c_int, c_void_p, P(Iteration))


def _sig(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = argtypes
    return f


ERR = (c_char_p, c_size_t)
version = _sig("lcps_version", c_char_p)
status_name = _sig("lcps_status_name", c_char_p, c_int)
status_exit_code = _sig("lcps_status_exit_code", c_int, c_int)
problem_csr = _sig("lcps_problem_csr", c_int, c_char_p, c_int, c_void_p, c_void_p, c_void_p, c_void_p,
                   P(c_void_p), *ERR)
problem_read = _sig("lcps_problem_read", c_int, c_char_p, P(c_void_p), *ERR)
problem_generate = _sig("lcps_problem_generate", c_int, c_char_p, P(c_char_p), P(c_void_p), *ERR)
problem_set_vector = _sig("lcps_problem_set_vector", c_int, c_void_p, c_char_p, c_void_p, c_int, *ERR)
problem_set_findex = _sig("lcps_problem_set_findex", c_int, c_void_p, c_void_p, c_int, *ERR)
problem_update = _sig("lcps_problem_update", c_int, c_void_p, c_void_p, c_void_p, *ERR)
problem_write = _sig("lcps_problem_write", c_int, c_void_p, c_char_p, *ERR)
problem_n = _sig("lcps_problem_n", c_int, c_void_p)
problem_kind = _sig("lcps_problem_kind", c_char_p, c_void_p)
problem_free = _sig("lcps_problem_free", None, c_void_p)
problem_matrix = _sig("lcps_problem_matrix", c_int, c_void_p, c_char_p, P(c_int), P(c_int), P(P(c_int)),
                      P(P(c_int)), P(P(c_double)), *ERR)
problem_vector = _sig("lcps_problem_vector", c_int, c_void_p, c_char_p, P(P(c_double)), P(c_int), *ERR)
problem_findex = _sig("lcps_problem_findex", c_int, c_void_p, P(P(c_int)), P(c_int), *ERR)
settings_new = _sig("lcps_settings_new", c_void_p)
settings_free = _sig("lcps_settings_free", None, c_void_p)
settings_set = _sig("lcps_settings_set", c_int, c_void_p, c_char_p, c_char_p, *ERR)
settings_on_iteration = _sig("lcps_settings_on_iteration", c_int, c_void_p, c_void_p, c_void_p)
solve = _sig("lcps_solve", c_int, c_void_p, c_void_p, c_void_p, P(Result), *ERR)
solve_batch = _sig("lcps_solve_batch", c_int, c_void_p, c_int, c_void_p, c_void_p, c_int, P(Result), *ERR)
result_free = _sig("lcps_result_free", None, P(Result))
solve_stacked = _sig("lcps_solve_stacked", c_int, c_void_p, c_int, c_void_p, ctypes.c_long, c_void_p, c_void_p,
                     c_void_p, c_int, c_void_p, c_void_p, c_void_p, c_void_p, *ERR)
results_x = _sig("lcps_results_x", ctypes.c_long, c_void_p, c_int, c_void_p)
solver_names = _sig("lcps_solver_names", P(c_char_p))
solver_info = _sig("lcps_solver_info", c_int, c_char_p, c_char_p, c_size_t, P(P(c_char_p)), P(c_char_p))
option_read_by = _sig("lcps_option_read_by", c_int, c_char_p, c_char_p)
option_info = _sig("lcps_option_info", c_int, c_int, P(c_char_p), P(c_char_p), P(c_char_p))
stop_on_fd = ctypes.cast(lib.lcps_stop_on_fd, c_void_p).value
# derivatives of a solution (src/diff/; lcpsolve._diff)
diff_new = _sig("lcps_diff_new", c_int, c_void_p, c_void_p, P(Result), P(c_void_p), *ERR)
diff_len = _sig("lcps_diff_len", c_int, c_void_p, c_char_p)
diff_degenerate = _sig("lcps_diff_degenerate", c_int, c_void_p, c_void_p)
jvp = _sig("lcps_jvp", c_int, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, *ERR)
vjp = _sig("lcps_vjp", c_int, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, *ERR)
jvp_factored = _sig("lcps_jvp_factored", c_int, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p,
                    c_void_p, *ERR)
vjp_factored = _sig("lcps_vjp_factored", c_int, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p,
                    c_void_p, *ERR)
diff_free = _sig("lcps_diff_free", None, c_void_p)
