"""lcpsolve.torch: lcpsolve.solve as a differentiable PyTorch function.

    import torch, lcpsolve.torch
    A = torch.tensor(..., dtype=torch.float64, requires_grad=True)
    x = lcpsolve.torch.solve(A, b, kind="lcp")   # x(A, b), verified
    loss(x).backward()                           # A.grad, b.grad (and mu.grad)

The forward pass is lcpsolve.solve on the tensors' values (on the CPU, in
float64); the backward pass is one VJP of the solution (Result.vjp:
implicit differentiation at the solution, one transposed solve with its
factorisation; one-sided on degenerate rows, Result.degenerate).  A is
dense (n, n) and every entry of it gets a gradient (its zeros are stored as
entries, so they take part); b (n); mu (friction kinds: one a contact;
blcp with findex: one a row) gets one where it requires it, and so do a
blcp's bounds lo and hi given as tensors (n each; a row held at its bound
moves with it).  findex and the solver's options are not differentiated.  A solve
that does not reach its tolerance raises RuntimeError: there is no
derivative of an answer that is not a solution.  Needs python3-torch."""
import numpy as np
import torch as _torch

from . import solve as _solve

__all__ = ["solve"]


def _np(t):
    return None if t is None else t.detach().to("cpu", _torch.float64).numpy()


class _Solve(_torch.autograd.Function):
    @staticmethod
    def forward(ctx, A, b, mu, kind, lo, hi, findex, settings):
        import scipy.sparse as sp
        An = _np(A)
        if An.ndim != 2 or An.shape[0] != An.shape[1]:
            raise ValueError(f"A: must be a square matrix, got shape {tuple(An.shape)}")
        n = An.shape[0]
        # every entry stored, zeros too: grad_A covers all of A
        S = sp.csr_matrix((np.ascontiguousarray(An).ravel(), np.tile(np.arange(n, dtype=np.int32), n),
                           np.arange(0, n * n + 1, n, dtype=np.int32)), shape=(n, n))
        lo_, hi_ = (_np(v) if isinstance(v, _torch.Tensor) else v for v in (lo, hi))
        res = _solve(S, _np(b), kind=kind, mu=_np(mu), lo=lo_, hi=hi_, findex=findex, **settings)
        if res.status != "solved":
            raise RuntimeError(f"lcpsolve.torch.solve: {res.status} ({res.solver}, residual {res.residual:.3g}"
                               f"{': ' + res.message if res.message else ''}): no derivative of an answer that "
                               "is not a solution")
        ctx.res = res
        return _torch.from_numpy(res.x.copy()).to(dtype=b.dtype, device=b.device)

    @staticmethod
    def backward(ctx, gx):
        gr = ctx.res.vjp(_np(gx))
        A, b, mu = ctx.needs_input_grad[0], ctx.needs_input_grad[1], ctx.needs_input_grad[2]
        like = gx
        gA = _torch.from_numpy(gr["A"].toarray()).to(like) if A else None
        gb = _torch.from_numpy(gr["b"]).to(like) if b else None
        gmu = _torch.from_numpy(gr["mu"]).to(like) if mu and gr["mu"] is not None else None
        lo, hi = ctx.needs_input_grad[4], ctx.needs_input_grad[5]
        glo = _torch.from_numpy(gr["lo"]).to(like) if lo and gr["lo"] is not None else None
        ghi = _torch.from_numpy(gr["hi"]).to(like) if hi and gr["hi"] is not None else None
        return gA, gb, gmu, None, glo, ghi, None, None


def solve(A, b, kind="lcp", mu=None, lo=None, hi=None, findex=None, solver="auto", tol=1e-10, **options):
    """x solving the problem (A, b) of `kind`, differentiable in A, b, mu
    and a blcp's lo, hi (tensors); see the module's text.  options: any long option of the
    command (max_iter=..., reg=...), as lcpsolve.solve takes them."""
    if not isinstance(A, _torch.Tensor) or not isinstance(b, _torch.Tensor):
        raise TypeError("lcpsolve.torch.solve: A and b must be torch tensors")
    return _Solve.apply(A, b, mu, kind, lo, hi, findex, dict(solver=solver, tol=tol, **options))
