#!/usr/bin/env python3
"""A generated pyramid solved by three solvers through the Python package,
their convergence (the verified residual of each iterate) plotted to a PNG.

    PYTHONPATH=python /usr/bin/python3 examples/pyramid_convergence.py [OUT.png] [--base N]

(from the build tree; after make install, plain python3).  Prints one line
a solver: status, iterations, residual, time.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import lcpsolve  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("out", nargs="?", default="pyramid_convergence.png")
ap.add_argument("--base", type=int, default=12)
a = ap.parse_args()

problem = lcpsolve.generate("pyramid", base=a.base)
fig, ax = plt.subplots(figsize=(7, 4.5))
for solver, opts in (("pgs", {}), ("psor", {"omega": 1.5}), ("mprgp", {"precond": "diag"})):
    r = lcpsolve.solve(problem, solver=solver, tol=1e-10, max_iter=20000, trace=True, **opts)
    t = r.trace
    label = solver + (" -p " + r.precond if r.precond != "none" else "") + (f" omega {r.omega:g}" if r.omega else "")
    ax.semilogy(t["iteration"], t["residual"], label=f"{label} ({r.iterations} it.)")
    print(f"{label:14s} {r.status:9s} {r.iterations:6d} iterations  residual {r.residual:.2e}  {r.time_s * 1e3:.1f} ms")
ax.set_xscale("symlog", linthresh=10)
ax.set_xlabel("iteration")
ax.set_ylabel("residual (docs/contract.md)")
ax.set_title(f"pyramid --base {a.base}: {problem.n} contacts")
ax.axhline(1e-10, color="grey", lw=0.8, ls=":")
ax.legend()
fig.tight_layout()
fig.savefig(a.out, dpi=110)
print("wrote", a.out)
