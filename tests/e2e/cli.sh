#!/bin/sh
# tests/e2e/cli.sh: end-to-end tests of the lcpsolve binary: exit codes,
# --json fields, traces, --reference, warm starts, configs, generated scenes
# checked by an independent residual (tests/check_residual.py), and the
# Siconos collection.  Run from the repository root: sh tests/e2e/cli.sh
# Ends with "N passed, N failed".
. tests/lib.sh
SICONOS=$SICONOS_DATA
# run NAME EXPECTED_EXIT ARGS...: runs lcpsolve, keeps stdout/stderr in $T/out, $T/err
run() {
    name=$1; want=$2; shift 2
    "$LCP" "$@" >"$T/out" 2>"$T/err"; got=$?
    if [ "$got" -eq "$want" ]; then ok "$name (exit $got)"; else bad "$name: exit $got, expected $want: $(head -c 300 "$T/err")"; fi
}
one_line_err() { [ "$(wc -l <"$T/err")" -eq 1 ]; }

cat >"$T/p.json" <<'J'
{"kind": "lcp", "A": [[2, 1], [1, 2]], "b": [-5, -6]}
J
printf '%%%%MatrixMarket matrix array real general\n2 1\n1.3333333333333333\n2.3333333333333335\n' >"$T/ref.mtx"
printf '%%%%MatrixMarket matrix array real general\n2 1\n1\n2\n' >"$T/wrongref.mtx"

# --- help, version, listing, usage errors
run help 0 --help;                  check "help on stdout" grep -q "usage: lcpsolve" "$T/out"
run version 0 --version;            check "version printed" grep -q "^lcpsolve [0-9]" "$T/out"
run list 0 --list-solvers
for s in pgs psor sgs jacobi; do check "listed $s" grep -q "^$s " "$T/out"; done
run "unknown option" 2 --frobnicate "$T/p.json";   check "unknown option: one line" one_line_err
run "unknown solver" 2 -s nosuch "$T/p.json";      check "unknown solver named" grep -q "nosuch" "$T/err"
run "unknown precond" 2 -p nosuch "$T/p.json";     check "unknown precond: one line" one_line_err
run "bad tol" 2 -t abc "$T/p.json"
run "bad omega" 2 -s psor --omega 2.5 "$T/p.json"
run "two problems" 2 "$T/p.json" "$T/p.json"
run "no problem" 2
run "missing file" 2 "$T/nothere.json";           check "missing file named" grep -q "nothere.json" "$T/err"

# --- every solver on the hand-solved problem, json fields, reference
for s in pgs psor sgs jacobi; do
    run "$s solves 2x2" 0 -s "$s" --json --reference "$T/ref.mtx" "$T/p.json"
    check "$s status solved" [ "$(json_field status)" = solved ]
done
for f in problem kind n nnz solver precond status iterations time_s residual complementarity feasibility; do
    check "json has $f" grep -q "\"$f\":" "$T/out"
done
run "reference mismatch" 4 -s pgs --json --reference "$T/wrongref.mtx" "$T/p.json"
check "status reference_mismatch" [ "$(json_field status)" = reference_mismatch ]
run "reference loose ref-tol" 0 -s pgs --reference "$T/wrongref.mtx" --ref-tol 0.5 "$T/p.json"

# --- limits: exit 1 and the best iterate still written
run "max-iter reached" 1 -s pgs -n 2 --json -o "$T/x2.mtx" "$T/p.json"
check "status max_iter" [ "$(json_field status)" = max_iter ]
check "best iterate written" grep -q "MatrixMarket" "$T/x2.mtx"
check "iterations = 2" [ "$(json_field iterations)" = 2 ]

# --- trace: header, row 0 is the start, one row an iteration
run "trace" 0 -s pgs --json --trace "$T/t.csv" "$T/p.json"
check "trace header" [ "$(head -n 1 "$T/t.csv")" = "iter,time_s,residual,complementarity,feasibility,max_dx" ]
check "trace row 0" grep -q "^0," "$T/t.csv"
iters=$(json_field iterations)
check "trace rows = iterations + 1" [ "$(($(wc -l <"$T/t.csv") - 2))" -eq "$iters" ]
check "no temp files left" [ -z "$(ls "$T" | grep '\.tmp\.')" ]

# --- warm start at the solution: converged at iteration 0
run "solve for warm start" 0 -s pgs -t 1e-14 -o "$T/xs.mtx" "$T/p.json"
run "warm start" 0 -s pgs --json --warm-start "$T/xs.mtx" "$T/p.json"
check "warm start: 0 iterations" [ "$(json_field iterations)" = 0 ]
run "warm start wrong size" 2 -s pgs --warm-start "$T/b3.mtx" "$T/p.json"

# --- YAML configuration, the command line wins
printf 'solver: psor\nomega: 1.2\ntol: 1e-10\n' >"$T/c.yaml"
run "config" 0 --config "$T/c.yaml" --json "$T/p.json"
check "config solver" [ "$(json_field solver)" = psor ]
check "config omega" [ "$(json_field omega)" = 1.2 ]
run "config overridden" 0 --config "$T/c.yaml" -s sgs --json "$T/p.json"
check "command line wins" [ "$(json_field solver)" = sgs ]
printf 'solver: psor\nnosuch: 3\n' >"$T/bad.yaml"
run "config unknown key" 2 --config "$T/bad.yaml" "$T/p.json"
check "config error names file:line" grep -q "bad.yaml:2" "$T/err"

# --- outputs: w, stdout, atomic failure into a missing folder
run "output-w" 0 -s pgs -o "$T/x.mtx" --output-w "$T/w.mtx" "$T/p.json"
check "w written" grep -q "MatrixMarket" "$T/w.mtx"
run "output to stdout" 0 -s pgs --quiet -o - "$T/p.json"
check "stdout holds the vector" grep -q "MatrixMarket matrix array" "$T/out"
"$LCP" -s pgs -o "$T/nodir/x.mtx" "$T/p.json" >/dev/null 2>&1; rc=$?
check "unwritable output refused" [ "$rc" -ne 0 ] && check "no partial file" [ ! -e "$T/nodir/x.mtx" ]

# --- -A/-b files, stdin, symmetric coordinate
printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 2\n2 1 1\n2 2 2\n' >"$T/A.mtx"
printf '%%%%MatrixMarket matrix array real general\n2 1\n-5\n-6\n' >"$T/b.mtx"
printf '%%%%MatrixMarket matrix array real general\n3 1\n1\n1\n1\n' >"$T/b3.mtx"
run "-A -b" 0 -s pgs -A "$T/A.mtx" -b "$T/b.mtx" -o "$T/xab.mtx" --reference "$T/ref.mtx"
check "independent residual" python3 tests/check_residual.py "$T/A.mtx" "$T/b.mtx" "$T/xab.mtx" --max 1e-8
"$LCP" -s pgs -A - -b "$T/b.mtx" --quiet <"$T/A.mtx"; check "A from stdin" [ $? -eq 0 ]
run "b wrong length" 2 -A "$T/A.mtx" -b "$T/b3.mtx"
check "b length message" grep -q "b has 3 entries" "$T/err"

run "problem JSON from stdin" 0 -s pgs --json - <"$T/p.json"
check "stdin problem named" [ "$(json_field problem)" = "<stdin>" ]

# --- time limit and interruption: exit 1, the best iterate written whole
"$LCP" generate column --bodies 2000 -o "$T/c2k" 2>/dev/null
run "time limit" 1 -s pgs -n 100000000 --time-limit 0.3 --json -o "$T/tl.mtx" "$T/c2k"
check "status time_limit" [ "$(json_field status)" = time_limit ]
check "time limit: best iterate written" grep -q "^2000 1" "$T/tl.mtx"
"$LCP" -s pgs -n 100000000 --time-limit 600 --json -o "$T/int.mtx" --trace "$T/int.csv" "$T/c2k" >"$T/out" 2>"$T/err" &
pid=$!; started; kill -INT $pid; wait $pid; rc=$?
check "SIGINT: exit 1" [ "$rc" -eq 1 ]
check "SIGINT: message interrupted" [ "$(json_field message)" = interrupted ]
check "SIGINT: solution written whole" [ "$(grep -cv '^%' "$T/int.mtx")" -eq 2001 ]
check "SIGINT: trace flushed" [ "$(($(wc -l <"$T/int.csv") - 2))" -eq "$(json_field iterations)" ]

# --- blcp with bounds and findex: pgs and jacobi agree
cat >"$T/box.json" <<'J'
{"kind": "blcp", "A": [[4, 1, 0], [1, 4, 1], [0, 1, 4]], "b": [-8, 3, -2],
 "lo": [0, "-inf", -1], "hi": ["inf", "inf", 0.2]}
J
run "blcp pgs" 0 -s pgs -t 1e-12 -o "$T/bp.mtx" "$T/box.json"
run "blcp jacobi" 0 -s jacobi -t 1e-12 -o "$T/bj.mtx" --reference "$T/bp.mtx" --ref-tol 1e-9 "$T/box.json"
cat >"$T/fi.json" <<'J'
{"kind": "blcp", "A": [[3, 0.5, 0.2], [0.5, 2, 0.1], [0.2, 0.1, 2]], "b": [-3, 1, -2],
 "lo": [0, 0, 0], "hi": ["inf", 0, 0], "findex": [-1, 0, 0], "mu": [0, 0.5, 0.5]}
J
run "findex pgs" 0 -s pgs -t 1e-12 --json -o "$T/fp.mtx" "$T/fi.json"
run "findex sgs agrees" 0 -s sgs -t 1e-12 --reference "$T/fp.mtx" --ref-tol 1e-9 "$T/fi.json"

# --- failures that must not look like success
printf '{"kind":"lcp","A":[[0,1],[1,0]],"b":[-1,-1]}' >"$T/zd.json"
run "zero diagonal refused" 2 -s pgs "$T/zd.json";   check "zero diagonal reason" grep -q "positive diagonal" "$T/err"
# (Lemke ends in a ray on this non-copositive A, which decides nothing; the
# enumeration of its 4 complementary bases does: x = (1, 1))
run "auto solves a zero diagonal" 0 "$T/zd.json";  check "auto says what it picked" grep -q "^lcpsolve: auto: " "$T/err"
run "lemke alone: decided by enumeration" 0 -s lemke --json "$T/zd.json"
check "lemke alone: the note says how" grep -q "decided by its 1 component (1 by complete enumeration" "$T/out"
printf '{"kind":"blcp","A":[[1,0.99],[0.99,1]],"b":[-1,-2],"lo":["-inf","-inf"],"hi":["inf","inf"]}' >"$T/ill.json"
run "jacobi diverges: error" 5 -s jacobi --omega 1.99 --json "$T/ill.json"
check "status error" [ "$(json_field status)" = error ]

# --- determinism: jacobi on 1 and 2 threads gives the same bits
if "$LCP" generate random-spd --size 300 --density 0.02 --seed 3 -o "$T/rs" 2>/dev/null; then
    "$LCP" -s jacobi -j 1 -n 50 -o "$T/j1.mtx" "$T/rs" >/dev/null 2>&1
    "$LCP" -s jacobi -j 2 -n 50 -o "$T/j2.mtx" "$T/rs" >/dev/null 2>&1
    check "jacobi -j 2 bitwise = -j 1" cmp -s "$T/j1.mtx" "$T/j2.mtx"
    run "psor omega auto" 0 -s psor --omega auto --json "$T/rs"
    check "omega in (1, 2)" python3 -c "import json; o=json.load(open('$T/out'))['omega']; assert 1 <= o < 2"
    run "info random-spd" 0 info "$T/rs";  check "info says positive definite" grep -q "positive definite" "$T/out"
fi

# --- generated scenes of a few thousand contacts, checked independently.
# pgs on the 3,600-contact pyramid; on a 3,000-sphere column plain pgs needs
# O(N^2) sweeps (BENCHMARKS.md), psor with the estimated omega O(N).
for scene in "pgs pyramid --base 30" "psor column --bodies 3000" "psor column --bodies 300 --mass-ratio 10" "pgs column --bodies 40 --mass-ratio 10"; do
    set -- $scene; solver=$1; shift; dir="$T/$1"
    if "$LCP" generate "$@" -o "$dir" 2>"$T/err"; then
        run "$solver on $1 (-A -b)" 0 -s "$solver" -t 1e-8 -A "$dir/A.mtx" -b "$dir/b.mtx" -o "$dir/x.mtx" --json
        check "$1: independent residual <= 1e-8" python3 tests/check_residual.py "$dir/A.mtx" "$dir/b.mtx" "$dir/x.mtx" --max 1e-8
        run "$solver on the $1 folder" 0 -s "$solver" "$dir"
    else
        bad "generate $scene: $(cat "$T/err")"
    fi
done
# the pgs limit on a tall column is reported honestly: exit 1, best iterate written
"$LCP" generate column --bodies 3000 -o "$T/tall" 2>/dev/null
run "pgs on a tall column stops at the limit" 1 -s pgs -n 2000 --json -o "$T/tall/x.mtx" "$T/tall"
check "tall column: status max_iter" [ "$(json_field status)" = max_iter ]

# --- the Siconos collection: every file loads; the positive definite LCPs solve
if [ -d "$SICONOS" ]; then
    for f in "$SICONOS"/lcp/*.dat "$SICONOS"/fc3d/*.dat "$SICONOS"/fc3d/*.hdf5; do
        run "info $(basename "$f")" 0 info --json "$f"
        check "$(basename "$f") has n" [ -n "$(json_field n)" ]
    done
    for f in lcp_trivial lcp_trivial_block lcp_deudeu lcp_deudeu_block lcp_mmc lcp_enum_fails lcp_ortiz lcp_ortiz_block; do
        "$LCP" info --json "$SICONOS/lcp/$f.dat" >"$T/out" 2>/dev/null
        [ "$(json_field definiteness)" = "positive definite" ] || { skip "$f: not positive definite"; continue; }
        for s in pgs psor sgs; do
            run "$s on $f" 0 -s "$s" -t 1e-10 -n 1000000 "$SICONOS/lcp/$f.dat"
        done
    done
    run "pgs on an fc3d file refused" 2 -s pgs "$SICONOS/fc3d/FC3D_Example1.dat"
    check "refusal names the kinds" grep -q "fc3d" "$T/err"
else
    skip "Siconos collection: $SICONOS absent"
fi

# --- install
make -s install PREFIX="$T/inst" >/dev/null 2>&1
check "install: binary" [ -x "$T/inst/bin/lcpsolve" ]
check "install: man page" [ -f "$T/inst/share/man/man1/lcpsolve.1" ]

# --- the man page documents every option and every solver
for o in $("$LCP" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
    check "man page has $o" grep -q -- "$(echo "$o" | sed 's/-/\\\\-/g')" man/lcpsolve.1
done
for s in $("$LCP" --list-solvers | awk '{print $1}'); do check "man page has solver $s" grep -qw "$s" man/lcpsolve.1; done

# --- output files: checked before any work; -o - keeps stdout for the solution
"$LCP" generate column --bodies 3000 -o "$T/col3k" 2>/dev/null
for opt in -o --output-w --graph; do
    s0=$(date +%s)
    "$LCP" -s pgs -n 100000000 --time-limit 30 $opt "$T/nodir/x.mtx" "$T/col3k" >"$T/out" 2>"$T/err"; rc=$?
    s1=$(date +%s)
    check "$opt into a missing folder: exit 2 at once ($((s1 - s0)) s)" [ $rc -eq 2 ] && [ $((s1 - s0)) -lt 10 ]
    check "$opt into a missing folder: the message names it" grep -q "nodir/x.mtx: cannot write" "$T/err"
    check "$opt into a missing folder: no summary" [ ! -s "$T/out" ]
done
"$LCP" -s pgs -o - problems/column-20 >"$T/out" 2>"$T/err"; rc=$?
check "-o -: exit 0" [ $rc -eq 0 ]
check "-o -: stdout is the solution alone" python3 -c "
import sys; sys.path.insert(0, 'tests'); from check_residual import read_mtx
m, n, e = read_mtx('$T/out'); sys.exit(not (m == 20 and n == 1 and len(e) == 20))"
check "-o -: the summary on stderr" grep -q "^status  *solved" "$T/err"
"$LCP" -s pgs -o - --json problems/column-20 >"$T/out" 2>"$T/err"
check "-o - --json: the JSON on stderr" python3 -c "import json; json.load(open('$T/err'))"
check "-o - --json: stdout the solution" grep -q "^%%MatrixMarket" "$T/out"
# --- the summary says what a solver chose by itself
"$LCP" -s psor --omega auto problems/pyramid-5 >"$T/out"
check "psor --omega auto on a singular A: the note says omega 1 and why" grep -q "^note  *omega 1 (--omega auto: " "$T/out"
"$LCP" -s psor problems/column-20 >"$T/out"
check "psor on a chain: the note gives the estimated omega" grep -q "^note  *omega 1\.[0-9]* (--omega auto: the optimum" "$T/out"

# an output path that is no regular file (a FIFO here, /dev/null alike) is
# written in place: the atomic write's rename would replace it with a file
mkfifo "$T/fifo"
timeout 60 cat "$T/fifo" >"$T/fifo.got" &
reader=$!
timeout 60 "$LCP" -s pgs -o "$T/fifo" problems/column-20 >/dev/null 2>"$T/err"; rc=$?
wait $reader
check "-o FIFO: exit 0 (got $rc), the solution through the FIFO, the FIFO still one" \
    sh -c "[ $rc -eq 0 ] && [ -p '$T/fifo' ] && grep -q '^%%MatrixMarket' '$T/fifo.got' && ! ls '$T' | grep -q 'fifo.tmp'"
"$LCP" -s pgs -o "$T" problems/column-20 >/dev/null 2>"$T/err"; rc=$?
check "-o DIRECTORY: exit 2, one line naming it" sh -c "[ $rc -eq 2 ] && grep -q 'is a directory' '$T/err' && [ \$(wc -l <'$T/err') -eq 1 ]"
"$LCP" -s pgs -o /dev/null --output-w /dev/null --trace /dev/null problems/column-20 >"$T/out" 2>"$T/err"; rc=$?
check "-o /dev/null: exit 0 (got $rc), /dev/null still the device" sh -c "[ $rc -eq 0 ] && [ -c /dev/null ]"
finish
