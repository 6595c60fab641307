#!/bin/sh
# tests/e2e/siconos_peer.sh: lcpsolve's solvers against the peer, Siconos
# Numerics 4.4, on the Siconos LCP collection.  For every file whose A is
# positive definite (a unique solution) the peer's exact pivoting answer
# (lcp_lexicolemke) is the reference for pgs, psor and sgs; and lcpsolve's
# own verification must accept the peer's pgs answer too.  Skips cleanly
# where libsiconos-numerics-dev (scripts/install-deps --peer) or the
# collection is missing.  Ends with "N passed, N failed".
. tests/lib.sh
SICONOS=$SICONOS_DATA/lcp
if [ ! -d /usr/include/siconos ] || ! make -s peer >/dev/null 2>&1; then
    skip "Siconos Numerics is not installed (scripts/install-deps --peer)"
    finish; exit $?
fi
[ -d "$SICONOS" ] || { skip "$SICONOS absent (LCPSOLVE_DATA)"; finish; exit $?; }
PEER=build/peer/siconos_lcp
for f in "$SICONOS"/*.dat; do
    name=$(basename "$f" .dat)
    "$LCP" info --json "$f" >"$T/info" 2>/dev/null
    grep -q '"definiteness":"positive definite"' "$T/info" || { skip "$name: A not positive definite"; continue; }
    # sparse-block files: the peer's driver has no lemke there; its nsgs_SBM
    # to 1e-14 is the reference instead
    if ! "$PEER" lemke "$f" "$T/ref.mtx" 1e-14 >"$T/peer" 2>&1 &&
       ! "$PEER" nsgs "$f" "$T/ref.mtx" 1e-14 100000 >"$T/peer" 2>&1; then
        skip "$name: the peer does not solve it ($(head -c 80 "$T/peer"))"; continue
    fi
    for s in pgs psor sgs; do
        if "$LCP" -s "$s" -t 1e-12 -n 1000000 --quiet --reference "$T/ref.mtx" --ref-tol 1e-8 "$f" 2>"$T/err"; then
            ok "$s = siconos lemke on $name"
        else
            bad "$s differs from siconos lemke on $name: $(cat "$T/err")"
        fi
    done
    # the peer's pgs answer, judged by lcpsolve's verification (same residual for all)
    "$PEER" pgs "$f" "$T/speer.mtx" 1e-12 1000000 >/dev/null 2>&1
    if "$LCP" -s pgs -t 1e-8 -n 0 --quiet --warm-start "$T/speer.mtx" "$f" 2>/dev/null; then
        ok "siconos pgs answer verifies on $name"
    else
        bad "siconos pgs answer does not verify on $name"
    fi
done
finish
