#!/bin/sh
# tests/e2e/plots.sh: scripts/bench-loop, scripts/plot-convergence and
# scripts/perf-profile end to end.  bench-loop writes the results table
# (header, one row a run, refusals recorded and the rest going on) and the
# CONFIG__PROBLEM.csv traces; plot-convergence draws them (PNG and SVG, one
# figure a problem, every configuration named); perf-profile computes the
# Dolan-More profile of a hand-made table whose answer is known (median of
# repeats, unsolved = infinite, columns by header name in any order, by
# iterations) and of the bench-loop table.  Bad input exits 2 and writes
# nothing; a failing gnuplot leaves an older picture as it was and no
# temporary files.  Skips the drawing when gnuplot is not installed.
# Run from the repository root: sh tests/e2e/plots.sh.
. tests/lib.sh
BL="python3 scripts/bench-loop --lcpsolve $LCP"
PC="python3 scripts/plot-convergence"
PP="python3 scripts/perf-profile"
png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
svg() { python3 -c "import sys, xml.dom.minidom as m; sys.exit(m.parse(sys.argv[1]).documentElement.tagName != 'svg')" "$1"; }

# --- bench-loop: 3 configurations x 2 problems x 2 repeats, traces
mkdir "$T/tr"
$BL -c 'pgs=-s pgs' -c 'ipm=-s ipm' -c 'mprgp=-s mprgp' -r 2 -t 1e-9 --traces "$T/tr" -o "$T/res.csv" \
    problems/column-20 problems/murty-8 2>"$T/err"; rc=$?
check "bench-loop exit 0 (got $rc: $(head -c 200 "$T/err"))" [ $rc -eq 0 ]
check "bench-loop header" sh -c "head -n 1 '$T/res.csv' | grep -q '^config,problem,repeat,exit_code,kind,n,nnz,solver,precond,status,iterations,time_s,residual'"
check "bench-loop: 12 rows" [ "$(tail -n +2 "$T/res.csv" | wc -l)" -eq 12 ]
check "bench-loop: mprgp on non-symmetric murty-8 recorded as refused" \
    grep -q '^mprgp,murty-8,1,2,lcp,8,36,.*,refused,.*symmetric' "$T/res.csv"
check "bench-loop: the other runs solved" [ "$(grep -c ',solved,' "$T/res.csv")" -eq 10 ]
check "bench-loop: traces CONFIG__PROBLEM.csv" [ -s "$T/tr/pgs__column-20.csv" ] && [ -s "$T/tr/ipm__murty-8.csv" ]
$BL -c 'pgs=-s pgs' -o "$T/x.csv" 2>/dev/null; rc=$?
check "bench-loop without problems: exit 2" [ $rc -eq 2 ]
$BL -c 'pgs' -o "$T/x.csv" problems/column-20 2>/dev/null; rc=$?
check "bench-loop -c without =: exit 2, no table" sh -c "[ $rc -eq 2 ] && [ ! -e '$T/x.csv' ]"

# --- perf-profile on a table with a known answer.  Columns shuffled, an extra
# one; A: p1 median(1, 100, 3) = 3, p2 4, p3 unsolved; B: p1 6, p2 2, p3 5;
# C: unsolved everywhere.  Ratios A: 1, 2, inf; B: 2, 1, 1; C: inf.
cat >"$T/known.csv" <<'C'
status,extra,time_s,problem,iterations,config,repeat
solved,x,1,p1,10,A,1
solved,x,100,p1,10,A,2
solved,x,3,p1,10,A,3
solved,x,4,p2,40,A,1
max_iter,x,0.5,p3,99,A,1
solved,x,6,p1,20,B,1
solved,x,2,p2,10,B,1
solved,x,5,p3,30,B,1
error,x,0.1,p1,1,C,1
no_solution,x,0.1,p2,1,C,1
time_limit,x,0.1,p3,1,C,1
C
$PP -o "$T/prof" "$T/known.csv" >"$T/out" 2>"$T/err"; rc=$?
check "perf-profile exit 0 (got $rc: $(head -c 200 "$T/err"))" [ $rc -eq 0 ]
row() { grep "^$1 " "$T/out" | tr -s ' ' | cut -d' ' -f2-5; }
check "A: 2/3 solved, rho(1) 0.33, rho(2) 0.67 (got $(row A))" [ "$(row A)" = "2/3 0.33 0.67 0.67" ]
check "B: 3/3 solved, rho(1) 0.67, rho(2) 1 (got $(row B))" [ "$(row B)" = "3/3 0.67 1.00 1.00" ]
check "C: unsolved everywhere, rho 0 (got $(row C))" [ "$(row C)" = "0/3 0.00 0.00 0.00" ]
$PP --by iterations -o "$T/profi" "$T/known.csv" >"$T/out" 2>&1
check "by iterations: A 10,40 vs B 20,10,30: rho(1) 0.33, rho(2) 0.33 (got $(row A))" \
    [ "$(row A)" = "2/3 0.33 0.33 0.67" ]

$PP --configs B,A -o "$T/profc" "$T/known.csv" >"$T/out" 2>&1
check "--configs B,A: only those two, ratios among them (got $(row A); $(row B))" \
    sh -c "[ '$(row A)' = '2/3 0.33 0.67 0.67' ] && [ -z \"\$(grep '^C ' '$T/out')\" ]"
$PP --kind lcp -o "$T/profc" "$T/res.csv" >"$T/out" 2>&1
check "--kind lcp on the bench-loop table (kind of refused runs known)" grep -q '^mprgp .* 1/2 ' "$T/out"

if ! command -v "${GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
    skip "gnuplot not installed: no pictures drawn (scripts/install-deps installs gnuplot-nox)"
else
    check "perf-profile: PNG" png "$T/prof.png"
    check "perf-profile: SVG" svg "$T/prof.svg"
    check "perf-profile: every configuration in the key" sh -c "grep -q '>A<' '$T/prof.svg' && grep -q '>B<' '$T/prof.svg' && grep -q '>C<' '$T/prof.svg'"
    $PP -o "$T/prof2.svg" "$T/res.csv" >"$T/out" 2>&1; rc=$?
    check "perf-profile of the bench-loop table (-o NAME.svg: NAME.png and NAME.svg)" \
        sh -c "[ $rc -eq 0 ] && [ -s '$T/prof2.png' ] && [ -s '$T/prof2.svg' ] && grep -q '^mprgp .* 1/2 ' '$T/out'"

    # --- plot-convergence: the trace folder, two problems, two figures
    $PC -o "$T/conv" --tol 1e-9 "$T/tr" >"$T/out" 2>"$T/err"; rc=$?
    check "plot-convergence exit 0 (got $rc: $(head -c 200 "$T/err"))" [ $rc -eq 0 ]
    check "plot-convergence: a PNG and an SVG a problem" sh -c "[ -s '$T/conv-column-20.png' ] && [ -s '$T/conv-column-20.svg' ] && [ -s '$T/conv-murty-8.png' ] && [ -s '$T/conv-murty-8.svg' ]"
    check "plot-convergence: PNG" png "$T/conv-column-20.png"
    check "plot-convergence: SVG" svg "$T/conv-murty-8.svg"
    check "plot-convergence: each configuration a line" sh -c "grep -q '>pgs<' '$T/conv-column-20.svg' && grep -q '>ipm<' '$T/conv-column-20.svg' && grep -q '>mprgp<' '$T/conv-column-20.svg'"
    $PC -o "$T/one" "$T/tr/pgs__column-20.csv" "$T/tr/ipm__column-20.csv" >/dev/null 2>&1
    check "plot-convergence: files of one problem, one figure PREFIX.png/.svg" [ -s "$T/one.png" ] && [ -s "$T/one.svg" ]
    $PC --linear --column complementarity -o "$T/lin" "$T/tr/pgs__column-20.csv" >/dev/null 2>&1
    check "plot-convergence --linear --column complementarity" [ -s "$T/lin.svg" ]

    # --- nothing half-written: a failing gnuplot leaves the old picture and no temporaries
    echo old >"$T/keep.png"
    GNUPLOT=false $PP -o "$T/keep" "$T/known.csv" >/dev/null 2>&1; rc=$?
    check "failing gnuplot: exit non-zero, the old PNG untouched, no SVG" \
        sh -c "[ $rc -ne 0 ] && [ \"\$(cat '$T/keep.png')\" = old ] && [ ! -e '$T/keep.svg' ]"
    check "failing gnuplot: no temporary files left" [ -z "$(ls -A "$T" | grep '^\.keep')" ]
fi

# --- bad input: exit 2, one reason, nothing written
bad2() { # bad2 NAME PREFIX CMD...: exit 2 and no PREFIX.png/.svg
    _n=$1; _p=$2; shift 2
    "$@" >"$T/out" 2>&1; _rc=$?
    if [ $_rc -eq 2 ] && [ ! -e "$_p.png" ] && [ ! -e "$_p.svg" ]; then ok "$_n"; else bad "$_n (exit $_rc: $(head -c 200 "$T/out"))"; fi
}
printf 'config,problem,status\nA,p1,solved\n' >"$T/nocol.csv"
bad2 "perf-profile: no time_s column" "$T/b1" $PP -o "$T/b1" "$T/nocol.csv"
check "  ... the message names the column" grep -q "no column 'time_s'" "$T/out"
printf 'config,problem,status,time_s\nA,p1,solved,fast\n' >"$T/nan.csv"
bad2 "perf-profile: a time that is not a number" "$T/b2" $PP -o "$T/b2" "$T/nan.csv"
check "  ... the message names the line" grep -q "nan.csv:2:" "$T/out"
: >"$T/empty.csv"
bad2 "perf-profile: an empty file" "$T/b3" $PP -o "$T/b3" "$T/empty.csv"
bad2 "perf-profile: a missing file" "$T/b4" $PP -o "$T/b4" "$T/nonexistent.csv"
bad2 "perf-profile: --by nonsense" "$T/b5" $PP --by speed -o "$T/b5" "$T/known.csv"
bad2 "perf-profile: unknown option" "$T/b6" $PP --bogus "$T/known.csv"
bad2 "perf-profile: no file" "$T/b7" $PP -o "$T/b7"
bad2 "perf-profile: --kind without a kind column" "$T/b8" $PP --kind lcp -o "$T/b8" "$T/known.csv"
bad2 "perf-profile: --configs naming an absent one" "$T/b9" $PP --configs A,Z -o "$T/b9" "$T/known.csv"
printf 'iter,time_s,residual\n0,0.1,1\n1,0.2,oops\n' >"$T/tr/bad__column-20.csv"
bad2 "plot-convergence: a bad row in one trace of the folder: nothing drawn" "$T/c1-column-20" $PC -o "$T/c1" "$T/tr"
check "  ... the message names the file and line" grep -q "bad__column-20.csv:3:" "$T/out"
check "  ... not even the figures of the good problems" [ ! -e "$T/c1-murty-8.png" ]
printf 'a,b\n1,2\n' >"$T/notrace.csv"
bad2 "plot-convergence: not a trace" "$T/c2" $PC -o "$T/c2" "$T/notrace.csv"
mkdir "$T/emptydir"
bad2 "plot-convergence: a folder without .csv" "$T/c3" $PC -o "$T/c3" "$T/emptydir"
bad2 "plot-convergence: no input" "$T/c4" $PC -o "$T/c4"
bad2 "plot-convergence: unknown option" "$T/c5" $PC --bogus "$T/notrace.csv"
finish
