#!/bin/sh
# tests/e2e/bench_harness.sh: scripts/bench-peers (make bench), the harness
# that measures lcpsolve against the peer, Siconos Numerics, in its quickest
# mode on one tiny problem: the table must have the time ratio, the memory
# of both sides and their ratio, and the bandwidth fraction of the sweep
# solver; both answers verified by lcpsolve (residual <= tol); the exponent
# table printed.  Skips cleanly where Siconos (scripts/install-deps --peer)
# is not installed.
. tests/lib.sh
if [ ! -d /usr/include/siconos/numerics ]; then
    skip "Siconos Numerics is not installed (scripts/install-deps --peer)"
    finish; exit $?
fi
# (all mode, not exact: --problems matches substrings, and "pyramid-5" would
# also take exact mode's pyramid-50, whose five peer runs time out.  The
# timeout is generous: Siconos' lcp_newton_min takes 2.4 s on pyramid-5 on
# a quiet machine (19,074 iterations through failed LU factorisations), and
# under CI's load, with a 5 s timeout, it ran out and its row had no residual)
BENCH_OUT="$T/bench" python3 scripts/bench-peers all --quick --no-install --repeats 1 --timeout 30 \
    --sizes 100 --problems pyramid-5,column-100 --solvers pgs,ipm >"$T/table" 2>"$T/err"
check "bench-peers exits 0" [ $? -eq 0 ]
grep -q '^| problem .*| MiB .*| MiB | time ratio | mem ratio | bandwidth |$' "$T/table"
check "the header has the memory, ratio and bandwidth columns" [ $? -eq 0 ]
grep -q '^machine: .*triad [0-9.]* GB/s' "$T/table"
check "the triad bandwidth is measured in the run" [ $? -eq 0 ]
# | pyramid-5 | n | nnz | tol | pgs | t | its | res | MiB | lcp_pgs | t | its | res | MiB | ratio | mem | bw |
python3 - "$T/table" <<'PY' >"$T/rows" 2>&1
import sys
rows = [[c.strip() for c in l.strip().strip("|").split("|")] for l in open(sys.argv[1]) if l.startswith("| pyramid-5 |")]
got = {(r[4], r[9]): r for r in rows if len(r) == 17}
for pair in [("pgs", "lcp_pgs"), ("pgs", "lcp_nsgs_SBM"), ("ipm", "lcp_newton_min")]:
    r = got[pair]
    assert float(r[7]) <= 1e-8 and float(r[12]) <= 1e-8, ("residuals", r)
    assert float(r[8]) > 1 and float(r[13]) > 1, ("memory", r)
    assert abs(float(r[5]) / float(r[10]) - float(r[14])) <= 0.02 * float(r[14]) + 1e-3, ("time ratio", r)
    assert abs(float(r[8]) / float(r[13]) - float(r[15])) <= 0.02 * float(r[15]) + 0.01, ("mem ratio", r)
    if pair[0] == "pgs":
        assert float(r[16]) > 0, ("bandwidth", r)
    else:
        assert r[16] == "-", ("no bandwidth for ipm", r)
print("ok")
PY
check "pyramid-5: pgs / lcp_pgs, lcp_nsgs_SBM and ipm / lcp_newton_min rows, both residuals <= 1e-8, ratios consistent" \
    grep -qx ok "$T/rows"
[ -s "$T/rows" ] && ! grep -qx ok "$T/rows" && head -5 "$T/rows"
grep -q '^| column (lcp) | pgs | 100 | - |$' "$T/table"
check "the generated column of 100 contacts is run and listed in the exponent table" [ $? -eq 0 ]
grep -q '^| column-100 | 100 |' "$T/table"
check "the generated scene has its rows" [ $? -eq 0 ]
[ -s "$T/bench/bench-peers.json" ]
check "the results are written to BENCH_OUT/bench-peers.json" [ $? -eq 0 ]
# a problem solved one component at a time (Spheres: 137 piles) counts the
# bandwidth from each component's rows and nonzeros times its own
# iterations (json rows_swept, nnz_swept), not the whole matrix times the
# most iterations of any component
if [ -f "$SICONOS_DATA/fc3d/Spheres-i099-356-679.hdf5" ]; then
    BENCH_OUT="$T/bench3" python3 scripts/bench-peers friction --no-install --repeats 1 --timeout 20 \
        --sizes '' --problems Spheres-i099 --solvers nsgs >"$T/table3" 2>&1
    python3 - "$T/table3" <<'PY' >"$T/rows3" 2>&1
import re, sys
t = open(sys.argv[1]).read()
bw = float(re.search(r"triad ([0-9.]+) GB/s", t).group(1))
r = [c.strip() for c in next(l for l in t.splitlines() if l.startswith("| Spheres-i099-356-679.hdf5 | 1068 |")).strip().strip("|").split("|")]
n, nnz, time, its, frac = 1068, 7344, float(r[5]), int(r[6]), float(r[16])
mat = 12.0 * nnz + 4.0 * (n + 1)  # bench-peers' iter_bytes for nsgs on fc3d
whole = ((mat + (24.0 + 160.0 / 3.0) * n) + (mat + (24.0 + 8.0 / 3.0) * n)) * its / time / (bw * 1e9)
assert r[4] == "nsgs" and 0 < frac < whole / 4, (frac, whole, r)
print("ok", frac, whole)
PY
    check "Spheres (decomposed): the bandwidth from the components' work ($(cat "$T/rows3" | cut -c1-160))" grep -q "^ok" "$T/rows3"
else
    skip "$SICONOS_DATA/fc3d/Spheres-i099-356-679.hdf5 absent (LCPSOLVE_DATA)"
fi
# a peer that dies says how (Siconos' lcp_nsgs_SBM takes a zero diagonal
# to a segmentation fault), not an empty "error:"
if [ -f "$SICONOS_DATA/lcp/lcp_CPS_2.dat" ]; then
    BENCH_OUT="$T/bench2" python3 scripts/bench-peers exact --no-install --repeats 1 --timeout 20 \
        --sizes '' --problems lcp_CPS_2.dat --solvers pgs >"$T/table2" 2>&1
    grep '^| lcp_CPS_2.dat |.*| lcp_nsgs_SBM |' "$T/table2" >"$T/row2"
    [ -s "$T/row2" ] && ! grep -q '| error: *|' "$T/row2"
    check "lcp_CPS_2.dat: the lcp_nsgs_SBM row has a status with a reason ($(cut -c1-160 "$T/row2"))" [ $? -eq 0 ]
else
    skip "$SICONOS_DATA/lcp/lcp_CPS_2.dat absent (LCPSOLVE_DATA)"
fi
finish
