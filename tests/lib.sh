# tests/lib.sh: what every end-to-end test script shares.  Sourced from the
# repository root (`. tests/lib.sh`); each script then counts with ok/bad/check
# and ends with `finish`, which prints "N passed, N failed, N skipped" and
# sets the exit status.  Helpers use _-prefixed variables (sh has no locals).
LCP=${LCPSOLVE:-./lcpsolve}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
if [ -n "$LCPSOLVE_WRAP" ]; then # every "$LCP" call runs as: $LCPSOLVE_WRAP LCPSOLVE ARGS (scripts/valgrind-e2e)
    case $LCP in /*) ;; *) LCP=$PWD/$LCP ;; esac
    printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$LCPSOLVE_WRAP" "$LCP" >"$T/lcpsolve"
    chmod +x "$T/lcpsolve"; LCP=$T/lcpsolve
fi
# started(): after "$LCP" ... & and pid=$!, before a signal to it.  A
# background job starts with SIGINT ignored until lcpsolve sets its handler,
# and a signal before that is lost (the solve then runs to its limit): wait
# until /proc/PID/status shows SIGINT caught (SigCgt bit 2; at most 60 s, a
# loaded machine, a sanitized build's slow start), then a second into the
# solve.  Under valgrind (LCPSOLVE_WRAP) the tool catches every signal from
# its start: 20 s more.
started() {
    _i=0
    while [ "$_i" -lt 600 ] && [ -r "/proc/$pid/status" ]; do
        _m=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null)
        [ -n "$_m" ] && [ $((0x$_m & 2)) -ne 0 ] && break
        sleep 0.1; _i=$((_i + 1))
    done
    sleep 1
    [ -z "$LCPSOLVE_WRAP" ] || sleep 20
}
# The public collections of the field (optional, never in the repository):
# LCPSOLVE_DATA, by default ../shared/data beside the clone; the checks that
# use them are skipped, each with one SKIP line, where it is absent.
LCPSOLVE_DATA=${LCPSOLVE_DATA:-../shared/data}; export LCPSOLVE_DATA
SICONOS_DATA=$LCPSOLVE_DATA/siconos
# -j N runs exactly N threads in the tests, however loaded the machine
# (src/core/common.c lcp_threads_free; tests/e2e/threads_free.sh unsets it)
LCPSOLVE_THREADS=${LCPSOLVE_THREADS-exact}; export LCPSOLVE_THREADS
pass=0; fail=0; skipped=0
ok()    { pass=$((pass + 1)); echo "PASS $1"; }
bad()   { fail=$((fail + 1)); echo "FAIL $1"; }
skip()  { skipped=$((skipped + 1)); echo "SKIP $1"; }
check() { _c=$1; shift; if "$@"; then ok "$_c"; else bad "$_c"; fi; }
json_field() { # json_field NAME: a top-level field of the --json output in $T/out ('' if absent)
    python3 -c "import json; v=json.load(open('$T/out')).get('$1'); print(v if v is not None else '')"
}
indep() { python3 tests/check_residual.py "$@" >/dev/null; } # indep A.mtx b.mtx x.mtx --max X
finish() { echo "$pass passed, $fail failed, $skipped skipped"; [ "$fail" -eq 0 ]; }
