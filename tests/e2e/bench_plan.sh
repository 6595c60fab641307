#!/bin/sh
# tests/e2e/bench_plan.sh: `lcpsolve bench PLAN.yaml`.  A small plan over
# problems/ (3 configurations, 2 repeats): one CSV row a run with the
# --json fields (the same iterations as a direct run), skipped pairs with
# their reason, traces named CONFIG__PROBLEM.csv, the table and --json
# summary; an impossible time-limit gives time_limit or timeout, a run that
# outlives time-limit + grace is killed (timeout); a child killed by a real
# SIGSEGV (sent to it from here) is recorded as crash and the plan goes on;
# SIGINT stops the plan with the runs so far written (exit 1); malformed
# plans exit 2 naming the file and line.  Run from the repository root.
. tests/lib.sh
ROOT=$(pwd)
csvq() { # csvq FILE PYTHON-EXPR: rows = the CSV's rows as dicts; exit status = not bool(expr)
    python3 -c "
import csv, sys
rows = list(csv.DictReader(open('$1', newline='')))
sys.exit(0 if ($2) else 1)"
}

# --- a small plan over problems/: 3 configs, 2 repeats
mkdir "$T/plan"
cat >"$T/plan/small.yaml" <<E
# a small plan
problems:
  - $ROOT/problems/*          # five lcp folders and one fc3d (README.md is not a problem)
configs:
  - {name: pgs, solver: pgs}
  - {name: lemke, solver: lemke, tol: 1e-10}
  - {name: nsgs, solver: nsgs}
tol: 1e-8
repeats: 2
threads: 1
time-limit: 30
output: out/results.csv
traces: out/traces/
E
"$LCP" bench "$T/plan/small.yaml" >"$T/out" 2>"$T/err"; rc=$?
check "small plan: exit 0" [ $rc -eq 0 ]
check "small plan: nothing on stderr when it is not a terminal (no progress bar)" [ ! -s "$T/err" ]
C="$T/plan/out/results.csv"
check "CSV written where output: says (relative to the plan)" [ -f "$C" ]
check "CSV: no temporary left" [ -z "$(ls "$T/plan/out" | grep tmp)" ]
check "CSV header: config,problem,repeat,exit_code, then the --json fields in order" \
    grep -q '^config,problem,repeat,exit_code,kind,n,nnz,solver,precond,status,iterations,time_s,residual,complementarity,feasibility,' "$C"
check "CSV parses: every row has the header's columns" python3 -c "
import csv; r = list(csv.reader(open('$C', newline=''))); exit(0 if len(r) > 1 and all(len(x) == len(r[0]) for x in r) else 1)"
nl=$(ls -d problems/*/ | wc -l)
nf=$(ls -d problems/*fc3d*/ | wc -l)
want=$(( (nl - nf) * (2 * 2 + 1) + nf * (2 + 2) ))
check "rows: each lcp folder 2 runs x 2 configs + nsgs skipped; fc3d 2 nsgs runs + 2 skipped ($want)" \
    csvq "$C" "len(rows) == $want"
check "every pair run has repeats 1 and 2" csvq "$C" "
all(sorted(int(x['repeat']) for x in rows if x['config'] == c and x['problem'] == p) in ([1], [1, 2])
    for c in {x['config'] for x in rows} for p in {x['problem'] for x in rows})"
check "statuses: every run solved, every other pair skipped" csvq "$C" "{x['status'] for x in rows} == {'solved', 'skipped'}"
check "solved rows: residual <= tol, exit_code 0, time_s and iterations present" csvq "$C" "
all(float(x['residual']) <= float(x['tol']) and x['exit_code'] == '0' and float(x['time_s']) >= 0 and int(x['iterations']) >= 0
    for x in rows if x['status'] == 'solved')"
check "lemke rows carry the configuration's tol (1e-10)" csvq "$C" "all(float(x['tol']) == 1e-10 for x in rows if x['config'] == 'lemke')"
check "skipped: nsgs on lcp, pgs/lemke on fc3d, once each, with the reason" csvq "$C" "
all(x['repeat'] == '1' and x['exit_code'] == '' and 'does not solve' in x['message'] and
    ((x['config'] == 'nsgs') == (x['kind'] == 'lcp')) for x in rows if x['status'] == 'skipped')"
check "problem names: folder names; path column holds the path" csvq "$C" "
{x['problem'] for x in rows} == {'column-20', 'column-20-ratio100', 'murty-8', 'pyramid-5', 'pyramid-5-fc3d', 'random-spd-200'}
and all(x['path'].endswith('/problems/' + x['problem']) for x in rows)"
"$LCP" -s pgs --json problems/column-20 >"$T/direct"
it=$(python3 -c "import json; print(json.load(open('$T/direct'))['iterations'])")
check "a run is the normal solve: pgs on column-20 takes $it iterations there too" \
    csvq "$C" "all(x['iterations'] == '$it' for x in rows if x['config'] == 'pgs' and x['problem'] == 'column-20')"
check "traces: CONFIG__PROBLEM.csv for each pair run" \
    [ -f "$T/plan/out/traces/pgs__column-20.csv" -a -f "$T/plan/out/traces/nsgs__pyramid-5-fc3d.csv" -a -f "$T/plan/out/traces/lemke__murty-8.csv" ]
check "traces: none for skipped pairs" [ ! -e "$T/plan/out/traces/nsgs__column-20.csv" -a ! -e "$T/plan/out/traces/pgs__pyramid-5-fc3d.csv" ]
check "traces: $(( (nl - nf) * 2 + nf )) files, the --trace header" [ "$(ls "$T/plan/out/traces" | wc -l)" -eq $(( (nl - nf) * 2 + nf )) ] && \
    [ "$(head -c 36 "$T/plan/out/traces/pgs__column-20.csv")" = "iter,time_s,residual,complementarity" ]
check "trace rows = iterations + 1" [ "$(($(wc -l <"$T/plan/out/traces/pgs__column-20.csv") - 1))" -eq $((it + 1)) ]
# the table
check "table: a header naming the configs" grep -Eq '^problem +pgs +lemke +nsgs$' "$T/out"
check "table: one row a problem" [ "$(grep -Ec '^(column-20|column-20-ratio100|murty-8|pyramid-5|pyramid-5-fc3d|random-spd-200) ' "$T/out")" -eq 6 ]
check "table: skipped cells, nsgs fastest (*) on the fc3d problem" grep -Eq '^pyramid-5-fc3d +skipped +skipped +[0-9.e-]+\*$' "$T/out"
check "table: one fastest a problem" [ "$(grep -c '\*' "$T/out")" -ge 7 ]
check "table: wins/solved row (nsgs 1/1)" grep -Eq '^wins/solved .* 1/1$' "$T/out"
check "table: the lcp configs solved all $((nl - nf)) lcp problems" [ "$(awk '/^wins\/solved/ {print $2, $3}' "$T/out" | sed 's/[0-9]*\///g')" = "$((nl - nf)) $((nl - nf))" ]

# --json summary, -o override
"$LCP" bench --json -o "$T/other.csv" "$T/plan/small.yaml" >"$T/out" 2>"$T/err"; rc=$?
check "--json -o: exit 0" [ $rc -eq 0 ]
check "-o overrides output:" [ -f "$T/other.csv" ]
check "--json: the summary object" python3 -c "
import json; o = json.load(open('$T/out'))
assert o['rows'] == $want and o['repeats'] == 2 and o['configs'] == 3 and o['problems'] == 6
assert o['statuses']['skipped'] == $((nl + nf)) and o['output'] == '$T/other.csv'
s = {c['name']: c for c in o['config_summary']}
assert s['nsgs']['solved'] == 1 and s['nsgs']['wins'] == 1 and s['pgs']['solved'] == $((nl - nf))
t = {r['problem']: r for r in o['table']}
assert t['pyramid-5-fc3d']['best'] == 'nsgs' and t['pyramid-5-fc3d']['results']['pgs']['status'] == 'skipped'
assert t['murty-8']['results']['lemke']['median_time_s'] > 0 and t['murty-8']['results']['lemke']['solved'] == 2
"
check "--json: the CSV is the same shape" csvq "$T/other.csv" "len(rows) == $want"

# --- limits: an impossible time-limit, and a run killed after time-limit + grace
"$LCP" generate column --bodies 2000 -o "$T/col" >/dev/null 2>&1
"$LCP" generate column --bodies 40000 -o "$T/big" >/dev/null 2>&1
cat >"$T/plan/limits.yaml" <<E
problems: [$T/col]
configs:
  - {name: tiny, solver: pgs, tol: 1e-30, time-limit: 1e-9}
  - {name: ok, solver: pmg}
output: $T/limits.csv
E
"$LCP" bench --quiet "$T/plan/limits.yaml" >"$T/out" 2>"$T/err"; rc=$?
check "time-limit 1e-9: exit 0, the plan goes on" [ $rc -eq 0 ]
check "time-limit 1e-9: status time_limit or timeout" csvq "$T/limits.csv" "[x['status'] for x in rows if x['config'] == 'tiny'] in (['time_limit'], ['timeout'])"
check "after it the next configuration solved" csvq "$T/limits.csv" "[x['status'] for x in rows if x['config'] == 'ok'] == ['solved']"
check "--quiet: no table" [ ! -s "$T/out" ]
cat >"$T/plan/kill.yaml" <<E
problems: [$T/big]          # reading alone takes longer than time-limit + grace
configs:
  - {name: pgs, solver: pgs}
time-limit: 0.001
grace: 0
output: $T/kill.csv
E
"$LCP" bench --quiet "$T/plan/kill.yaml" 2>"$T/err"; rc=$?
check "time-limit 0.001 + grace 0: exit 0" [ $rc -eq 0 ]
check "killed by bench: status timeout, exit_code 137, the reason" csvq "$T/kill.csv" "
len(rows) == 1 and rows[0]['status'] == 'timeout' and rows[0]['exit_code'] == '137' and 'killed by bench' in rows[0]['message']
and rows[0]['kind'] == 'lcp' and rows[0]['n'] == '40000' and rows[0]['time_s'] == ''"

# --- a crash: SIGSEGV sent to the child running the first repeat; the second repeat and the next config go on
cat >"$T/plan/crash.yaml" <<E
problems: [$T/col]
configs:
  - {name: slow, solver: pgs, tol: 1e-30, max-iter: 2000000000}
  - {name: ok, solver: pmg}
repeats: 2
time-limit: 3
grace: 5
output: $T/crash.csv
traces: $T/ctr
E
# (under AddressSanitizer, make test SANITIZE=1, its SIGSEGV handler would turn the signal into exit 1)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0" "$LCP" bench --quiet "$T/plan/crash.yaml" 2>"$T/err" & bp=$!
f=
for i in $(seq 400); do # the child's trace temporary (TRACE.tmp.PID): its pid, and proof that it is solving
    f=$(ls "$T/ctr"/slow__col.csv.tmp.* 2>/dev/null | head -n 1)
    [ -n "$f" ] && break
    sleep 0.05
done
if [ -n "$f" ]; then
    child=${f##*.tmp.}
    check "the run is a child of bench" grep -Eq "^PPid:[[:space:]]+$bp\$" /proc/$child/status
    kill -SEGV "$child"
    wait $bp; rc=$?
    check "crash: bench exit 0" [ $rc -eq 0 ]
    check "crash: repeat 1 recorded as crash, exit_code 139, signal 11 named" csvq "$T/crash.csv" "
[(x['status'], x['exit_code']) for x in rows if x['config'] == 'slow' and x['repeat'] == '1'] == [('crash', '139')]
and 'signal 11' in [x for x in rows if x['config'] == 'slow'][0]['message']"
    check "crash: repeat 2 ran to its time limit" csvq "$T/crash.csv" "[x['status'] for x in rows if x['repeat'] == '2' and x['config'] == 'slow'] == ['time_limit']"
    check "crash: the next configuration solved" csvq "$T/crash.csv" "[x['status'] for x in rows if x['config'] == 'ok'] == ['solved', 'solved']"
    check "crash: the dead child's trace temporary removed" [ -z "$(ls "$T/ctr" | grep tmp)" ]
else
    wait $bp
    bad "crash: the child's trace never appeared"
fi

# --- SIGINT: the run in flight stops ("interrupted"), the CSV holds the runs so far, exit 1
cat >"$T/plan/int.yaml" <<E
problems: [$T/col]
configs:
  - {name: slow, solver: pgs, tol: 1e-30, max-iter: 2000000000}
repeats: 3
time-limit: 20
output: $T/int.csv
traces: $T/itr
E
"$LCP" bench --quiet "$T/plan/int.yaml" 2>"$T/err" & bp=$!
for i in $(seq 200); do
    [ -n "$(ls "$T/itr" 2>/dev/null | grep tmp)" ] && break
    sleep 0.05
done
t0=$(date +%s)
kill -INT $bp
wait $bp; rc=$?
check "SIGINT: exit 1, at once" [ $rc -eq 1 -a $(($(date +%s) - t0)) -le 5 ]
check "SIGINT: the CSV holds the one run so far, stopped by the signal" csvq "$T/int.csv" "
len(rows) == 1 and rows[0]['status'] == 'time_limit' and rows[0]['message'] == 'interrupted'"
check "SIGINT: says so on stderr" grep -q "interrupted after 1 of 3 runs" "$T/err"

# --- malformed plans: exit 2, one line naming FILE:LINE
bad_plan() { # bad_plan NAME LINE TEXT-IN-MESSAGE: $T/plan/bad.yaml is the plan
    "$LCP" bench "$T/plan/bad.yaml" >"$T/out" 2>"$T/err"; _rc=$?
    if [ $_rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "bad.yaml:$2: .*$3" "$T/err"; then ok "$1"
    else bad "$1: exit $_rc: $(cat "$T/err")"; fi
}
printf 'problems: [%s]\nconfigs:\n  - {name: a, solver: pgs}\nrepeats: 2\ntolerance: 1e-8\n' "$T/col" >"$T/plan/bad.yaml"
bad_plan "unknown plan key: exit 2 at its line" 5 "unknown key 'tolerance'"
printf 'problems: [%s]\nconfigs:\n  - {name: a, solver: pgs}\n  - {name: b, solver: pgs, omegaa: 1.5}\n' "$T/col" >"$T/plan/bad.yaml"
bad_plan "unknown key in a configuration: its line" 4 "unknown key 'omegaa'"
printf 'problems: [%s]\nconfigs:\n  - {name: a, solver: pgs}\n  - {name: b, solver: nosuch}\n' "$T/col" >"$T/plan/bad.yaml"
bad_plan "unknown solver: its line" 4 "nosuch"
printf 'problems: [%s]\nconfigs:\n  - {name: a, solver: pgs, tol: -1}\n' "$T/col" >"$T/plan/bad.yaml"
bad_plan "bad option value" 3 "tol"
printf 'problems: [%s]\nconfigs:\n  - {name: a, solver: pgs, precond: ichol}\n' "$T/col" >"$T/plan/bad.yaml"
bad_plan "preconditioner the solver does not take" 3 "does not take preconditioner"
printf 'problems: [%s]\nconfigs:\n  - {name: a, solver: pgs}\n  - {name: a, solver: psor}\n' "$T/col" >"$T/plan/bad.yaml"
bad_plan "configuration name used twice" 4 "used twice"
printf 'problems:\n  - %s\n  - %s/nothing-*.dat\nconfigs:\n  - {name: a, solver: pgs}\n' "$T/col" "$T" >"$T/plan/bad.yaml"
bad_plan "a glob that matches nothing: named, its line" 3 "nothing-\*.dat' matches no problem"
printf 'problems: [%s]\nconfigs:\n  - {name: a, solver: pgs\n  - {name: b}\n' "$T/col" >"$T/plan/bad.yaml"
bad_plan "YAML syntax error: libyaml's line" 4 "YAML"
printf 'problems: [%s]\nconfigs:\n  - {name: a, solver: pgs, trace: x.csv}\n' "$T/col" >"$T/plan/bad.yaml"
bad_plan "per-run files refused" 3 "cannot be set in a plan"
printf 'problems: [%s]\nconfigs:\n  - {name: a, solver: pgs}\nrepeats: many\n' "$T/col" >"$T/plan/bad.yaml"
bad_plan "repeats not a number" 4 "repeats"
printf 'problems: [%s]\nrepeats: 2\n' "$T/col" >"$T/plan/bad.yaml"
bad_plan "no configs" 1 "no 'configs:'"
"$LCP" bench "$T/plan/none.yaml" 2>"$T/err"; rc=$?
check "missing plan file: exit 2, named" [ $rc -eq 2 ] && grep -q "none.yaml" "$T/err"
"$LCP" bench -o "$T/plan/limits.yaml/y.csv" "$T/plan/limits.yaml" >"$T/out" 2>"$T/err"; rc=$?
check "unwritable output: refused before any run" [ $rc -eq 2 ] && [ ! -s "$T/out" ] && grep -q "limits.yaml" "$T/err"

# --- help, usage
"$LCP" bench --help >"$T/out"; rc=$?
check "bench --help: exit 0, usage and plan keys" [ $rc -eq 0 ] && grep -q "usage: lcpsolve bench" "$T/out" && grep -q "traces:" "$T/out"
"$LCP" --help | grep -q "lcpsolve bench"
check "lcpsolve --help names bench" [ $? -eq 0 ]
check "man page: BENCH section" grep -q '^\.SH BENCH' man/lcpsolve.1

# --- the progress bar, when stderr is a terminal (script(1) gives one)
if command -v script >/dev/null 2>&1; then
    script -qec "$LCP bench --quiet -o $T/tty.csv $T/plan/limits.yaml" /dev/null >"$T/tty" 2>&1
    check "progress bar on a terminal" grep -q '\[#*\.*\] [0-9]*/2' "$T/tty"
else
    skip "progress bar: no script(1)"
fi
finish
