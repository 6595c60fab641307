"""The per-solver option list (lcpsolve.solvers()[name].options,
lcpsolve.options(solver); the data: src/core/options.c) against solves:
every option listed for a solver is accepted by a solve with that solver,
and every solve option not listed is refused (InputError) or ignored (the
same answer, bit for bit, and the same iterations as without it)."""
import numpy as np
import pytest

import lcpsolve

# a value of each solve option for a small problem; "order": amd is both a
# sweep order and an ordering of the factorisations
VALUES = {"solver": None, "precond": "none", "tol": 1e-6, "max-iter": 40, "omega": 1.2, "threads": 1,
          "time-limit": 30, "reg": 1e-9, "trace": None, "warm-factor": 0.9, "dt-ratio": 1.0, "cover": None,
          "linsolve": "dense", "cycle": "W", "order": "amd", "decompose": "off", "local": "projection",
          "rho": 0.5, "inner": "nsgs", "crash": "none", "adaptive": 1e-3, "shuffle": True, "cone": "pyramid:4",
          "auto-model": None}


@pytest.fixture(scope="module")
def problems():
    lcp = lcpsolve.generate("column", bodies=4)
    fc3d = lcpsolve.generate("column", bodies=4, mu=0.5)
    ccp = lcpsolve.generate("column", bodies=4, mu=0.5, kind="ccp")
    return {"lcp": lcp, "fc3d": fc3d, "ccp": ccp}


def _problem(info, problems, option):
    """A problem the solver takes (for --cone: a friction problem, which
    the cone makes a box blcp)."""
    if option == "cone":
        return problems["fc3d"]
    for kind in ("lcp", "fc3d", "ccp"):
        if kind in info.kinds:
            return problems[kind]
    return None


def _value(option, name, problem, tmp_path):
    if option == "solver":
        return name
    if option == "trace":
        return str(tmp_path / f"{name}.csv")
    if option == "cover":
        path = tmp_path / "cover.mtx"
        path.write_text(f"%%MatrixMarket matrix array real general\n{problem.n} 1\n" + "1\n" * problem.n)
        return str(path)
    if option == "auto-model":
        return str(tmp_path / "no-such-model")
    return VALUES[option]


def test_every_solve_option_has_a_test_value():
    assert {o.name for o in lcpsolve.options()} == set(VALUES)


def test_the_lists():
    s = lcpsolve.solvers()
    every = [o.name for o in lcpsolve.options()]
    for name, info in s.items():
        assert set(info.options) <= set(every), name
        assert {"tol", "max-iter", "trace", "decompose"} <= set(info.options), name
        assert [o.name for o in lcpsolve.options(name)] == list(info.options)
    assert "omega" in s["psor"].options and "omega" not in s["pgs"].options
    assert "cover" in s["lemke"].options and "cover" not in s["pgs"].options
    assert "order" in s["pgs"].options and "order" in s["ipm"].options and "order" not in s["jacobi"].options
    assert "inner" in s["fixed-point"].options and "local" in s["nsgs"].options
    assert all("auto-model" not in i.options for i in s.values())
    assert "reg" not in s["si"].options and "reg" in s["pgs"].options
    with pytest.raises(lcpsolve.InputError, match="unknown solver"):
        lcpsolve.options("no-such-solver")


def test_listed_options_are_accepted(problems, tmp_path):
    for name, info in lcpsolve.solvers().items():
        for option in info.options:
            p = _problem(info, problems, option)
            opts = {"max_iter": 40}
            opts[option.replace("-", "_")] = _value(option, name, p, tmp_path)
            if option == "solver":
                opts.pop("solver")
            try:
                r = lcpsolve.solve(p, solver=name, **opts)
            except lcpsolve.InputError as e:
                pytest.fail(f"{name} --{option}: listed, but refused: {e}")
            assert r.status in lcpsolve.STATUSES, (name, option)


def test_unlisted_options_are_refused_or_ignored(problems, tmp_path):
    every = [o.name for o in lcpsolve.options()]
    checked = refused = 0
    for name, info in lcpsolve.solvers().items():
        p = _problem(info, problems, None)
        base = lcpsolve.solve(p, solver=name, max_iter=40)
        for option in every:
            if option in info.options:
                continue
            opts = {"max_iter": 40, option.replace("-", "_"): _value(option, name, p, tmp_path)}
            try:
                r = lcpsolve.solve(p, solver=name, **opts)
            except lcpsolve.InputError:
                refused += 1
                continue
            checked += 1
            assert r.iterations == base.iterations, (name, option)
            assert np.array_equal(r.x.view(np.uint64), base.x.view(np.uint64)), (name, option)
    assert checked > 50 and refused >= 1  # jacobi refuses --order
