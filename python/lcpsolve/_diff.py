"""Derivatives of a solution (lcps_diff_new, lcps_jvp_bounds,
lcps_vjp_bounds and the factored forms; man 3 lcpsolve, DERIVATIVES):
Result.jvp, Result.vjp, Result.degenerate and Result.minimum_norm are built
here.

The library differentiates the natural map at the solution (implicit
differentiation; degenerate rows take a documented one-sided derivative and
are flagged).  A's values are in the order the problem was given: the data
of the scipy.sparse CSR passed, the non-zeros of a dense array row by row,
or, for a problem read or generated, A's rows in order with columns
ascending; Result.vjp gives grad_A back in the same shape as A was given
(a dense array for a dense A, a CSR matrix of A's pattern otherwise)."""
import ctypes

import numpy as np

from . import _clib

_ERRLEN = 1024

_c_int, _vp = ctypes.c_int, ctypes.c_void_p
# the bounds of a blcp as variables (lcps_jvp and lcps_vjp with lo, hi)
_jvp_bounds = _clib._sig("lcps_jvp_bounds", _c_int, *([_vp] * 7), *_clib.ERR)
_vjp_bounds = _clib._sig("lcps_vjp_bounds", _c_int, *([_vp] * 7), *_clib.ERR)
_minimum_norm = _clib._sig("lcps_diff_minimum_norm", _c_int, _vp)


class _Handle:
    """An lcps_diff handle (one factorisation, reused by every JVP and VJP)."""

    __slots__ = ("h",)

    def __init__(self, h):
        self.h = h

    def __del__(self):
        h, self.h = getattr(self, "h", None), None
        if h:
            _clib.diff_free(h)


def _raise(rc, err):
    from . import _raise as r
    r(rc, err)


def handle(res):
    """The result's lcps_diff handle, made on first use."""
    d = res.__dict__.get("_diff")
    if d is not None:
        return d
    p, s = res.__dict__.get("_problem"), res.__dict__.get("_settings")
    if p is None or s is None:
        from . import InputError
        raise InputError("derivatives need a result of lcpsolve.solve (not of a batch)")
    x = np.ascontiguousarray(res.x, dtype=np.float64)
    r = _clib.Result()
    from . import STATUSES
    r.status = STATUSES.index(res.status) if res.status in STATUSES else 0
    r.n, r.x = x.shape[0], x.ctypes.data
    h = ctypes.c_void_p()
    err = ctypes.create_string_buffer(_ERRLEN)
    rc = _clib.diff_new(p._h, s.h, ctypes.byref(r), ctypes.byref(h), err, _ERRLEN)
    if rc:
        _raise(rc, err)
    d = res.__dict__["_diff"] = _Handle(h.value)
    return d


def _len(d, name):
    return _clib.diff_len(d.h, name.encode())


def _values(name, v, res, n_expected):
    """A matrix direction or cotangent as the values the library takes: a 1-d
    array of n_expected values as it is; for A, a dense (n, n) array or a
    scipy.sparse matrix, read at the pattern A was given with."""
    from . import InputError, _vector
    if v is None:
        return None
    try:
        import scipy.sparse as sp
    except ImportError:  # pragma: no cover
        sp = None
    a = v if (sp is not None and sp.issparse(v)) else np.asarray(v)
    if not (sp is not None and sp.issparse(a)) and a.ndim == 1:
        return _vector(name, a, n_expected)
    rows, cols = _pattern(res, name)
    if rows is None:
        raise InputError(f"{name}: give its {n_expected} values (in the order of the problem's entries)")
    if sp is not None and sp.issparse(a):
        a = a.tocsr()
        vals = np.asarray(a[rows, cols]).ravel()
    else:
        if a.ndim != 2:
            raise InputError(f"{name}: expected a matrix or {n_expected} values, got shape {a.shape}")
        vals = a[rows, cols]
    return _vector(name, vals, n_expected)


def _pattern(res, name):
    """(rows, cols) of the stored entries of A, M or J, in the library's
    order of their values, or (None, None)."""
    p = res.__dict__.get("_problem")
    if name == "dA" or name == "A":
        pat = getattr(p, "_pattern", None)
        if pat is not None:
            rowptr, col = pat[0], pat[1]
            return np.repeat(np.arange(len(rowptr) - 1), np.diff(rowptr)), col
        m = p.A
    else:
        m = p.M if name in ("dM", "M") else p.J
    if m is None:
        return None, None
    m = m.tocsr()
    return np.repeat(np.arange(m.shape[0]), np.diff(m.indptr)), m.indices


def _matrix_out(res, name, vals):
    """grad of A, M or J in the shape A was given: dense for a dense A, CSR
    with the pattern otherwise."""
    import scipy.sparse as sp
    p = res.__dict__["_problem"]
    pat = getattr(p, "_pattern", None) if name == "A" else None
    if pat is not None:
        rowptr, col, n, dense = pat
        if dense:
            g = np.zeros((n, n))
            rows = np.repeat(np.arange(n), np.diff(rowptr))
            np.add.at(g, (rows, col), vals)
            return g
        return sp.csr_matrix((vals, col.copy(), rowptr.copy()), shape=(n, n))
    m = (p.A if name == "A" else p.M if name == "M" else p.J).tocsr()
    return sp.csr_matrix((vals, m.indices.copy(), m.indptr.copy()), shape=m.shape)


def jvp(res, dA=None, db=None, dmu=None, dM=None, dJ=None, dv=None, de=None, dlo=None, dhi=None):
    """The derivative of x along (dA, db, dmu, and for a blcp dlo, dhi) --
    or, of a factored problem, along (dM, dJ, dv, de, dmu) -- at this
    solution (None: no change)."""
    d = handle(res)
    n = _len(d, "x")
    dx = np.zeros(n)
    err = ctypes.create_string_buffer(_ERRLEN)
    ptr = lambda a: a.ctypes.data if a is not None else None  # noqa: E731
    from . import _vector
    if any(v is not None for v in (dM, dJ, dv, de)):
        vM = _values("dM", dM, res, _len(d, "M"))
        vJ = _values("dJ", dJ, res, _len(d, "J"))
        vv = None if dv is None else _vector("dv", dv, _len(d, "v"))
        ve = None if de is None else _vector("de", de, n)
        vmu = None if dmu is None else _vector("dmu", np.atleast_1d(dmu), _len(d, "mu"))
        if dA is not None or db is not None or dlo is not None or dhi is not None:
            from . import InputError
            raise InputError("jvp: either dA, db, dlo, dhi (A, b and the bounds) or dM, dJ, dv, de (the factored form)")
        rc = _clib.jvp_factored(d.h, ptr(vM), ptr(vJ), ptr(vv), ptr(ve), ptr(vmu), dx.ctypes.data, err, _ERRLEN)
    else:
        vA = _values("dA", dA, res, _len(d, "A"))
        vb = None if db is None else _vector("db", db, n)
        vmu = None if dmu is None else _vector("dmu", np.atleast_1d(dmu), _len(d, "mu"))
        nlo = _len(d, "lo")
        if (dlo is not None or dhi is not None) and nlo <= 0:
            from . import InputError
            raise InputError("jvp: dlo, dhi: only a blcp has bounds")
        vlo = None if dlo is None else _vector("dlo", dlo, nlo)
        vhi = None if dhi is None else _vector("dhi", dhi, nlo)
        rc = _jvp_bounds(d.h, ptr(vA), ptr(vb), ptr(vmu), ptr(vlo), ptr(vhi), dx.ctypes.data, err, _ERRLEN)
    if rc:
        _raise(rc, err)
    return dx


def vjp(res, g):
    """The gradients of <g, x> with respect to the data: a dict with "A"
    (the shape A was given in), "b", "mu" (friction kinds, blcp with
    findex), "lo" and "hi" (blcp; None otherwise), and of a factored problem
    "M", "J", "v", "e"."""
    from . import _vector
    d = handle(res)
    n = _len(d, "x")
    gv = _vector("g", g, n)
    err = ctypes.create_string_buffer(_ERRLEN)
    nA, nmu = _len(d, "A"), _len(d, "mu")
    gA, gb = np.zeros(max(nA, 0)), np.zeros(n)
    gmu = np.zeros(nmu) if nmu > 0 else None
    nlo = _len(d, "lo")
    glo, ghi = (np.zeros(nlo), np.zeros(nlo)) if nlo > 0 else (None, None)
    ptr = lambda a: a.ctypes.data if a is not None else None  # noqa: E731
    rc = _vjp_bounds(d.h, gv.ctypes.data, gA.ctypes.data if nA > 0 else None, gb.ctypes.data, ptr(gmu), ptr(glo),
                     ptr(ghi), err, _ERRLEN)
    if rc:
        _raise(rc, err)
    out = {"A": _matrix_out(res, "A", gA), "b": gb, "mu": gmu, "lo": glo, "hi": ghi}
    nM, nJ, nv = _len(d, "M"), _len(d, "J"), _len(d, "v")
    if nM > 0 and nJ > 0:
        gM, gJ, gvv, ge = np.zeros(nM), np.zeros(nJ), np.zeros(nv), np.zeros(n)
        gmu2 = np.zeros(nmu) if nmu > 0 else None
        rc = _clib.vjp_factored(d.h, gv.ctypes.data, gM.ctypes.data, gJ.ctypes.data, gvv.ctypes.data,
                                ge.ctypes.data, gmu2.ctypes.data if gmu2 is not None else None, err, _ERRLEN)
        if rc:
            _raise(rc, err)
        out.update(M=_matrix_out(res, "M", gM), J=_matrix_out(res, "J", gJ), v=gvv, e=ge)
    return out


def minimum_norm(res):
    """0 where the derivative is the unique one; else the dimension of the
    null space of the singular Jacobian (redundant contacts) that the
    minimum-norm derivative leaves out."""
    return int(_minimum_norm(handle(res).h))


def degenerate(res):
    """A boolean array: the rows whose derivative is one-sided (degenerate)."""
    d = handle(res)
    flags = np.zeros(_len(d, "x"), dtype=np.int32)
    _clib.diff_degenerate(d.h, flags.ctypes.data)
    return flags.astype(bool)
