#!/bin/sh
# tests/e2e/stdin.sh: a problem on standard input ("lcpsolve -") in every
# single-file format a path takes (JSON, Siconos .dat, FCLIB HDF5), told from
# its first bytes, gives the same answer as the same file given by path: the
# same --json fields (but the problem's name, "<stdin>", and the times), the
# same solution file byte for byte.  Matrix Market through -A - / -b - too.
# The HDF5 bytes go through a temporary file that must not outlive the run.
# Refusals through standard input: tests/bad/EXPECT (#stdin cases).
# Run from the repository root: sh tests/e2e/stdin.sh; ends "N passed, N failed".
. tests/lib.sh
SICONOS=$SICONOS_DATA
case $LCP in /*) ;; *) LCP=$PWD/$LCP ;; esac
mkdir "$T/tmpdir"

# same_fields A.json B.json: the --json objects agree but for the name and times
same_fields() {
    python3 - "$1" "$2" <<'P'
import json, sys
try:
    a, b = (json.load(open(f)) for f in sys.argv[1:3])
except ValueError as e:
    sys.exit("not two --json objects (%s)" % e)
if b.get("problem") != "<stdin>":
    sys.exit("stdin run names the problem %r, not <stdin>" % b.get("problem"))
skip = lambda k: k == "problem" or k.endswith("time_s") or k.endswith("_s")
diff = [k for k in set(a) | set(b) if not skip(k) and a.get(k) != b.get(k)]
if diff:
    sys.exit("differ in " + ", ".join("%s: %r vs %r" % (k, a.get(k), b.get(k)) for k in sorted(diff)))
P
}

# same NAME FILE [OPTIONS...]: FILE by path, then on standard input, from the
# folder of FILE (a manifest's files are relative to the working folder)
same() {
    _name=$1; _file=$2; shift 2
    _dir=$(dirname "$_file")
    "$LCP" -j 1 --json -o "$T/path.mtx" "$@" "$_file" >"$T/path.json" 2>"$T/path.err"; _r1=$?
    (cd "$_dir" && TMPDIR=$T/tmpdir "$LCP" -j 1 --json -o "$T/stdin.mtx" "$@" - <"$(basename "$_file")" \
        >"$T/stdin.json" 2>"$T/stdin.err"); _r2=$?
    if [ "$_r1" -gt 1 ]; then bad "$_name: by path, exit $_r1: $(head -c 200 "$T/path.err")"; return; fi
    if [ "$_r2" -ne "$_r1" ]; then
        bad "$_name: exit $_r2 through stdin, $_r1 by path: $(head -c 200 "$T/stdin.err")"
        return
    fi
    if _why=$(same_fields "$T/path.json" "$T/stdin.json" 2>&1); then ok "$_name: the same --json"; else bad "$_name: $_why"; fi
    check "$_name: the same solution file" cmp -s "$T/path.mtx" "$T/stdin.mtx"
    check "$_name: no temporary file left" [ -z "$(ls -A "$T/tmpdir")" ]
    rm -f "$T/path.mtx" "$T/stdin.mtx"
}

# --- JSON: a whole problem, and a manifest naming Matrix Market files (JSON
# was the one format stdin took before: these two are the controls)
same "JSON problem" tests/bad/good.json
same "JSON manifest" problems/murty-8/problem.json

# --- Siconos .dat: LCP and FrictionContact (dense storage), with blanks before
printf '2\n0\n2\n2\n2 2\n2 1\n1 2\n-1 1\n\nfrom tests/e2e/stdin.sh\n' >"$T/lcp.dat"
printf '\n  3\n1\n0\n3\n3\n3 3\n4 1 0\n1 5 0\n0 0 6\n-1 2 3\n0.25\n' >"$T/fc.dat"
same "Siconos .dat LCP" "$T/lcp.dat"
same "Siconos .dat LCP as blcp (--kind)" "$T/lcp.dat" --kind blcp
same "Siconos .dat friction" "$T/fc.dat"
if [ -d "$SICONOS" ]; then
    same "Siconos lcp_CPS_1.dat" "$SICONOS/lcp/lcp_CPS_1.dat"
    same "Siconos FrictionContact3D_1c.dat" "$SICONOS/fc3d/FrictionContact3D_1c.dat"
else
    skip "the Siconos collection ($SICONOS) is not here"
fi

# --- FCLIB HDF5 (through a temporary file, removed)
same "FCLIB HDF5" tests/bad/fclib_good.hdf5
if [ -f "$SICONOS/fc3d/Box_Stacks-i0122-82-5.hdf5" ]; then
    # a named solver: auto's runs end on CPU-time budgets, and where one is
    # reached (a slow sanitized build) the count of iterations in the reason
    # varies from run to run
    same "FCLIB Box_Stacks" "$SICONOS/fc3d/Box_Stacks-i0122-82-5.hdf5" -n 50 --solver nsgs
else
    skip "Box_Stacks-i0122-82-5.hdf5 is not here"
fi

# --- info reads standard input the same way
"$LCP" info --json tests/bad/fclib_good.hdf5 >"$T/path.json" 2>/dev/null
TMPDIR=$T/tmpdir "$LCP" info --json - <tests/bad/fclib_good.hdf5 >"$T/stdin.json" 2>"$T/stdin.err"
if _why=$(same_fields "$T/path.json" "$T/stdin.json" 2>&1); then ok "info: FCLIB through stdin"; else bad "info: FCLIB through stdin: $_why $(head -c 200 "$T/stdin.err")"; fi

# --- Matrix Market: one matrix a file, so -A - or -b - (as before), and as
# the problem itself refused as A.mtx by path is, not as "invalid JSON"
printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 2\n2 1 1\n2 2 2\n' >"$T/A.mtx"
printf '%%%%MatrixMarket matrix array real general\n2 1\n-5\n-6\n' >"$T/b.mtx"
"$LCP" -j 1 -A "$T/A.mtx" -b "$T/b.mtx" -o "$T/ab.mtx" >/dev/null 2>&1
"$LCP" -j 1 -A "$T/A.mtx" -b - -o "$T/ab-b.mtx" <"$T/b.mtx" >/dev/null 2>"$T/err"
check "Matrix Market b through -b -: the same solution" cmp -s "$T/ab.mtx" "$T/ab-b.mtx"
"$LCP" -j 1 -A - -b "$T/b.mtx" -o "$T/ab-A.mtx" <"$T/A.mtx" >/dev/null 2>"$T/err"
check "Matrix Market A through -A -: the same solution" cmp -s "$T/ab.mtx" "$T/ab-A.mtx"
"$LCP" - <"$T/A.mtx" >"$T/out" 2>"$T/err"; rc=$?
mtx_refused() {
    [ "$rc" -eq 2 ] && [ ! -s "$T/out" ] &&
        grep -q '^lcpsolve: <stdin>:1: a Matrix Market file holds one matrix: give the problem as -A - -b' "$T/err"
}
check "Matrix Market as the problem (-): exit 2, told to use -A - -b" mtx_refused

finish
