"""lcpsolve for Python: contact problems (lcp, blcp, ccp, fc3d) from numpy
and scipy.sparse arrays or files, solved and verified by liblcpsolve (the C
library of the lcpsolve command, through ctypes: the same pipeline, the same
bits).  The reference is docs/python.md.

    import numpy as np, lcpsolve
    r = lcpsolve.solve(np.array([[2., -1], [-1, 2]]), [-1, -1], solver="pgs")
    r.x, r.status, r.residual
"""
import ctypes
import os
import signal
import threading
import time

import numpy as np

from . import _clib

__all__ = ["solve", "solve_batch", "read", "generate", "solvers", "options", "Problem", "Result",
           "BatchResult", "Stack", "StackResult", "LcpsolveError", "InputError", "SolverInfo", "OptionInfo", "version", "library_path"]

version = _clib.version().decode()
library_path = _clib.path
_ERRLEN = 1024
STATUSES = tuple(_clib.status_name(k).decode() for k in range(8))
_EXIT_CODES = np.array([_clib.status_exit_code(k) for k in range(9)], dtype=np.int32)


class LcpsolveError(Exception):
    """An error of the library: .code is the lcpsolve command's exit code
    for it (2 input or usage error, 5 out of memory or internal error)."""

    def __init__(self, message, code=5):
        super().__init__(message)
        self.code = code


class InputError(LcpsolveError, ValueError):
    """Bad input (exit code 2): a file, an array, an option."""

    def __init__(self, message, code=2):
        super().__init__(message, code)


def _raise(rc, err):
    msg = err.value.decode(errors="replace") if err is not None else ""
    if rc == 2:
        raise InputError(msg)
    raise LcpsolveError(msg or "error", rc)


def _call(fn, *args):
    err = ctypes.create_string_buffer(_ERRLEN)
    rc = fn(*args, err, _ERRLEN)
    if rc:
        _raise(rc, err)


def _opt_value(name, v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, (int, np.integer, np.floating)):
        return repr(float(v)) if isinstance(v, np.floating) else str(int(v))
    if isinstance(v, str):
        return v
    raise TypeError(f"option {name}: {v!r} is not a number, string or bool")


def _opt_name(k):
    return k.replace("_", "-")


# ---- arrays in ------------------------------------------------------------

def _vector(name, v, n=None, dtype=np.float64):
    if isinstance(v, (str, bytes)):
        raise TypeError(f"{name}: expected an array of numbers, got {type(v).__name__}")
    a = np.asarray(v)
    if a.dtype.kind not in "iuf" or a.dtype == np.float16:
        raise TypeError(f"{name}: dtype {a.dtype} is not a real number type (float64, float32 or integer)")
    if a.ndim != 1:
        raise InputError(f"{name}: expected a vector (1-d), got shape {a.shape}")
    if n is not None and a.shape[0] != n:
        raise InputError(f"{name}: has {a.shape[0]} entries, expected {n}")
    a = np.ascontiguousarray(a, dtype=dtype)
    if dtype == np.float64 and not np.isfinite(a).all() and name not in ("lo", "hi"):
        i = int(np.flatnonzero(~np.isfinite(a))[0])
        raise InputError(f"{name}[{i}] = {a[i]} is not finite")
    if dtype == np.float64 and name in ("lo", "hi") and np.isnan(a).any():
        i = int(np.flatnonzero(np.isnan(a))[0])
        raise InputError(f"{name}[{i}] is NaN")
    return a


def _csr(A):
    """A as CSR arrays (rowptr, col, val: int32, int32, float64, C order),
    n; scipy's own arrays where they are already of those types."""
    try:
        import scipy.sparse as sp
    except ImportError:  # pragma: no cover
        sp = None
    if sp is not None and sp.issparse(A):
        if A.ndim != 2 or A.shape[0] != A.shape[1]:
            raise InputError(f"A: must be square, got shape {A.shape}")
        if A.dtype.kind not in "iuf" or A.dtype == np.float16:
            raise TypeError(f"A: dtype {A.dtype} is not a real number type (float64, float32 or integer)")
        M = A if A.format == "csr" else A.tocsr()
        rowptr = np.ascontiguousarray(M.indptr, dtype=np.int32)
        col = np.ascontiguousarray(M.indices, dtype=np.int32)
        val = np.ascontiguousarray(M.data, dtype=np.float64)
        if not np.isfinite(val).all():
            k = int(np.flatnonzero(~np.isfinite(val))[0])
            i = int(np.searchsorted(rowptr, k, side="right") - 1)
            raise InputError(f"A[{i}, {int(col[k])}] = {val[k]} is not finite")
        return rowptr, col, val, A.shape[0]
    if isinstance(A, (str, bytes)):
        raise TypeError(f"A: expected a numpy array or scipy.sparse matrix, got {type(A).__name__}")
    a = np.asarray(A)
    if a.dtype.kind not in "iuf" or a.dtype == np.float16:
        raise TypeError(f"A: dtype {a.dtype} is not a real number type (float64, float32 or integer)")
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise InputError(f"A: must be a square matrix, got shape {a.shape}")
    if not np.isfinite(a).all():
        i, j = (int(t) for t in np.argwhere(~np.isfinite(a))[0])
        raise InputError(f"A[{i}, {j}] = {a[i, j]} is not finite")
    mask = a != 0
    rowptr = np.zeros(a.shape[0] + 1, dtype=np.int32)
    np.cumsum(mask.sum(axis=1), out=rowptr[1:])
    col = np.nonzero(mask)[1].astype(np.int32)
    val = np.ascontiguousarray(a[mask], dtype=np.float64)
    return rowptr, col, val, a.shape[0]


def _issparse(A):
    try:
        import scipy.sparse as sp
    except ImportError:  # pragma: no cover
        return False
    return sp.issparse(A)


def _ptr(a):
    return a.ctypes.data if a is not None else None


# ---- problems -------------------------------------------------------------

class Problem:
    """A problem held by the library: from arrays (Problem.from_arrays, or
    solve()), a file (read) or a scene (generate).  A, b, mu, lo, hi,
    findex, e, and of a factored problem M, J, v, are copies as numpy
    arrays and scipy.sparse CSR matrices (None where absent)."""

    __slots__ = ("_h", "_pattern", "__weakref__")

    def __init__(self, handle, pattern=None):
        self._h = handle
        self._pattern = pattern  # (rowptr, col, n, dense) of A as given (from_arrays): the order of its values

    def __del__(self):
        h, self._h = getattr(self, "_h", None), None
        if h:
            _clib.problem_free(h)

    @classmethod
    def from_arrays(cls, A, b, kind="lcp", mu=None, lo=None, hi=None, findex=None):
        if not isinstance(kind, str):
            raise TypeError(f"kind: expected a string (lcp, blcp, ccp, fc3d), got {type(kind).__name__}")
        rowptr, col, val, n = _csr(A)
        if b is None:
            raise InputError("b: missing (n values)")
        b = _vector("b", b, n)
        h = ctypes.c_void_p()
        _call(_clib.problem_csr, kind.encode(), n, rowptr.ctypes.data, col.ctypes.data, _ptr(val),
              b.ctypes.data, ctypes.byref(h))
        p = cls(h.value, (rowptr.copy(), col.copy(), n, not _issparse(A)))
        if mu is not None:
            m = _vector("mu", np.atleast_1d(mu))
            _call(_clib.problem_set_vector, p._h, b"mu", _ptr(m), m.shape[0])
        for name, v in (("lo", lo), ("hi", hi)):
            if v is not None:
                a = _vector(name, v, n)
                _call(_clib.problem_set_vector, p._h, name.encode(), _ptr(a), n)
        if findex is not None:
            f = np.asarray(findex)
            if f.dtype.kind not in "iu":
                raise TypeError(f"findex: dtype {f.dtype} is not an integer type")
            f = _vector("findex", f, n, dtype=np.int32)
            _call(_clib.problem_set_findex, p._h, _ptr(f), n)
        return p

    @property
    def n(self):
        return _clib.problem_n(self._h)

    @property
    def kind(self):
        return _clib.problem_kind(self._h).decode()

    def _matrix(self, name):
        import scipy.sparse as sp
        rows, cols = ctypes.c_int(), ctypes.c_int()
        rp, cj = ctypes.POINTER(ctypes.c_int)(), ctypes.POINTER(ctypes.c_int)()
        vx = ctypes.POINTER(ctypes.c_double)()
        err = ctypes.create_string_buffer(_ERRLEN)
        rc = _clib.problem_matrix(self._h, name.encode(), ctypes.byref(rows), ctypes.byref(cols), ctypes.byref(rp),
                                  ctypes.byref(cj), ctypes.byref(vx), err, _ERRLEN)
        if rc:
            if name != "A" and b"no " in err.value:
                return None
            _raise(rc, err)
        m = rows.value
        indptr = np.ctypeslib.as_array(rp, (m + 1,)).copy()
        nnz = int(indptr[-1])
        indices = np.ctypeslib.as_array(cj, (nnz,)).copy() if nnz else np.zeros(0, np.int32)
        data = np.ctypeslib.as_array(vx, (nnz,)).copy() if nnz else np.zeros(0)
        return sp.csr_matrix((data, indices, indptr), shape=(m, cols.value))

    def _vec(self, name):
        v, n = ctypes.POINTER(ctypes.c_double)(), ctypes.c_int()
        _call(_clib.problem_vector, self._h, name.encode(), ctypes.byref(v), ctypes.byref(n))
        return np.ctypeslib.as_array(v, (n.value,)).copy() if n.value else None

    A = property(lambda self: self._matrix("A"), doc="A (scipy.sparse CSR, a copy)")
    M = property(lambda self: self._matrix("M"), doc="the mass matrix of a factored problem, else None")
    J = property(lambda self: self._matrix("J"), doc="the contact Jacobian of a factored problem, else None")
    b = property(lambda self: self._vec("b"))
    mu = property(lambda self: self._vec("mu"))
    lo = property(lambda self: self._vec("lo"))
    hi = property(lambda self: self._vec("hi"))
    e = property(lambda self: self._vec("e"))
    v = property(lambda self: self._vec("v"))

    @property
    def findex(self):
        f, n = ctypes.POINTER(ctypes.c_int)(), ctypes.c_int()
        _call(_clib.problem_findex, self._h, ctypes.byref(f), ctypes.byref(n))
        return np.ctypeslib.as_array(f, (n.value,)).copy() if n.value else None

    def write(self, path):
        """Writes the problem as a folder of Matrix Market files (A.mtx,
        b.mtx, ..., problem.json), which read() and the command read back."""
        _call(_clib.problem_write, self._h, os.fsencode(path))

    def update(self, values=None, b=None):
        """New values of A and/or b, the pattern kept (the library's update
        path, lcps_problem_update: a time step whose contacts persist).
        values: one per entry of A, in the order of the A given to
        from_arrays (its CSR entries; a dense A's nonzeros row by row), of a
        problem read or generated in the order of its A's CSR entries (rows
        ascending, columns ascending within a row); b: n values.  The
        set-up the solves keep for the pattern stays, and with the solver
        auto the choice of the last solve (Result.auto_reason says so)."""
        nval = int(self._pattern[0][-1]) if self._pattern is not None else (
            self.A.nnz if values is not None else 0)
        v = _vector("values", values, nval) if values is not None else None
        bb = _vector("b", b, self.n) if b is not None else None
        _call(_clib.problem_update, self._h, _ptr(v), _ptr(bb))
        return self

    def solve(self, solver="auto", tol=1e-8, x0=None, trace=False, **options):
        """solve(self, ...): see lcpsolve.solve."""
        return _solve(self, solver, tol, x0, trace, options)

    def __repr__(self):
        return f"<lcpsolve.Problem {self.kind} n={self.n}>"


def read(path):
    """A problem from any file or folder the lcpsolve command reads: a folder
    of Matrix Market files, .json, Siconos .dat, FCLIB .hdf5.  Errors
    (InputError) name the file and the line."""
    h = ctypes.c_void_p()
    _call(_clib.problem_read, os.fsencode(path), ctypes.byref(h))
    return Problem(h.value)


def generate(scene, **params):
    """A scene as `lcpsolve generate SCENE --name value ...` makes it:
    generate("pyramid", base=10, mu=0.5); underscores in names are hyphens."""
    args = []
    for k, v in params.items():
        args += [_opt_name(k).encode(), _opt_value(k, v).encode()]
    arr = (ctypes.c_char_p * (len(args) + 1))(*args, None)
    h = ctypes.c_void_p()
    _call(_clib.problem_generate, scene.encode(), arr, ctypes.byref(h))
    return Problem(h.value)


# ---- settings -------------------------------------------------------------

class _Settings:
    """A settings handle; in the main thread it carries the Ctrl-C stop
    (lcps_stop_on_fd on the wakeup pipe, see _wakeup_fd)."""
    __slots__ = ("h", "stop", "scratch")

    def __init__(self, key, main):
        self.stop = None
        # (result struct, its byref, error buffer) for the plain solves of this
        # thread (the settings are kept per thread); None while one is in use
        r = _clib.Result()
        self.scratch = (r, ctypes.byref(r), ctypes.create_string_buffer(_ERRLEN), _struct_view(r))
        self.h = _clib.settings_new()
        if not self.h:
            raise MemoryError("lcps_settings_new")
        try:
            for name, value in key:
                _call(_clib.settings_set, self.h, name.encode(), value.encode())
        except BaseException:
            _clib.settings_free(self.h)
            self.h = None
            raise
        fd = _wakeup_fd() if main else -1
        if fd >= 0:
            self.stop = _clib.StopFd(fd, int(signal.SIGINT), 0, 0, 0.0)
            _clib.settings_on_iteration(self.h, _clib.stop_on_fd, ctypes.addressof(self.stop))

    def __del__(self):
        if self.h:
            _clib.settings_free(self.h)
            self.h = None


_local = threading.local()
_MAIN = threading.main_thread().ident
_wakeup = [None]  # the read end of our wakeup pipe, -1 where another one is in place


def _wakeup_fd():
    """Ctrl-C during a solve: Python's own signal handler writes the signal's
    number to the wakeup fd (signal.set_wakeup_fd) even while the library
    runs; lcps_stop_on_fd reads it there and stops the solve with its best
    iterate.  Set once, in the main thread, where no other wakeup fd (an
    event loop's) is set; the read end, or -1."""
    if _wakeup[0] is None:
        _wakeup[0] = -1
        rfd, wfd = os.pipe()
        os.set_blocking(rfd, False)
        os.set_blocking(wfd, False)
        try:
            old = signal.set_wakeup_fd(wfd, warn_on_full_buffer=False)
        except (ValueError, OSError):
            old = None
        if old == -1:
            _wakeup[0] = rfd
        else:
            if old is not None:
                signal.set_wakeup_fd(old)
            os.close(rfd)
            os.close(wfd)
    return _wakeup[0]


def _settings(solver, tol, options):
    """The settings handle of these options, kept (per thread) for the next
    solve with the same ones."""
    cache = getattr(_local, "settings", None)
    if cache is None:
        cache = _local.settings = {}
    try:
        quick = (solver, tol, type(tol)) + tuple(options.items())
        s = cache.get(quick)
    except TypeError:  # an unhashable value: its message comes from _opt_value below
        quick, s = None, None
    if s is not None:
        return s
    key = [("solver", solver if isinstance(solver, str) else _opt_value("solver", solver)),
           ("tol", _opt_value("tol", tol))]
    for k, v in options.items():
        if v is not None:
            key.append((_opt_name(k), _opt_value(k, v)))
    s = _Settings(tuple(key), threading.get_ident() == _MAIN)
    if len(cache) >= 64:
        cache.clear()
    if quick is not None:
        cache[quick] = s
    return s


# ---- results --------------------------------------------------------------

class Result:
    """What a solve gave.  x (the answer, or the best iterate), w = A x + b,
    status ("solved", "max_iter", ...; STATUSES), exit_code (the command's),
    iterations, residual, complementarity, feasibility (verified, recomputed
    from x), solver, precond, time_s, message, auto_reason, components,
    omega, interrupted (stopped by Ctrl-C), trace (None unless asked)."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    @property
    def converged(self):
        return self.status == "solved"

    def jvp(self, dA=None, db=None, dmu=None, dM=None, dJ=None, dv=None, de=None, dlo=None, dhi=None):
        """The derivative of x along (dA, db, dmu; a blcp's bounds dlo, dhi),
        or of a factored problem along (dM, dJ, dv, de, dmu): exact where
        the solution is differentiable, one-sided on the degenerate rows,
        of minimal norm where the solution is not unique (docs/python.md).
        dA: as A was given (dense, or scipy.sparse read at A's pattern), or
        its values in the order of A's entries."""
        from . import _diff
        return _diff.jvp(self, dA, db, dmu, dM, dJ, dv, de, dlo, dhi)

    def vjp(self, g):
        """The gradients of <g, x> with respect to the data: a dict with "A"
        (in the shape A was given), "b", "mu", "lo", "hi" (a blcp's bounds),
        and of a factored problem "M", "J", "v", "e".  One transposed solve with the factorisation the first
        jvp or vjp made."""
        from . import _diff
        return _diff.vjp(self, g)

    @property
    def degenerate(self):
        """The rows whose derivative is one-sided (a boolean array)."""
        from . import _diff
        return _diff.degenerate(self)

    @property
    def minimum_norm(self):
        """0: the derivative is unique; k > 0: the Jacobian is singular (the
        solution is not unique) and jvp, vjp give the derivative of minimal
        norm, leaving out a null space of dimension k."""
        from . import _diff
        return _diff.minimum_norm(self)

    def __repr__(self):
        return (f"<lcpsolve.Result {self.status} solver={self.solver} iterations={self.iterations} "
                f"residual={self.residual:.3e}>")


_TRACE_BASE = [("iteration", np.int32), ("time_s", np.float64), ("residual", np.float64),
               ("complementarity", np.float64), ("feasibility", np.float64)]


_DOUBLES = {}  # n -> the ctypes type of n doubles


def _copy(addr, n):
    """n doubles at addr, copied into a new numpy array."""
    if not (addr and n):
        return np.zeros(n)
    t = _DOUBLES.get(n)
    if t is None:
        t = _DOUBLES[n] = ctypes.c_double * n
    return np.frombuffer(t.from_address(addr)).copy()


_EXIT_CODE = tuple(int(c) for c in _EXIT_CODES)
_NAMES = {}  # the solver and preconditioner names (static strings of the library), decoded once
_RESULT_KEYS = ("x", "w", "status", "exit_code", "iterations", "residual", "complementarity", "feasibility",
                "solver", "precond", "time_s", "message", "auto_reason", "components", "omega", "interrupted",
                "trace")


def _name(bs):
    v = _NAMES.get(bs)
    if v is None:
        v = _NAMES[bs] = (bs or b"").decode()
    return v


def _result(r, trace_rows=None, trace_mode=False, interrupted=False):
    trace = None
    if trace_mode:
        if trace_mode == "rows":
            trace = trace_rows
        else:
            names = trace_rows.names
            dt = np.dtype(_TRACE_BASE + [(nm, np.float64) for nm in names])
            trace = np.array([tuple(row) + (np.nan,) * (len(dt) - len(row)) for row in trace_rows], dtype=dt)
    return _result_of(r, _struct_view(r).item(), interrupted, trace)


def _struct_view(r):
    """A numpy view of the numbers of one result struct (read with .item():
    one call for them all)."""
    return np.frombuffer(r, dtype=_ONE_DTYPE, count=1)


def _result_of(r, v, interrupted=False, trace=None):
    """The Result of struct r, v its numbers (_ONE_FIELDS)."""
    st, iterations, time_s, residual, compl, feas, n, xa, wa, components, omega = v
    msg, why = r.message, r.auto_reason
    ok = 0 <= st < 8
    res = _new(Result)
    res.__dict__ = {"x": _copy(xa, n), "w": _copy(wa, n), "status": STATUSES[st] if ok else "unknown",
                    "exit_code": _EXIT_CODE[st if ok else 8], "iterations": iterations, "residual": residual,
                    "complementarity": compl, "feasibility": feas, "solver": _name(r.solver),
                    "precond": _name(r.precond), "time_s": time_s,
                    "message": msg.decode(errors="replace") if msg else "",
                    "auto_reason": why.decode(errors="replace") if why else "", "components": components,
                    "omega": omega, "interrupted": interrupted, "trace": trace}
    return res


_new = object.__new__
_ONE_FIELDS = ("status", "iterations", "time_s", "residual", "complementarity", "feasibility", "n", "x", "w",
               "components", "omega")
_ONE_DTYPE = np.dtype({"names": list(_ONE_FIELDS),
                       "formats": [np.int32, np.int32] + [np.float64] * 4 + [np.int32, np.uint64, np.uint64,
                                                                             np.int32, np.float64],
                       "offsets": [getattr(_clib.Result, f).offset for f in _ONE_FIELDS],
                       "itemsize": ctypes.sizeof(_clib.Result)})


class _TraceRows(list):
    names = ()


# ---- solving --------------------------------------------------------------

class _TraceInterrupt:
    """trace=True in the main thread: the Python callback runs in the
    interpreter, where Python's default SIGINT handler would raise inside
    it (and ctypes would swallow the exception); while the solve runs,
    SIGINT only notes itself, and the callback stops the solve."""

    def __init__(self):
        self.hit = False
        self.old = None

    def _note(self, signum, frame):
        self.hit = True

    def __enter__(self):
        if threading.get_ident() == _MAIN and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self.old = signal.signal(signal.SIGINT, self._note)
        return self

    def __exit__(self, *exc):
        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)
        return False


def _solve(problem, solver, tol, x0, trace, options):
    s = _settings(solver, tol, options)
    x0a = None if x0 is None else _vector("x0", x0, problem.n)
    if trace:
        return _solve_traced(problem, s, x0a, trace, _clib.Result(), ctypes.create_string_buffer(_ERRLEN))
    scratch = s.scratch
    if scratch is None:  # in use below us (a signal handler's solve): a struct of its own
        r = _clib.Result()
        rref, err, view = ctypes.byref(r), ctypes.create_string_buffer(_ERRLEN), _struct_view(r)
    else:
        s.scratch = None
        r, rref, err, view = scratch
    stop = s.stop
    if stop is not None:
        stop.stopped = stop.started_ = 0
    res = None
    try:
        try:
            rc = _clib.solve(problem._h, s.h, None if x0a is None else x0a.ctypes.data, rref, err, _ERRLEN)
            if rc and rc in (2, 5) and not r.x:
                _raise(rc, err)
            res = _result_of(r, view.item())
        except KeyboardInterrupt:  # Python's handler, after a Ctrl-C that stopped the solve
            if stop is None or not stop.stopped:  # (rc may be unset: raised as the call returned)
                raise
        if res is None:
            res = _result_of(r, view.item())
        if stop is not None and stop.stopped:
            res.interrupted = True
    finally:
        _clib.result_free(rref)
        if scratch is not None:
            s.scratch = scratch
    d = res.__dict__
    d["_problem"] = problem  # for its derivatives (Result.jvp, vjp)
    d["_settings"] = s
    return res


def _solve_traced(problem, s, x0a, trace, r, err):
    rows = _TraceRows()
    with _TraceInterrupt() as intr:
        def on_iteration(ctx, rp):
            row = rp[0]
            if row.iteration >= 0:
                if row.nextra and not rows.names:
                    rows.names = tuple(row.extra_names[k].decode() for k in range(row.nextra))
                rows.append((row.iteration, row.time_s, row.residual, row.complementarity, row.feasibility)
                            + tuple(row.extra[k] for k in range(row.nextra)))
            return 1 if intr.hit else 0

        cb = _clib.ON_ITERATION(on_iteration)
        _clib.settings_on_iteration(s.h, ctypes.cast(cb, ctypes.c_void_p), None)
        try:
            rc = _clib.solve(problem._h, s.h, _ptr(x0a), ctypes.byref(r), err, _ERRLEN)
        finally:  # back to the settings' own callback (the Ctrl-C stop) or none
            if s.stop is not None:
                _clib.settings_on_iteration(s.h, _clib.stop_on_fd, ctypes.addressof(s.stop))
            else:
                _clib.settings_on_iteration(s.h, None, None)
    try:
        if rc in (2, 5) and not r.x:
            _raise(rc, err)
        res = _result(r, rows, "rows" if trace == "rows" else True, interrupted=intr.hit)
    finally:
        _clib.result_free(ctypes.byref(r))
    if intr.hit and res.status != "time_limit":  # Ctrl-C came, but the solve ended on its own
        raise KeyboardInterrupt
    res._problem, res._settings = problem, s
    return res


def solve(A, b=None, kind="lcp", solver="auto", tol=1e-8, x0=None, mu=None, lo=None, hi=None, findex=None,
          trace=False, **options):
    """Solves w = A x + b, x >= 0, w >= 0, x'w = 0 (kind "lcp"; "blcp" with
    lo, hi, findex, mu; "ccp" and "fc3d" with mu, one a contact) through the
    pipeline of the lcpsolve command.  A: scipy.sparse or a dense numpy
    array, or a Problem (read, generate; then b and the rest are its own).
    options: any long option of the command (max_iter=100, precond="diag",
    omega="auto", ...; underscores are hyphens).  trace=True: result.trace
    as a numpy structured array (one row an iterate), trace="rows": a list of
    tuples.  Returns a Result; a solve that stops short (max_iter, ...) is a
    status, not an exception; bad input raises InputError."""
    if A.__class__ is Problem or isinstance(A, Problem):
        if b is not None or mu is not None or lo is not None or hi is not None or findex is not None:
            raise InputError("solve(problem, ...): b, mu, lo, hi and findex are the problem's own")
        return _solve(A, solver, tol, x0, trace, options)
    p = Problem.from_arrays(A, b, kind, mu, lo, hi, findex)
    return _solve(p, solver, tol, x0, trace, options)


class BatchResult:
    """The answers of solve_batch: len(), [k] (a Result), x (a list of arrays,
    or one 2-d array when every problem has the same n), status (array of
    names), exit_codes, iterations, residual (arrays), solve_s (the wall time
    of the library's batched call), env_steps_per_s, exit_code (the worst,
    by lcpsolve batch's precedence)."""

    def __init__(self, fields, x, solve_s, exit_code, threads):
        self._f = fields
        self.x = x
        self.solve_s = solve_s
        self.exit_code = exit_code
        self.threads = threads
        self.env_steps_per_s = len(fields["status"]) / solve_s if solve_s > 0 else float("inf")
        for k, v in fields.items():
            setattr(self, k, v)

    def __len__(self):
        return len(self._f["status"])

    def __getitem__(self, k):
        f = self._f
        return Result(x=self.x[k], status=f["status"][k], exit_code=int(f["exit_codes"][k]),
                      iterations=int(f["iterations"][k]), residual=float(f["residual"][k]),
                      complementarity=float(f["complementarity"][k]), feasibility=float(f["feasibility"][k]),
                      solver=f["solver"][k], precond=f["precond"][k], time_s=float(f["time_s"][k]),
                      message=f["message"][k], auto_reason="", components=1, omega=0.0, interrupted=False,
                      trace=None, w=None)

    @property
    def solved(self):
        return int(np.count_nonzero(self.status == "solved"))


def solve_batch(problems, b=None, kind="lcp", solver="auto", tol=1e-8, x0=None, threads=None, mu=None, **options):
    """Solves many problems at once on the library's batched path
    (lcps_solve_batch: `threads` problems at a time, each on one thread, the
    GIL released), as `lcpsolve batch -j threads` does.  problems: a list of
    Problem objects, or stacked equal-size environments (a 3-d array
    (E, n, n) with b (E, n), mu (E, ...) for friction kinds: the stacked
    path, Stack(A, b, kind, mu).solve(...), one C call into stacked arrays,
    a StackResult).  x0: None, or one start a problem ((E, n) stacked).
    threads: default os.cpu_count().  Returns a BatchResult."""
    if isinstance(problems, Problem):
        raise TypeError("solve_batch: a list of problems (or stacked arrays), not one Problem")
    if not isinstance(problems, (list, tuple)):
        A = np.asarray(problems)
        if A.ndim != 3:
            raise InputError(f"solve_batch: stacked A must be 3-d (environments, n, n), got shape {A.shape}")
        if b is None:
            raise InputError("solve_batch: stacked A needs b (environments, n)")
        if np.shape(b) != A.shape[:2]:
            raise InputError(f"solve_batch: b has shape {np.shape(b)}, expected {A.shape[:2]}")
        return Stack(A, b, kind, mu).solve(solver, tol, x0, threads, **options)
    elif b is not None or mu is not None:
        raise InputError("solve_batch(list of problems): b and mu are the problems' own")
    count = len(problems)
    for k, p in enumerate(problems):
        if not isinstance(p, Problem):
            raise TypeError(f"solve_batch: problems[{k}] is a {type(p).__name__}, not a Problem")
    threads = int(threads or os.cpu_count() or 1)
    if threads < 1:
        raise InputError("solve_batch: threads must be >= 1")
    s = _settings(solver, tol, options)
    handles = (ctypes.c_void_p * max(count, 1))(*[p._h for p in problems])
    x0p = None
    keep = []
    if x0 is not None:
        if len(x0) != count:
            raise InputError(f"solve_batch: x0 has {len(x0)} starts for {count} problems")
        x0p = (ctypes.c_void_p * max(count, 1))()
        for k, (p, v) in enumerate(zip(problems, x0)):
            if v is not None:
                a = _vector(f"x0[{k}]", v, p.n)
                keep.append(a)
                x0p[k] = a.ctypes.data
    res = (_clib.Result * max(count, 1))()
    err = ctypes.create_string_buffer(_ERRLEN)
    stop = s.stop
    if stop is not None:
        stop.stopped = stop.started_ = 0
    t0 = time.perf_counter()
    try:
        rc = _clib.solve_batch(handles, count, s.h, x0p, threads, res, err, _ERRLEN)
    except KeyboardInterrupt:  # a Ctrl-C that stopped the batch (every solve with its best iterate)
        if stop is None or not stop.stopped:
            raise
        rc = 1
    freer = _ResultsFree(res, count)
    if rc in (2, 5) and all(not r.x for r in res[:count]):
        _raise(rc, err)
    # the numbers of every result at once, through a numpy view of the structs
    view = np.frombuffer(res, dtype=_RESULT_DTYPE, count=count) if count else np.zeros(0, _RESULT_DTYPE)
    ns, addrs = view["n"], view["x"]
    if count and (ns == ns[0]).all() and (addrs != 0).all():
        n = int(ns[0])
        X = np.empty((count, n))
        _clib.results_x(ctypes.addressof(res), count, X.ctypes.data)  # every answer in one call
    else:
        X = [_copy(a, m) for a, m in zip(addrs.tolist(), ns.tolist())]
    st = view["status"].astype(np.int64)
    names = np.array(STATUSES + ("unknown",))
    fields = {"status": names[np.where((st >= 0) & (st < 8), st, 8)],
              "exit_codes": _EXIT_CODES[np.where((st >= 0) & (st < 8), st, 8)],
              "iterations": view["iterations"].copy(), "time_s": view["time_s"].copy(),
              "residual": view["residual"].copy(), "complementarity": view["complementarity"].copy(),
              "feasibility": view["feasibility"].copy()}
    fields["solver"] = _LazyStrings(res, count, "solver")
    fields["precond"] = _LazyStrings(res, count, "precond")
    fields["message"] = _LazyStrings(res, count, "message")
    solve_s = time.perf_counter() - t0
    out = BatchResult(fields, X, solve_s, rc, threads)
    out._free = freer  # the results (their strings) are released with the BatchResult
    return out


# ---- the stacked path -----------------------------------------------------

def _rows(name, v, E, m, dtype=np.float64):
    """v as a C-contiguous (E, m) array: one row an environment (a 1-d v of
    m entries: the same for all); float64 entries finite (lo, hi: not NaN)."""
    a = np.asarray(v)
    if a.dtype.kind not in "iuf" or a.dtype == np.float16:
        raise TypeError(f"{name}: dtype {a.dtype} is not a real number type (float64, float32 or integer)")
    if a.ndim == 1 and a.shape[0] == m:
        a = np.broadcast_to(a, (E, m))
    if a.shape != (E, m):
        raise InputError(f"{name}: has shape {a.shape}, expected ({E}, {m})")
    a = np.ascontiguousarray(a, dtype=dtype)
    if dtype == np.float64:
        bad = np.isnan(a) if name in ("lo", "hi") else ~np.isfinite(a)
        if bad.any():
            k, i = (int(t) for t in np.argwhere(bad)[0])
            raise InputError(f"{name}[{k}, {i}] = {a[k, i]} is not finite" if name not in ("lo", "hi")
                             else f"{name}[{k}, {i}] is NaN")
    return a


class Stack:
    """Equal-size environments for the stacked path: E problems of one size
    n held by the library, solved by one call of lcps_solve_stacked into
    stacked arrays (StackResult: x (E, n), status, iterations, residual), no
    Python object an environment.

    Stack(A, b): A a 3-d array (E, n, n) (the pattern: the entries nonzero
    in any environment), or one pattern (a scipy.sparse matrix or a 2-d
    array: its nonzeros, row by row) with values=(E, nnz) in the order of
    its CSR entries; b (E, n); mu, lo, hi (E, m) or one row for all; findex
    (n,) for all.  Stack(problems): Problem objects of one size, used as
    they are (values then needs each one's A of one count of entries).
    solve(values=, b=) gives the environments new values of A and b in the
    same call (the update path: lcps_problem_update)."""

    def __init__(self, A, b=None, kind="lcp", mu=None, lo=None, hi=None, findex=None, values=None):
        if isinstance(A, (list, tuple)):
            if b is not None or mu is not None or lo is not None or hi is not None or findex is not None \
                    or values is not None:
                raise InputError("Stack(problems): b, mu, lo, hi, findex and values are the problems' own")
            for k, p in enumerate(A):
                if not isinstance(p, Problem):
                    raise TypeError(f"Stack: problems[{k}] is a {type(p).__name__}, not a Problem")
            self.problems = list(A)
            self.n = self.problems[0].n if self.problems else 0
            for k, p in enumerate(self.problems):
                if p.n != self.n:
                    raise InputError(f"Stack: problems[{k}] has n = {p.n}, problems[0] n = {self.n} (one size)")
            self.nval = None
        else:
            self._from_arrays(A, b, kind, mu, lo, hi, findex, values)
        self.count = len(self.problems)
        self._handles = (ctypes.c_void_p * max(self.count, 1))(*[p._h for p in self.problems])
        self._distinct = len({p._h for p in self.problems}) == self.count

    def _from_arrays(self, A, b, kind, mu, lo, hi, findex, values):
        if not isinstance(kind, str):
            raise TypeError(f"kind: expected a string (lcp, blcp, ccp, fc3d), got {type(kind).__name__}")
        if values is None:
            a = np.asarray(A)
            if a.dtype.kind not in "iuf" or a.dtype == np.float16:
                raise TypeError(f"A: dtype {a.dtype} is not a real number type (float64, float32 or integer)")
            if a.ndim != 3 or a.shape[1] != a.shape[2]:
                raise InputError(f"Stack: A must be 3-d (environments, n, n), got shape {a.shape} "
                                 "(or one pattern with values=(environments, nnz))")
            if not np.isfinite(a).all():
                k, i, j = (int(t) for t in np.argwhere(~np.isfinite(a))[0])
                raise InputError(f"A[{k}, {i}, {j}] = {a[k, i, j]} is not finite")
            mask = (a != 0).any(axis=0)
            E, n = a.shape[0], a.shape[1]
            rowptr = np.zeros(n + 1, dtype=np.int32)
            np.cumsum(mask.sum(axis=1), out=rowptr[1:])
            col = np.nonzero(mask)[1].astype(np.int32)
            vals = np.ascontiguousarray(a[:, mask], dtype=np.float64)
        else:
            rowptr, col, _, n = _csr(A)
            nnz = int(rowptr[-1])
            v = np.asarray(values)
            if v.ndim != 2 or v.shape[1] != nnz:
                raise InputError(f"Stack: values has shape {v.shape}, expected (environments, {nnz}): "
                                 "one row of the pattern's entries an environment")
            E = v.shape[0]
            vals = _rows("values", v, E, nnz)
        if b is None:
            raise InputError("Stack: b missing (environments, n)")
        B = _rows("b", b, E, n)
        M = None if mu is None else np.asarray(mu)
        if M is not None and M.ndim < 2:
            M = np.broadcast_to(np.atleast_1d(M), (E, np.atleast_1d(M).shape[0]))
        if M is not None:
            M = _rows("mu", M, E, M.shape[1])
        L = None if lo is None else _rows("lo", lo, E, n)
        H = None if hi is None else _rows("hi", hi, E, n)
        F = None
        if findex is not None:
            f = np.asarray(findex)
            if f.dtype.kind not in "iu":
                raise TypeError(f"findex: dtype {f.dtype} is not an integer type")
            F = _vector("findex", f, n, dtype=np.int32)
        problems = []
        rp, cp = rowptr.ctypes.data, col.ctypes.data
        pattern = (rowptr.copy(), col.copy(), n, values is None and not _issparse(A))
        for k in range(E):
            h = ctypes.c_void_p()
            _call(_clib.problem_csr, kind.encode(), n, rp, cp, vals[k].ctypes.data, B[k].ctypes.data,
                  ctypes.byref(h))
            p = Problem(h.value, pattern)
            problems.append(p)
            if M is not None:
                _call(_clib.problem_set_vector, p._h, b"mu", M[k].ctypes.data, M.shape[1])
            if L is not None:
                _call(_clib.problem_set_vector, p._h, b"lo", L[k].ctypes.data, n)
            if H is not None:
                _call(_clib.problem_set_vector, p._h, b"hi", H[k].ctypes.data, n)
            if F is not None:
                _call(_clib.problem_set_findex, p._h, F.ctypes.data, n)
        self.problems, self.n, self.nval = problems, n, int(rowptr[-1])

    def __len__(self):
        return self.count

    def solve(self, solver="auto", tol=1e-8, x0=None, threads=None, values=None, b=None, **options):
        """Solves every environment (threads at once, each on one thread, the
        GIL released): one C call.  values (E, nnz), b (E, n): new data of
        the environments first (kept for later solves); x0 (E, n) the
        starts.  Returns a StackResult."""
        E, n = self.count, self.n
        threads = int(threads or os.cpu_count() or 1)
        if threads < 1:
            raise InputError("Stack.solve: threads must be >= 1")
        s = _settings(solver, tol, options)
        nval = 0
        if (values is not None or b is not None) and not self._distinct:
            raise InputError("Stack.solve(values=, b=): a problem appears more than once in the stack")
        if values is not None:
            if self.nval is None:
                self.nval = _clib_nval(self.problems)
            nval = self.nval
            values = _rows("values", values, E, nval)
        if b is not None:
            b = _rows("b", b, E, n)
        if x0 is not None:
            x0 = _rows("x0", x0, E, n)
        X = np.empty((E, n))
        st = np.empty(E, dtype=np.int32)
        it = np.empty(E, dtype=np.int32)
        res = np.empty(E)
        err = ctypes.create_string_buffer(_ERRLEN)
        stop = s.stop
        if stop is not None:
            stop.stopped = stop.started_ = 0
        t0 = time.perf_counter()
        try:
            rc = _clib.solve_stacked(self._handles, E, None if values is None else values.ctypes.data, nval,
                                     None if b is None else b.ctypes.data, None if x0 is None else x0.ctypes.data,
                                     s.h, threads, X.ctypes.data, st.ctypes.data, it.ctypes.data, res.ctypes.data,
                                     err, _ERRLEN)
        except KeyboardInterrupt:  # a Ctrl-C that stopped the batch (every solve with its best iterate)
            if stop is None or not stop.stopped:
                raise
            rc = 1
        solve_s = time.perf_counter() - t0
        if rc in (2, 5) and (E == 0 or np.isnan(X).all(axis=1).all()):
            _raise(rc, err)
        out = StackResult(X, st, it, res, solve_s, rc, threads, solver)
        out.message = err.value.decode(errors="replace")
        return out


def _clib_nval(problems):
    """The values of A of each problem (equal, or InputError)."""
    counts = {p.A.nnz if p._pattern is None else int(p._pattern[0][-1]) for p in problems}
    if len(counts) > 1:
        raise InputError("Stack.solve(values=...): the problems' A differ in their number of entries")
    return counts.pop() if counts else 0


class StackResult:
    """The answers of the stacked path: x (E, n), status (names, a numpy
    array), status_code (the library's codes), exit_codes, iterations,
    residual (arrays), solve_s (the wall time of the one C call),
    env_steps_per_s, exit_code (the worst, by lcpsolve batch's precedence),
    solved, message (the first input error or breakdown, else "");  [k]:
    a Result of environment k (x, status, exit_code, iterations, residual;
    solver the one asked for)."""

    def __init__(self, x, status_code, iterations, residual, solve_s, exit_code, threads, solver):
        self.x, self.status_code, self.iterations, self.residual = x, status_code, iterations, residual
        self.solve_s, self.exit_code, self.threads, self._solver = solve_s, exit_code, threads, solver
        self.env_steps_per_s = len(status_code) / solve_s if solve_s > 0 else float("inf")

    def _codes(self):
        st = self.status_code
        return np.where((st >= 0) & (st < 8), st, 8)

    @property
    def status(self):
        return np.array(STATUSES + ("unknown",))[self._codes()]

    @property
    def exit_codes(self):
        return _EXIT_CODES[self._codes()]

    @property
    def solved(self):
        return int(np.count_nonzero(self.status_code == 0))

    def __len__(self):
        return len(self.status_code)

    def __getitem__(self, k):
        c = int(self._codes()[k])
        res = Result.__new__(Result)
        res.__dict__.update(x=self.x[k], w=None, status=(STATUSES + ("unknown",))[c], exit_code=_EXIT_CODE[c],
                            iterations=int(self.iterations[k]), residual=float(self.residual[k]),
                            complementarity=float("nan"), feasibility=float("nan"),
                            solver=self._solver if isinstance(self._solver, str) else str(self._solver),
                            precond="", time_s=float("nan"), message="", auto_reason="", components=1, omega=0.0,
                            interrupted=False, trace=None)
        return res


_RESULT_FIELDS = ("status", "iterations", "time_s", "residual", "complementarity", "feasibility", "n", "x")
_RESULT_DTYPE = np.dtype({"names": list(_RESULT_FIELDS),
                          "formats": [np.int32, np.int32] + [np.float64] * 4 + [np.int32, np.uint64],
                          "offsets": [getattr(_clib.Result, f).offset for f in _RESULT_FIELDS],
                          "itemsize": ctypes.sizeof(_clib.Result)})


class _ResultsFree:
    __slots__ = ("res", "count")

    def __init__(self, res, count):
        self.res, self.count = res, count

    def __del__(self):
        for k in range(self.count):
            _clib.result_free(ctypes.byref(self.res[k]))


class _LazyStrings:
    """solver, precond, message of each batch result, decoded when read."""

    def __init__(self, res, count, name):
        self._res, self._count, self._name = res, count, name
        self._cache = None

    def _all(self):
        if self._cache is None:
            self._cache = [(getattr(self._res[k], self._name) or b"").decode(errors="replace")
                           for k in range(self._count)]
        return self._cache

    def __getitem__(self, k):
        return self._all()[k]

    def __len__(self):
        return self._count

    def __iter__(self):
        return iter(self._all())


# ---- the registry ---------------------------------------------------------

class SolverInfo(tuple):
    """name, kinds (tuple), preconds (tuple, "none" first), summary, options
    (tuple: the names of the options of lcpsolve.options() this solver
    reads; it ignores the others, or refuses them: "order")."""
    __slots__ = ()
    name = property(lambda self: self[0])
    kinds = property(lambda self: self[1])
    preconds = property(lambda self: self[2])
    summary = property(lambda self: self[3])
    options = property(lambda self: self[4])

    def __repr__(self):
        return (f"SolverInfo(name={self.name!r}, kinds={self.kinds!r}, preconds={self.preconds!r}, "
                f"options={self.options!r})")


class OptionInfo(tuple):
    """name, arg (the value's name, None for a flag), help."""
    __slots__ = ()
    name = property(lambda self: self[0])
    arg = property(lambda self: self[1])
    help = property(lambda self: self[2])


def solvers():
    """The solvers of this build, in --list-solvers order: a dict name ->
    SolverInfo (kinds, preconditioners, summary, the options it reads)."""
    out = {}
    names = _clib.solver_names()
    every = [o.name for o in _all_options()]
    k = 0
    while names[k]:
        name = names[k]
        kinds = ctypes.create_string_buffer(64)
        pre = ctypes.POINTER(ctypes.c_char_p)()
        summ = ctypes.c_char_p()
        if _clib.solver_info(name, kinds, 64, ctypes.byref(pre), ctypes.byref(summ)) == 0:
            pl = ["none"]
            j = 0
            while pre and pre[j]:
                pl.append(pre[j].decode())
                j += 1
            reads = tuple(o for o in every if _clib.option_read_by(o.encode(), name) == 1)
            out[name.decode()] = SolverInfo((name.decode(), tuple(kinds.value.decode().split(",")), tuple(pl),
                                             (summ.value or b"").decode(), reads))
        k += 1
    return out


def _all_options():
    out = []
    k = 0
    while True:
        nm, arg, hl = ctypes.c_char_p(), ctypes.c_char_p(), ctypes.c_char_p()
        if _clib.option_info(k, ctypes.byref(nm), ctypes.byref(arg), ctypes.byref(hl)):
            return out
        out.append(OptionInfo((nm.value.decode(), arg.value.decode() if arg.value else None,
                               (hl.value or b"").decode())))
        k += 1


def options(solver=None):
    """The options solve() takes (the long options of the command that set a
    solve): a list of OptionInfo (name, arg, help); with solver, those that
    solver reads (InputError for a name that is not a solver of this
    build)."""
    out = _all_options()
    if solver is None:
        return out
    if not isinstance(solver, str) or _clib.option_read_by(b"tol", solver.encode()) < 0:
        raise InputError(f"unknown solver {solver!r} (see lcpsolve.solvers())")
    return [o for o in out if _clib.option_read_by(o.name.encode(), solver.encode()) == 1]
