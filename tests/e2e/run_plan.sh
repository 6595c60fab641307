#!/bin/sh
# tests/e2e/run_plan.sh: scripts/run-plan turns a plan into the CSV, the
# table, the performance profiles (all kinds and one a kind) and the
# convergence plots of its traces, in one command; a bad plan exits 2 and
# draws nothing.  Skipped without gnuplot.  Run from the repository root.
. tests/lib.sh
if ! command -v gnuplot >/dev/null 2>&1; then
    skip "run-plan: gnuplot not found (scripts/install-deps installs it)"
    finish; exit $?
fi
cat >"$T/plan.yaml" <<EOF
problems: [$PWD/problems/column-20, $PWD/problems/random-spd-200, $PWD/problems/pyramid-5-fc3d]
configs:
  - {name: pgs, solver: pgs}
  - {name: ipm, solver: ipm}
  - {name: nsgs, solver: nsgs}
traces: traces
EOF
case $LCP in /*) L=$LCP ;; *) L=$PWD/$LCP ;; esac # the binary under test (build-san/lcpsolve, valgrind)
LCPSOLVE=$L scripts/run-plan "$T/plan.yaml" "$T/out" >"$T/log" 2>&1; rc=$?
check "run-plan: exit 0" [ $rc -eq 0 ]
check "run-plan: the table" grep -q "wins/solved" "$T/out/table.txt"
check "run-plan: the CSV, a row a pair" [ "$(tail -n +2 "$T/out/results.csv" | wc -l)" -eq 9 ]
for f in profile-time profile-iterations profile-time-lcp profile-time-fc3d convergence-column-20 convergence-pyramid-5-fc3d; do
    check "run-plan: $f.png" sh -c "head -c 4 '$T/out/$f.png' | grep -q PNG"
    check "run-plan: $f.svg" grep -q "<svg" "$T/out/$f.svg"
done
printf 'problems: [nowhere/*]\nconfigs: [{solver: pgs}]\n' >"$T/bad.yaml"
LCPSOLVE=$L scripts/run-plan "$T/bad.yaml" "$T/bad" >/dev/null 2>"$T/err"; rc=$?
check "run-plan, bad plan: exit 2" [ $rc -eq 2 ]
check "run-plan, bad plan: no pictures" sh -c "! ls '$T/bad'/*.png >/dev/null 2>&1"
finish
