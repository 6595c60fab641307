#!/bin/sh
# tests/e2e/friction_nsgs.sh: the nsgs solver (src/solvers/nsgs.c) end to
# end, on ccp and fc3d problems.  Run from the repository root:
#   sh tests/e2e/friction_nsgs.sh          (NSGS_SLOW=1: also BoxesStack1 to 1e-8)
# - every fc3d file of the Siconos collection solved to the tolerance of the
#   table below (exit 0);
# - the same runs by the peer, Siconos' fc3d_nsgs (build/peer/siconos_fc3d):
#   both reach the tolerance, and the velocities u agree:
#   |u - u_siconos|_2 / max(|q|_2, |u_siconos|_2) <= tol (the residual's own
#   scale; reactions need not be unique, u of these problems is);
# - generated scenes (column, pyramid; fc3d and ccp);
# - every --local variant, --shuffle, --omega, --rho on small problems;
# - hand-solved one-contact problems, one per regime (take-off, stick,
#   slide), exact r checked with --reference; ccp against fc3d on the same
#   data (ccp lets a sliding contact separate: u_n = mu |u_T| > 0);
# - refusals: a singular W_ii names its contact, an lcp problem is refused.
# The Siconos parts skip cleanly when $LCPSOLVE_DATA/siconos or the peer
# (libsiconos-numerics-dev) is missing.  Ends with "N passed, N failed".
. tests/lib.sh
DATA=$SICONOS_DATA/fc3d
PEER=build/peer/siconos_fc3d
# run NAME EXPECTED_EXIT ARGS...: lcpsolve with stdout/stderr in $T/out, $T/err
run() {
    name=$1; want=$2; shift 2
    "$LCP" "$@" >"$T/out" 2>"$T/err"; got=$?
    if [ "$got" -eq "$want" ]; then ok "$name (exit $got)"; else bad "$name: exit $got, expected $want: $(head -c 300 "$T/err")"; fi
}
have_python=0; command -v python3 >/dev/null 2>&1 && have_python=1

# Tolerance per file: reached by nsgs (default --local exact, -n 100000) and
# by Siconos' fc3d_nsgs; sweeps are the same for both (identical iterates).
#   file                             tol   why
TABLE='
Box_Stacks-i0122-82-5.hdf5           1e-8  82 contacts, 32 sweeps
BoxesStack1-i100000-32.hdf5.dat      1e-5  linear rate ~0.99997 a sweep: 1e-5 takes 32,494 sweeps; 1e-8 takes 258,730 (-n 300000, NSGS_SLOW=1)
Capsules-i122-1617.dat               1e-8  296 contacts, 16,435 sweeps
FC3D_Example1.dat                    1e-8  W = I: exact in 1 sweep
FrictionContact3D_1c.dat             1e-8  one contact: exact in 1 sweep
KaplasTower-i1061-4.hdf5.dat         1e-8  570 contacts, 1,056 sweeps
Rover1039.dat                        1e-8  non-symmetric W, cond 1e7: 14 sweeps
Rover4396.dat                        1e-8  non-symmetric W: 3 sweeps
Spheres-i099-356-679.hdf5            1e-8  356 contacts, 229 sweeps
'
DEFAULT_TOL=1e-5 # a file not in the table

# u of ($1) against ($2), scaled by max(|q| ($3), |u2|): prints the number
udiff() {
    python3 - "$1" "$2" "$3" <<'PY'
import math, sys
def vec(path):
    rows = [l for l in open(path) if not l.startswith('%') and l.strip()]
    return [float(x) for x in rows[1:]]
a, b, q = (vec(p) for p in sys.argv[1:4])
n2 = lambda v: math.sqrt(sum(x * x for x in v))
print("%.3e" % (n2([x - y for x, y in zip(a, b)]) / max(n2(q), n2(b), 1e-300)))
PY
}
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; } # le A B: A <= B (numbers)

# ------------------------------------------------- the Siconos collection
peer_ok=0
if [ ! -d "$DATA" ]; then
    skip "$DATA absent: no Siconos files"
else
    if [ -d /usr/include/siconos ] && make -s "$PEER" >/dev/null 2>&1 && [ -x "$PEER" ]; then peer_ok=1
    else skip "the peer $PEER cannot be built (Siconos Numerics missing: scripts/install-deps --peer)"; fi
    [ $have_python -eq 1 ] || skip "python3 missing: no velocity comparison with the peer"
    for f in "$DATA"/*.dat "$DATA"/*.hdf5; do
        [ -f "$f" ] || continue
        base=$(basename "$f")
        tol=$(echo "$TABLE" | awk -v f="$base" '$1 == f { print $2 }')
        [ -n "$tol" ] || { tol=$DEFAULT_TOL; echo "NOTE $base is not in the table: tol $tol"; }
        # the whole problem in one sweep order, as Siconos (no --decompose): the same iterates
        run "nsgs solves $base to $tol" 0 -s nsgs -t "$tol" --decompose off --json --output-w "$T/u.mtx" "$f"
        [ $peer_ok -eq 1 ] || continue
        "$LCP" -s nsgs -n 0 --quiet --output-w "$T/q.mtx" "$f" 2>/dev/null # u at r = 0: q
        if ! "$PEER" nsgs "$f" "$T/rs.mtx" "$T/us.mtx" "$tol" 100000 >"$T/peer" 2>&1; then
            bad "siconos fc3d_nsgs does not reach $tol on $base: $(head -c 200 "$T/peer")"; continue
        fi
        pres=$(awk '{ for (i = 1; i < NF; i++) if ($i == "residual") print $(i + 1) }' "$T/peer")
        if le "$pres" "$tol"; then ok "siconos fc3d_nsgs reaches $tol on $base too (residual $pres by lcpsolve)"
        else bad "siconos fc3d_nsgs on $base: residual $pres > $tol by lcpsolve's verification"; fi
        [ $have_python -eq 1 ] || continue
        d=$(udiff "$T/u.mtx" "$T/us.mtx" "$T/q.mtx")
        if le "$d" "$tol"; then ok "u of nsgs = u of siconos on $base (relative difference $d)"
        else bad "u of nsgs differs from siconos on $base: $d > $tol"; fi
    done
    f="$DATA/BoxesStack1-i100000-32.hdf5.dat"
    if [ "${NSGS_SLOW:-0}" = 1 ] && [ -f "$f" ]; then
        run "nsgs solves BoxesStack1 to 1e-8 (-n 300000)" 0 -s nsgs -t 1e-8 -n 300000 "$f"
    fi
    # every local solver, shuffle, over-relaxation on a small file: Rover1039
    # (4 contacts, non-symmetric W)
    f="$DATA/Rover1039.dat"
    if [ -f "$f" ]; then
        for opt in "--local exact" "--local newton" "--local projection" "--local projection --rho 5" \
                   "--shuffle" "--omega 1.2" "--local newton --shuffle"; do
            # shellcheck disable=SC2086
            run "nsgs $opt on Rover1039" 0 -s nsgs $opt -t 1e-8 "$f"
        done
    fi
fi

# ------------------------------------------------------ generated scenes
for scene in "column --bodies 20" "pyramid --base 5"; do
    for kind in fc3d ccp; do
        d="$T/$(echo "$scene" | cut -d' ' -f1)-$kind"
        # shellcheck disable=SC2086
        "$LCP" generate $scene --mu 0.5 --kind $kind -o "$d" 2>/dev/null
        run "nsgs solves generated $scene --mu 0.5 --kind $kind" 0 -s nsgs -t 1e-8 --json "$d"
        [ $have_python -eq 1 ] && { [ "$(json_field kind)" = "$kind" ] && ok "kind $kind reported" || bad "kind $(json_field kind), expected $kind"; }
    done
done
d="$T/pyramid-fc3d"
for opt in "--local exact" "--local newton" "--local projection" "--local projection --rho 0.1" "--shuffle" \
           "--omega 1.3" "--omega 0.8 --local newton" "--shuffle --local projection"; do
    # shellcheck disable=SC2086
    run "nsgs $opt on the pyramid" 0 -s nsgs $opt -t 1e-8 "$d"
done
run "trace has max_dr" 0 -s nsgs -t 1e-8 --trace "$T/trace.csv" "$d"
if head -n 1 "$T/trace.csv" | grep -q '^iter,time_s,residual,complementarity,feasibility,max_dr$'; then ok "trace header"
else bad "trace header: $(head -n 1 "$T/trace.csv")"; fi
if [ "$(sed -n 2p "$T/trace.csv" | cut -d, -f1)" = 0 ]; then ok "trace row 0 is the start"; else bad "trace row 0 missing"; fi
"$LCP" -s nsgs --shuffle -t 1e-10 --quiet -o "$T/s1.mtx" "$d"; "$LCP" -s nsgs --shuffle -t 1e-10 --quiet -o "$T/s2.mtx" "$d"
if cmp -s "$T/s1.mtx" "$T/s2.mtx"; then ok "--shuffle is reproducible"; else bad "--shuffle gave two answers"; fi

# --------------------------------------------- hand-solved one-contact problems
mtx() { # mtx FILE V1 V2 V3: a 3-vector as a Matrix Market array
    f=$1; shift; printf '%%%%MatrixMarket matrix array real general\n3 1\n%s\n%s\n%s\n' "$@" >"$f"
}
# W = [[2,1,0],[1,2,0],[0,0,2]].  take-off: q_n = 1 >= 0 -> r = 0
cat >"$T/takeoff.json" <<'J'
{"kind": "fc3d", "A": [[2, 1, 0], [1, 2, 0], [0, 0, 2]], "b": [1, -1, 0.5], "mu": [0.3]}
J
mtx "$T/r0.mtx" 0 0 0
# stick: r* = (1, 0.2, -0.1) inside K_0.5, u = 0: q = -W r* = (-2.2, -1.4, 0.2)
cat >"$T/stick.json" <<'J'
{"kind": "fc3d", "A": [[2, 1, 0], [1, 2, 0], [0, 0, 2]], "b": [-2.2, -1.4, 0.2], "mu": [0.5]}
J
mtx "$T/rstick.mtx" 1 0.2 -0.1
# slide: W = [[2,.5,.2],[.5,1.5,.1],[.2,.1,1]], mu = 0.4, r* = (1, 0.24, 0.32)
# (on the cone, direction (0.6, 0.8)), u* = (0, -1.2, -1.6) (opposite r_T):
# q = u* - W r* = (-2.184, -2.092, -2.144)
cat >"$T/slide.json" <<'J'
{"kind": "fc3d", "A": [[2, 0.5, 0.2], [0.5, 1.5, 0.1], [0.2, 0.1, 1]], "b": [-2.184, -2.092, -2.144], "mu": [0.4]}
J
mtx "$T/rslide.mtx" 1 0.24 0.32
for regime in takeoff:r0 stick:rstick slide:rslide; do
    p=${regime%%:*}; ref=${regime#*:}
    for loc in exact newton projection; do
        run "fc3d $p, --local $loc: exact r" 0 -s nsgs --local "$loc" -t 1e-12 --reference "$T/$ref.mtx" --ref-tol 1e-9 "$T/$p.json"
    done
done
# the same data as ccp: take-off and stick are the same; slide is not
sed 's/"fc3d"/"ccp"/' "$T/stick.json" >"$T/stick-ccp.json"
run "ccp stick: the same r" 0 -s nsgs -t 1e-12 --reference "$T/rstick.mtx" --ref-tol 1e-9 "$T/stick-ccp.json"
# ccp slide by hand: r* = (1, 0.24, 0.32), u* = 2 (mu, -0.6, -0.8) = (0.8, -1.2, -1.6)
# (on the dual cone's surface, perpendicular to r*): q = u* - W r* = (-1.384, -2.092, -2.144)
cat >"$T/slide-ccp.json" <<'J'
{"kind": "ccp", "A": [[2, 0.5, 0.2], [0.5, 1.5, 0.1], [0.2, 0.1, 1]], "b": [-1.384, -2.092, -2.144], "mu": [0.4]}
J
for loc in exact newton projection; do
    run "ccp slide, --local $loc: exact r" 0 -s nsgs --local "$loc" -t 1e-12 --reference "$T/rslide.mtx" --ref-tol 1e-9 "$T/slide-ccp.json"
done
# ccp against fc3d on the fc3d slide data: fc3d keeps the contact closed
# (u_n = 0) while it slides; ccp's solution opens it: u_n = mu |u_T| > 0
sed 's/"fc3d"/"ccp"/' "$T/slide.json" >"$T/slide-as-ccp.json"
"$LCP" -s nsgs -t 1e-12 --quiet -o "$T/rf.mtx" --output-w "$T/uf.mtx" "$T/slide.json"
"$LCP" -s nsgs -t 1e-12 --quiet -o "$T/rc.mtx" --output-w "$T/uc.mtx" "$T/slide-as-ccp.json"
if [ $have_python -eq 1 ]; then
    if python3 - "$T/uf.mtx" "$T/uc.mtx" "$T/rf.mtx" "$T/rc.mtx" <<'PY'
import math, sys
def vec(path):
    rows = [l for l in open(path) if not l.startswith('%') and l.strip()]
    return [float(x) for x in rows[1:]]
uf, uc, rf, rc = (vec(p) for p in sys.argv[1:5])
mu = 0.4
ok = abs(uf[0]) <= 1e-10                                     # fc3d: closed
ok = ok and uc[0] > 1e-3                                     # ccp: open ...
ok = ok and abs(uc[0] - mu * math.hypot(uc[1], uc[2])) <= 1e-10  # ... by mu |u_T|
ok = ok and abs(sum(r * u for r, u in zip(rc, uc))) <= 1e-10     # r'u = 0
ok = ok and max(abs(a - b) for a, b in zip(rf, rc)) > 1e-3       # different r
sys.exit(0 if ok else 1)
PY
    then ok "ccp and fc3d differ as theory says (ccp separates while sliding)"
    else bad "ccp vs fc3d on the slide data: u_fc3d = $(sed -n 4p "$T/uf.mtx"), u_ccp = $(sed -n 4,6p "$T/uc.mtx" | tr '\n' ' ')"; fi
fi

# ------------------------------------------------------------------ refusals
cat >"$T/singular.json" <<'J'
{"kind": "fc3d", "A": [[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 1], [0, 0, 0, 0, 1, 1]], "b": [-1, 0, 0, -1, 0, 0], "mu": [0.5, 0.5]}
J
run "singular W_ii refused" 2 -s nsgs "$T/singular.json"
if grep -q "contact 2 (rows 4-6)" "$T/err"; then ok "the refusal names contact 2"; else bad "refusal: $(cat "$T/err")"; fi
cat >"$T/lcp.json" <<'J'
{"kind": "lcp", "A": [[2, 1], [1, 2]], "b": [-5, -6]}
J
run "nsgs refuses an lcp" 2 -s nsgs "$T/lcp.json"
run "nsgs at the iteration limit" 1 -s nsgs -n 1 --local projection -t 1e-14 "$T/slide.json"

finish
