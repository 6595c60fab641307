#!/bin/sh
# tests/e2e/auto.sh: --solver auto from a learned model (src/core/auto.c,
# src/core/features.c, src/cli/tune.c) end to end.
#  - the built-in model (models/auto.model): auto names the configuration it
#    predicted and the runners-up's predicted times (--json auto_config,
#    auto_predicted), says why (auto_reason, the summary's choice line), and
#    solves each kind and the shapes of the corpus -- every answer checked by
#    the independent checkers (tests/check_residual.py, check_friction.py);
#  - --auto-model FILE drives the pick: two hand-written models that rank
#    different configurations first give those picks;
#  - online switching: a pick whose observed rate puts its end far beyond the
#    next candidate's prediction is cut and hands over (from its best
#    iterate where the next is first-order), the reason says so and the
#    answer is still right; a pick converging well is not cut;
#  - bad model files: exit 2, one line naming the file and the line;
#  - `lcpsolve info --features` (text and --json: every feature named);
#  - `lcpsolve tune` on a small corpus writes a model that reads back and
#    drives auto; `tune --lofo` reports per family.
# Run from the repository root: sh tests/e2e/auto.sh.
. tests/lib.sh
SIC=$SICONOS_DATA
field() { python3 -c "import json,sys; v=json.load(open(sys.argv[2])).get(sys.argv[1]); print('' if v is None else v)" "$1" "$2"; }

# solves NAME CHECKER PROBLEM-ARGS...: auto solves, names and explains its pick, the checker agrees
solves() {
    name=$1; chk=$2; shift 2
    case $chk in lcp) tol=1e-9 ;; *) tol=1e-8 ;; esac
    "$LCP" --json -t $tol -o "$T/x.mtx" "$@" >"$T/out" 2>"$T/err"; rc=$?
    if [ $rc -ne 0 ]; then bad "$name: exit $rc $(field status "$T/out") $(head -c 200 "$T/err")"; return; fi
    python3 -c "
import json, sys; d = json.load(open(sys.argv[1]))
print(d.get('auto_config', '')); print(len(d.get('auto_predicted') or {})); print(d.get('solver', '')); print(d.get('auto_reason', ''))" \
        "$T/out" >"$T/f"
    { read -r cfg; read -r npred; read -r solver; read -r why; } <"$T/f"
    # a problem of up to 128 unknowns: pivot's small path (or lemke) before any choice, nothing predicted
    case $why in
    "auto: pivot (a problem of up to 128 unknowns"*|"auto: lemke (a problem of up to 16 unknowns"*)
        cfg="$solver before any choice" ;;
    "auto: $cfg ("*) if [ "$npred" -lt 1 ]; then bad "$name: no predicted times in auto_predicted"; return; fi ;;
    *) bad "$name: auto_reason '$why' does not start with the predicted '$cfg'"; return ;;
    esac
    if [ "$chk" = lcp ]; then
        d=$1
        if python3 tests/check_residual.py "$d/A.mtx" "$d/b.mtx" "$T/x.mtx" --max 1e-9 >"$T/res"; then
            ok "$name: auto -> $cfg ($npred ranked; $solver solved), independent residual $(cat "$T/res")"
        else bad "$name: independent residual $(cat "$T/res")"; fi
    elif [ "$chk" = fc3d ] || [ "$chk" = ccp ]; then
        d=$1
        if python3 tests/check_friction.py "$chk" "$d/A.mtx" "$d/b.mtx" "$d/mu.mtx" "$T/x.mtx" --max 1e-8 >"$T/res"; then
            ok "$name: auto -> $cfg ($solver solved), independent $chk residual $(cat "$T/res")"
        else bad "$name: independent $chk residual $(cat "$T/res")"; fi
    else
        ok "$name: auto -> $cfg, residual $(field residual "$T/out") (no independent checker for $chk)"
    fi
}

"$LCP" generate column --bodies 600 --mass-ratio 100 -o "$T/col600r" 2>/dev/null
"$LCP" generate granular --base 6 --layers 4 -o "$T/glcp" 2>/dev/null
"$LCP" generate tower --layers 10 --planks 3 -o "$T/tow" 2>/dev/null
"$LCP" generate chain --links 400 --ground -o "$T/chg" 2>/dev/null
"$LCP" generate murty --size 20 -o "$T/murty20" 2>/dev/null
"$LCP" generate mass-ratio --bodies 10 --ratio 1e6 -o "$T/mr6" 2>/dev/null
"$LCP" generate granular --base 4 --layers 3 --mu 0.3 -o "$T/gf" 2>/dev/null
"$LCP" generate granular --base 4 --layers 3 --mu 0.3 --kind ccp -o "$T/gc" 2>/dev/null
"$LCP" generate tower --layers 6 --planks 2 --mu 0.5 -o "$T/towf" 2>/dev/null

solves "column-20" lcp problems/column-20
solves "random-spd-200" lcp problems/random-spd-200
solves "pyramid-5 (rank-deficient)" lcp problems/pyramid-5
solves "murty-8 (not symmetric)" lcp problems/murty-8
solves "murty, n = 20 (2^20 Lemke pivots)" lcp "$T/murty20"
solves "column of 600, mass ratio 100" lcp "$T/col600r"
solves "granular pile lcp" lcp "$T/glcp"
solves "tower of planks lcp" lcp "$T/tow"
solves "hanging chain on the ground (singular)" lcp "$T/chg"
solves "mass ratio 1e6" lcp "$T/mr6"
solves "pyramid-5-fc3d as box blcp (findex)" blcp problems/pyramid-5-fc3d --cone pyramid:4
solves "pyramid-5-fc3d" fc3d problems/pyramid-5-fc3d
solves "granular pile fc3d" fc3d "$T/gf"
solves "granular pile ccp" ccp "$T/gc"
solves "tower fc3d" fc3d "$T/towf"
if [ -f "$SIC/fc3d/Capsules-i122-1617.dat" ] && [ -f "$SIC/lcp/lcp_exp_murty.dat" ]; then
    solves "Siconos Capsules (W not symmetric)" dat "$SIC/fc3d/Capsules-i122-1617.dat"
    solves "Siconos BoxesStack1" dat "$SIC/fc3d/BoxesStack1-i100000-32.hdf5.dat"
    solves "Siconos lcp_exp_murty" dat "$SIC/lcp/lcp_exp_murty.dat"
else
    skip "Siconos files missing ($SIC, LCPSOLVE_DATA)"
fi

# the summary and stderr name the choice; --quiet says nothing
"$LCP" problems/pyramid-5 >"$T/out" 2>"$T/err"
check "summary: the choice line names auto's pick" grep -q "^choice  *auto: " "$T/out"
check "stderr: the choice" grep -q "^lcpsolve: auto: " "$T/err"
"$LCP" --quiet problems/pyramid-5 >"$T/out" 2>"$T/err"
check "--quiet: nothing printed" [ ! -s "$T/out" -a ! -s "$T/err" ]

# --auto-model FILE: the model decides.  Two models of one measured lcp
# problem (pyramid-5's features), one where lemke was fastest, one where ipm was
"$LCP" info --features --json problems/pyramid-5 >"$T/feat"
mkmodel() { # mkmodel FILE TIME-PGS TIME-LEMKE TIME-IPM
    python3 - "$T/feat" "$@" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["features"]
out, tp, tl, ti = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
with open(out, "w") as o:
    o.write("# a hand-written model\nlcpsolve-auto-model 1\ntime-limit 1\nfeatures %s\n" % " ".join(f))
    o.write("config lcp pgs none\nconfig lcp lemke none\nconfig lcp ipm none\n")
    o.write("problem lcp pyr pyramid-5 %s %s 100 %s 50 %s 20\n" % (" ".join("%.6g" % v for v in f.values()), tp, tl, ti))
PY
}
mkmodel "$T/m-lemke.model" 0.01 0.0001 0.001
mkmodel "$T/m-ipm.model" -1 0.01 0.0001
"$LCP" --json --auto-model "$T/m-lemke.model" problems/pyramid-5 >"$T/out" 2>/dev/null; rc=$?
check "--auto-model (lemke fastest): auto -> lemke, exit $rc ($(field auto_config "$T/out"))" [ $rc -eq 0 -a "$(field auto_config "$T/out")" = lemke ]
python3 -c "
import json,sys; p=json.load(open('$T/out'))['auto_predicted']
sys.exit(0 if list(p) == ['lemke', 'ipm', 'pgs'] and abs(p['lemke'] - 1e-4) < 1e-9 else 1)" 
check "--auto-model: auto_predicted ranks lemke, ipm, pgs with the measured times" [ $? -eq 0 ]
"$LCP" --json --auto-model "$T/m-ipm.model" problems/pyramid-5 >"$T/out" 2>/dev/null; rc=$?
check "--auto-model (ipm fastest, pgs failed): auto -> ipm, exit $rc ($(field auto_config "$T/out"))" [ $rc -eq 0 -a "$(field auto_config "$T/out")" = ipm ]
check "--auto-model: the reason names the model file" grep -q "m-ipm.model" "$T/out"

# online switching: pgs measured at 1e-6 s, the next candidate at 1 ms; on a
# mass ratio of 1e6 (100 bodies) pgs converges so slowly that its extrapolated time to the
# tolerance passes 3 times the next's prediction: the monitor cuts it for its
# rate (at the 20 ms below which no run is cut: LCP_SWITCH_FLOOR), the next
# candidate solves -- lemke from zero (a pivoting method takes no iterate), mprgp from
# pgs's best iterate (a first-order method does)
"$LCP" generate mass-ratio --bodies 130 --ratio 1e6 -o "$T/mr130" >/dev/null 2>&1
"$LCP" info --features --json "$T/mr130" >"$T/feat"
# model2 MODEL "SOLVER PRECOND" TIME ITERATIONS "SOLVER PRECOND" TIME ITERATIONS: a model of two
# configurations of kind $MKIND (default lcp) measured on one problem, the one whose features are in $T/feat
model2() {
    MKIND=${MKIND:-lcp} python3 - "$T/feat" "$@" <<'PY'
import json, os, sys
f = json.load(open(sys.argv[1]))["features"]
m, c1, t1, i1, c2, t2, i2 = sys.argv[2:9]
k = os.environ["MKIND"]
with open(m, "w") as o:
    o.write("lcpsolve-auto-model 1\ntime-limit 1\nfeatures %s\n" % " ".join(f))
    o.write("config %s %s\nconfig %s %s\n" % (k, c1, k, c2))
    o.write("problem %s x y %s %s %s %s %s\n" % (k, " ".join("%.6g" % v for v in f.values()), t1, i1, t2, i2))
PY
}
# a ccp whose W is not symmetric (as Siconos' Capsules), two columns (solved by components): a model that
# ranks apgd first, which needs a symmetric W -- auto does not run it (it took it, and the refusal left every
# later run's status at "error", exit 5, though admm solved)
"$LCP" generate column --bodies 40 --mu 0.5 --kind ccp --piles 2 -o "$T/pc2" >/dev/null 2>&1
python3 - "$T/pc2/A.mtx" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
hdr, body = lines[0], [l for l in lines[1:] if not l.startswith("%")]
m, n, nz = map(int, body[0].split()[:3])
ent = []
for l in body[1:]:
    i, j, v = l.split()
    i, j, v = int(i), int(j), float(v)
    ent.append((i, j, v * (1 + 1e-6) if i < j else v))
    if "symmetric" in hdr and i != j:
        ent.append((j, i, v * (1 + 1e-6) if j < i else v))
with open(sys.argv[1], "w") as o:
    o.write("%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n" % (m, n, len(ent)))
    o.writelines("%d %d %.17g\n" % e for e in ent)
PY
"$LCP" info --features --json "$T/pc2" >"$T/feat"
MKIND=ccp model2 "$T/m-apgd.model" "apgd none" 1e-05 10 "admm none" 0.001 20
"$LCP" --json -t 1e-8 -o "$T/x.mtx" --auto-model "$T/m-apgd.model" "$T/pc2" >"$T/out" 2>"$T/err"; rc=$?
check "W not symmetric: auto passes over apgd (needs a symmetric W), exit $rc, $(field status "$T/out") by $(field solver "$T/out") in $(field components "$T/out") components" \
    [ $rc -eq 0 -a "$(field status "$T/out")" = solved -a "$(field solver "$T/out")" = admm ]
mkpgs() { model2 "$1" "pgs none" 1e-06 1 "$2 $3" 0.001 10; } # MODEL NEXT-SOLVER NEXT-PRECOND
# runs DIR MODEL PATTERN WHAT: auto with MODEL on the problem in DIR (tol 1e-9, the answer in $T/x.mtx,
# --json in $T/out); passes where "EXIT SOLVER COMPONENTS REASON" (the solver that answered) matches the
# shell pattern PATTERN and the answer's independent residual is within 1e-9
runs() {
    "$LCP" --json -t 1e-9 -o "$T/x.mtx" --auto-model "$2" "$1" >"$T/out" 2>/dev/null
    local rc=$?
    case "$rc $(field solver "$T/out") $(field components "$T/out") $(field auto_reason "$T/out")" in
    $3) check "$4; solved (independent residual)" indep "$1/A.mtx" "$1/b.mtx" "$T/x.mtx" --max 1e-9 ;;
    *) bad "$4: exit $rc $(field solver "$T/out") '$(field auto_reason "$T/out")'" ;;
    esac
}
mkpgs "$T/m-pgs.model" lemke none
runs "$T/mr130" "$T/m-pgs.model" '0 lemke * auto: pgs (*; pgs stopped (time_limit after * iterations): lemke from zero (the rate was too slow)' \
    "a pick converging too slowly: the monitor cuts pgs for its rate, lemke from zero"
its=$(field auto_reason "$T/out" | sed -n 's/.*pgs stopped (time_limit after \([0-9]*\) iterations).*/\1/p')
check "the cut comes from the rate (the reason says so), after $its sweeps" [ -n "$its" ] && [ "$its" -gt 10 ]
mkpgs "$T/m-pgs2.model" mprgp ichol
runs "$T/mr130" "$T/m-pgs2.model" '0 mprgp * auto: pgs (*; pgs stopped (time_limit after * iterations): mprgp from the best iterate (the rate was too slow)' \
    "a first-order next candidate goes on from the best iterate: mprgp warm-started"
# rounds: a first-order candidate run again in a longer round goes on from its own best iterate of
# the round before (pgs and apgd both measured at microseconds, so both are cut by their budgets until the
# budgets, 4 times larger each round, let one finish; apgd alone takes about 9,000 iterations here); the
# one whose rate said it had less left runs first, pgs or apgd
"$LCP" generate column --bodies 1000 -o "$T/col1000" >/dev/null 2>&1
"$LCP" info --features --json "$T/col1000" >"$T/feat"
model2 "$T/m-rounds.model" "pgs none" 1e-06 1 "apgd none" 2e-06 1
runs "$T/col1000" "$T/m-rounds.model" '0 * * auto: pgs (*; apgd stopped (time_limit after * iterations): [pa][gp][sg]* from its best iterate of the round before (a longer round)*' \
    "a longer round goes on from the candidate's own best iterate"
# and a pick that converges at a good rate is not cut, however fast the next is predicted
# (a strongly diagonally dominant A: pgs gains about a digit a sweep)
mkdir -p "$T/dd"
python3 -c "
import json, random
r = random.Random(3); n = 150
A = [[(r.uniform(-1, 1) if i != j else 0) for j in range(n)] for i in range(n)]
A = [[(A[i][j] + A[j][i]) / 2 for j in range(n)] for i in range(n)]
for i in range(n): A[i][i] = 4 * sum(abs(v) for v in A[i]) + 1
json.dump({'kind': 'lcp', 'A': A, 'b': [r.uniform(-1, 1) for _ in range(n)]}, open('$T/dd/p.json', 'w'))"
"$LCP" info --features --json "$T/dd/p.json" >"$T/feat"
mkpgs "$T/m-pgs3.model" lemke none
"$LCP" --json -t 1e-9 --auto-model "$T/m-pgs3.model" "$T/dd/p.json" >"$T/out" 2>/dev/null; rc=$?
check "a pick converging well runs to the end: exit $rc, solver $(field solver "$T/out"), no hand-over" \
    sh -c "[ $rc -eq 0 ] && [ '$(field solver "$T/out")' = pgs ] && ! grep -q 'stopped' '$T/out'"

# a factorisation predicted far past auto's budget is not started: newton-min measured at 1 us, so the
# run's budget is the least (20 ms), and the sparse Cholesky of a random sparse SPD A of 3000 rows
# (about 1.7e9 flops by CHOLMOD's analysis, 0.17 s even at 1e10 flops a second) is refused before it
# starts; pgs, the next candidate, solves
"$LCP" generate random-spd --size 3000 --cond 1e4 --seed 3000 -o "$T/rspd" >/dev/null 2>&1
"$LCP" info --features --json "$T/rspd" >"$T/feat"
model2 "$T/m-nm.model" "newton-min none" 1e-06 3 "pgs none" 0.5 20
runs "$T/rspd" "$T/m-nm.model" '0 pgs * auto: newton-min (*; newton-min stopped (time_limit after 0 iterations): pgs from zero*' \
    "a factorisation past auto's budget is not started: newton-min refused at 0 iterations, pgs solves"
# and one predicted (at 1e10 flops a second) to take over 3 times the next candidate's predicted time is
# not started either, inside the budget: newton-min measured at 40 ms (a budget of 0.4 s), apgd at 45 ms
# (not pgs: a model with pgs would have pgs's sweeps probe first, and solve this problem)
model2 "$T/m-nm2.model" "newton-min none" 0.04 3 "apgd none" 0.045 200
"$LCP" --json -t 1e-9 --auto-model "$T/m-nm2.model" "$T/rspd" >"$T/out" 2>/dev/null; rc=$?
case "$rc $(field auto_reason "$T/out")" in
"0 auto: newton-min ("*"; newton-min stopped (time_limit after 0 iterations): apgd from zero (a factorisation predicted past its time)"*)
    ok "a factorisation predicted past 3 times the next's time is not started (exit 0, apgd solved)" ;;
*) bad "a factorisation past the next's time: exit $rc '$(field auto_reason "$T/out")'" ;;
esac
"$LCP" -s newton-min --json "$T/rspd" >"$T/out" 2>/dev/null; rc=$?
check "the same newton-min named (no budget): it factorises and solves (exit $rc)" [ $rc -eq 0 ]

# auto's probe: the pick is not first-order (newton-min, predicted 1 s) and the model has pgs for the kind:
# a few pgs sweeps run first.  On the random SPD problem their rate promises the tolerance far sooner:
# they go on and solve it; the same runs a second time; no probe under --max-iter 6 (its sweeps)
model2 "$T/m-probe.model" "newton-min none" 1 3 "pgs none" 2 1000
runs "$T/rspd" "$T/m-probe.model" '0 pgs * auto: newton-min (*; probe: pgs solved it in * iterations (its rate said * s, newton-min 1 s)' \
    "the probe's sweeps promise far less than the pick: they go on and solve"
reason=$(field auto_reason "$T/out")
"$LCP" --json -t 1e-9 --auto-model "$T/m-probe.model" "$T/rspd" >"$T/out2" 2>/dev/null
check "the probe decides by iterations and residuals: the same reason a second time" [ "$(field auto_reason "$T/out2")" = "$reason" ]
"$LCP" --json -t 1e-9 -n 6 --auto-model "$T/m-probe.model" "$T/rspd" >"$T/out2" 2>/dev/null
check "no probe within --max-iter 6 (its sweeps): newton-min runs ($(field solver "$T/out2"))" \
    sh -c "! grep -q '; probe:' '$T/out2' && [ '$(field solver "$T/out2")' = newton-min ]"
# on the mass-ratio stack the sweeps' rate is slow: cut after the probe's sweeps, newton-min from zero
"$LCP" info --features --json "$T/mr130" >"$T/feat"
model2 "$T/m-probe2.model" "newton-min none" 2e-4 3 "pgs none" 1 100000
runs "$T/mr130" "$T/m-probe2.model" '0 newton-min * auto: newton-min (*; probe: pgs stopped (time_limit after * iterations; its rate said * s more, newton-min 0.0002 s): newton-min from zero' \
    "the probe's sweeps too slow: cut, newton-min from zero solves"
reason=$(field auto_reason "$T/out")
its=$(printf '%s' "$reason" | sed -n 's/.*probe: pgs stopped (time_limit after \([0-9]*\) iterations.*/\1/p')
check "the probe's cut comes after its 6 sweeps ($its iterations)" [ -n "$its" ] && [ "$its" -ge 6 ] && [ "$its" -le 12 ]
# decomposed (4 piles of 150 spheres, mass ratio 1e4): each component probes; cut, newton-min solves them
"$LCP" generate column --bodies 150 --piles 4 --mass-ratio 1e4 -o "$T/piles" >/dev/null 2>&1
"$LCP" info --features --json "$T/piles" >"$T/feat"
model2 "$T/m-probe3.model" "newton-min none" 1e-3 3 "pgs none" 1 100000
runs "$T/piles" "$T/m-probe3.model" "0 newton-min 4 auto: newton-min (*; probe: pgs stopped (time_limit after * iterations; a component's rate said more, newton-min 0.001 s): newton-min from zero" \
    "the probe by components: cut, newton-min from zero solves the 4 piles"

# a run without a rate to watch is cut once it has run 3 times the next candidate's predicted time (and
# 20 ms): lemke on Murty's example of 140 rows (2^140 pivots; more rows than pivot's small path takes, which
# solves before any choice) measured at 5 ms and 100,000 pivots (budgets of 50 ms and a million pivots),
# newton-min at 10 ms: lemke stops at about 30 ms, newton-min solves
"$LCP" generate murty --size 140 -o "$T/murty140" >/dev/null 2>&1
"$LCP" info --features --json "$T/murty140" >"$T/feat"
model2 "$T/m-lk.model" "lemke none" 0.005 100000 "newton-min none" 0.01 3
runs "$T/murty140" "$T/m-lk.model" "0 newton-min * auto: lemke (*; lemke stopped (time_limit after * iterations): newton-min from zero (it ran past 3 times the next's predicted time)*" \
    "lemke past 3 times newton-min's predicted time is cut; newton-min solves"

# ... unless its residual's rate says it ends within as much again: admm on a 1,936-contact pyramid (about
# 100 iterations, 40-50 ms) measured at 1 ms, nsn at 2 ms: past 20 ms admm goes on and answers (cut there,
# nsn would run, then admm again from zero: about 0.24 s).  The cut reads the thread's CPU time: on a
# loaded machine (CI runs the sanitizer tier beside this) admm can reach 20 ms after a third of its
# iterations, where its rate does not yet say it ends within as much again (a sweep beside it on this
# machine's 2 cores failed both of two runs once) -- one of three runs must go on
"$LCP" generate pyramid --base 22 --kind fc3d --mu 0.3 -o "$T/pyr22" >/dev/null 2>&1
"$LCP" info --features --json "$T/pyr22" >"$T/feat"
MKIND=fc3d model2 "$T/m-admm.model" "admm none" 0.001 20 "nsn none" 0.002 5
for try in 1 2 3; do
    "$LCP" --json --auto-model "$T/m-admm.model" "$T/pyr22" >"$T/out" 2>/dev/null; rc=$?
    got="$rc $(field solver "$T/out") $(field status "$T/out") $(field auto_reason "$T/out")"
    case "$got" in "0 admm solved auto: admm ("*"if it stops short: nsn)") break ;; esac
done
case "$got" in
"0 admm solved auto: admm ("*"if it stops short: nsn)") ok "admm past 3 times nsn's predicted time, its rate saying it ends within as much again, goes on and solves (run $try)" ;;
*) bad "admm past 3 times nsn's predicted time, in three runs: exit $rc $(field solver "$T/out") '$(field auto_reason "$T/out")'" ;;
esac

# bad model files: exit 2, one line naming the file (and the line)
printf 'not a model\n' >"$T/bad1.model"
"$LCP" --auto-model "$T/bad1.model" problems/pyramid-5 >"$T/out" 2>"$T/err"; rc=$?
check "a file that is no model: exit 2 ($rc), one line naming it" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'bad1.model:1: not an auto model' '$T/err'"
sed 's/^problem lcp pyr pyramid-5 \([^ ]*\) .*/problem lcp pyr pyramid-5 \1 oops/' "$T/m-lemke.model" >"$T/bad2.model"
"$LCP" --auto-model "$T/bad2.model" problems/pyramid-5 >"$T/out" 2>"$T/err"; rc=$?
check "a model with a bad number: exit 2 ($rc), file:line" sh -c "[ $rc -eq 2 ] && grep -q 'bad2.model:8: problem pyramid-5: feature 2' '$T/err'"
sed 's/^features log_n/features log_m/' "$T/m-lemke.model" >"$T/bad3.model"
"$LCP" --auto-model "$T/bad3.model" problems/pyramid-5 >"$T/out" 2>"$T/err"; rc=$?
check "a model of other features: exit 2 ($rc), says retrain" sh -c "[ $rc -eq 2 ] && grep -q 'retrain the model' '$T/err'"
"$LCP" --auto-model "$T/absent.model" problems/pyramid-5 >"$T/out" 2>"$T/err"; rc=$?
check "a missing model: exit 2 ($rc)" sh -c "[ $rc -eq 2 ] && grep -q 'absent.model' '$T/err'"

# info --features
"$LCP" info --features problems/pyramid-5 >"$T/out" 2>&1; rc=$?
n=$(grep -cE '^(log_n|log_row|log_density|symmetric|diag_pos|diag_dom|log_diag_range|log_cond|log_components|largest_share|log_diameter|growth|log_degree_ratio|findex_share|mu_mean|open_share|offdiag_pos_share) ' "$T/out")
check "info --features: exit 0 ($rc), 17 features named ($n)" [ $rc -eq 0 -a "$n" -eq 17 ]
"$LCP" info --features --json "$T/col600r" >"$T/out"
python3 - "$T/out" >"$T/res" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); f = d["features"]
# a column of 600 spheres: one chain (diameter 599, growth ~1), symmetric, positive diagonal
ok = (len(f) == 17 and d["n"] == 600 and d["components"] == 1 and d["diameter"] == 599 and f["symmetric"] == 1
      and f["diag_pos"] == 1 and 0.9 < f["growth"] < 1.1 and abs(f["log_n"] - 2.778) < 0.01)
print(d["diameter"], f["growth"]); sys.exit(0 if ok else 1)
PY
check "info --features --json: a column of 600 is one chain (diameter, growth $(cat "$T/res"))" [ $? -eq 0 ]
"$LCP" info --features --json "$T/murty20" >"$T/out"
check "info --features: murty is not symmetric" python3 -c "import json; exit(0 if json.load(open('$T/out'))['features']['symmetric'] == 0 else 1)"
"$LCP" --features problems/pyramid-5 >"$T/out" 2>"$T/err"; rc=$?
check "--features without info: exit 2 ($rc)" [ $rc -eq 2 ]

# tune: a small corpus of two families, the model reads back and drives auto; --lofo
mkdir -p "$T/corpus/col" "$T/corpus/pyr"
"$LCP" generate column --bodies 30 -o "$T/corpus/col/c30" 2>/dev/null
"$LCP" generate column --bodies 80 -o "$T/corpus/col/c80" 2>/dev/null
"$LCP" generate pyramid --base 4 -o "$T/corpus/pyr/p4" 2>/dev/null
"$LCP" generate pyramid --base 6 -o "$T/corpus/pyr/p6" 2>/dev/null
"$LCP" tune "$T/corpus" --time-limit 0.5 -o "$T/t.model" 2>"$T/err"; rc=$?
np=$(grep -c '^problem lcp ' "$T/t.model" 2>/dev/null)
check "tune: exit 0 ($rc), 4 problems measured ($np)" [ $rc -eq 0 -a "$np" = 4 ]
check "tune: the families are the folders" sh -c "grep -q '^problem lcp col c30 ' '$T/t.model' && grep -q '^problem lcp pyr p6 ' '$T/t.model'"
"$LCP" --json -t 1e-9 -o "$T/x.mtx" --auto-model "$T/t.model" problems/pyramid-5 >"$T/out" 2>/dev/null; rc=$?
check "tune's model drives auto: exit $rc, reason names the model" sh -c "[ $rc -eq 0 ] && grep -q 't.model' '$T/out'"
"$LCP" tune --lofo "$T/t.model" "$T/corpus" --repeat 1 >"$T/lofo" 2>&1; rc=$?
check "tune --lofo: exit 0 ($rc), a line a family" sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^FAMILY ' '$T/lofo') -eq 2 ] && grep -q '^ALL problems 4 ' '$T/lofo'"
"$LCP" tune "$T/corpus" >"$T/out" 2>"$T/err"; rc=$?
check "tune without -o: exit 2 ($rc)" [ $rc -eq 2 ]
"$LCP" tune "$T/nothing" -o "$T/n.model" >"$T/out" 2>"$T/err"; rc=$?
check "tune on a missing folder: exit 2 ($rc), names it" sh -c "[ $rc -eq 2 ] && grep -q 'nothing' '$T/err'"

# --linsolve auto from the predicted cost: a column of 1000 spheres (tridiagonal A) goes sparse, a
# dense 120-row problem dense
"$LCP" generate column --bodies 1000 -o "$T/col1000" 2>/dev/null
"$LCP" -s ipm --json "$T/col1000" >"$T/out" 2>/dev/null; rc=$?
check "ipm on a tridiagonal A, n = 1000: sparse (exit $rc)" sh -c "[ $rc -eq 0 ] && grep -q 'CHOLMOD (sparse Cholesky), auto: sparse cheaper' '$T/out'"
"$LCP" -s newton-fb --json "$T/col1000" >"$T/out" 2>/dev/null; rc=$?
check "newton-fb on a tridiagonal A, n = 1000: sparse (exit $rc)" sh -c "[ $rc -eq 0 ] && grep -q 'auto: sparse cheaper' '$T/out'"
python3 -c "
import random; r = random.Random(3); n = 120
rows = [[r.uniform(-1, 1) for _ in range(n)] for _ in range(n)]
A = [[sum(rows[i][k] * rows[j][k] for k in range(n)) / n + (2 if i == j else 0) for j in range(n)] for i in range(n)]
import json; json.dump({'kind': 'lcp', 'A': A, 'b': [r.uniform(-1, 1) for _ in range(n)]}, open('$T/dense.json', 'w'))"
"$LCP" -s ipm --json "$T/dense.json" >"$T/out" 2>/dev/null; rc=$?
check "ipm on a dense A, n = 120: dense (exit $rc)" sh -c "[ $rc -eq 0 ] && grep -q 'auto: dense cheaper' '$T/out'"

# batch: auto's pick with its fallbacks, as the single solve
"$LCP" generate tower --layers 10 --planks 3 --envs 2 -o "$T/towb" 2>/dev/null
"$LCP" batch --json "$T/towb" >"$T/out" 2>/dev/null; rc=$?
check "batch on towers (auto): exit 0 ($rc), both solved" [ $rc -eq 0 -a "$(json_field solved)" = 2 ]
finish
