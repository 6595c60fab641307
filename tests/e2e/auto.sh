#!/bin/sh
# tests/e2e/auto.sh: --solver auto (src/core/auto.c) end to end.  On each kind
# and on the problem shapes its rules tell apart (small and chain-like,
# well-connected, long chains, mass ratios, rank-deficient piles, non-
# symmetric, zero diagonal, findex box friction, friction piles split into
# small groups or coupled, ccp) auto must name the pick its rules give, say
# why (--json "auto_reason", the summary's "choice" line, stderr without
# --json/--quiet, nothing with --quiet), and solve: every answer is checked by
# the independent checkers (tests/check_residual.py, tests/check_friction.py).
# The shapes: the contact graph's growth ln(size)/ln(diameter) (about 1 for
# columns, 2 for walls and 2D pyramids, 2.5 for 3D granular piles, 4+ for
# random graphs) and the Lanczos condition estimate; generated granular piles
# as lcp -> apgd -p diag, as fc3d -> admm (100 iterations) then nsgs, as ccp
# -> admm (100) then socp-ipm; friction columns and stacks of boxes -> admm,
# after 300 nsn from admm's iterate (10 steps), then from zero, nsn's budget
# growing with the chain (between: admm again from its best iterate up to
# 1414 and nsn from its iterate once more); sphere simulation steps (fc3d) -> nsgs; n <= 30 ->
# nsgs for 100 sweeps, then admm (mass ratios along a chain stall nsgs).
# Towers and point grids (35+ entries a row) as lcp -> newton-min first (3
# steps), then the rules' pick; as fc3d/ccp -> admm without the Lanczos
# estimate (several contacts share a neighbourhood: not a granular pile).
# Also: the fallback (lemke's "cannot decide" -> newton-fb), -p overriding
# auto's preconditioner, and auto's choice of a preconditioner.
# Run from the repository root: sh tests/e2e/auto.sh.
. tests/lib.sh
SIC=$SICONOS_DATA
field() { python3 -c "import json,sys; v=json.load(open(sys.argv[2])).get(sys.argv[1]); print('' if v is None else v)" "$1" "$2"; }

# pick NAME EXPECTED-SOLVER EXPECTED-PRECOND CHECKER PROBLEM-ARGS...: auto picks the solver, solves, the checker agrees
pick() {
    name=$1; want=$2; wantp=$3; chk=$4; shift 4
    case $chk in lcp|dat|blcp) tol=1e-9 ;; *) tol=1e-8 ;; esac
    "$LCP" --json -t $tol -o "$T/x.mtx" "$@" >"$T/out" 2>"$T/err"; rc=$?
    got=$(field solver "$T/out"); gotp=$(field precond "$T/out"); why=$(field auto_reason "$T/out")
    case $why in *" stopped ("*) gotp=$wantp; got=${why#auto: }; got=${got%% *} ;; esac # the pick, then its fallback
    if [ "$got" != "$want" ] || [ "$gotp" != "$wantp" ]; then
        bad "$name: auto picked $got -p $gotp, the rules say $want -p $wantp ($why)"; return
    fi
    case $why in "auto: $want"*"("*")"*) ;; *) bad "$name: auto_reason '$why' does not name $want and why"; return ;; esac
    if [ $rc -ne 0 ]; then bad "$name: $want exit $rc $(field status "$T/out") $(head -c 200 "$T/err")"; return; fi
    if [ "$chk" = lcp ]; then
        d=$1
        if python3 tests/check_residual.py "$d/A.mtx" "$d/b.mtx" "$T/x.mtx" --max 1e-9 >"$T/res"; then
            ok "$name: auto -> $want${wantp:+ -p $wantp}, independent residual $(cat "$T/res")"
        else bad "$name: independent residual $(cat "$T/res")"; fi
    elif [ "$chk" = fc3d ] || [ "$chk" = ccp ]; then
        d=$1
        if python3 tests/check_friction.py "$chk" "$d/A.mtx" "$d/b.mtx" "$d/mu.mtx" "$T/x.mtx" --max 1e-8 >"$T/res"; then
            ok "$name: auto -> $want ($(field solver "$T/out") solved), independent $chk residual $(cat "$T/res")"
        else bad "$name: independent $chk residual $(cat "$T/res")"; fi
    else
        ok "$name: auto -> $want, residual $(field residual "$T/out") (no independent checker for $chk)"
    fi
}

"$LCP" generate column --bodies 600 -o "$T/col600" 2>/dev/null
"$LCP" generate column --bodies 600 --mass-ratio 100 -o "$T/col600r" 2>/dev/null
"$LCP" generate pyramid --base 12 -o "$T/pyr12" 2>/dev/null
"$LCP" generate random-spd --size 400 --cond 1e4 -o "$T/rspd" 2>/dev/null
"$LCP" generate pyramid --base 4 --mu 0.5 --piles 3 -o "$T/gran" 2>/dev/null
"$LCP" generate pyramid --base 6 --mu 0.5 --kind ccp -o "$T/pyrccp" 2>/dev/null

pick "column-20 (chain, n <= 300)" pivot none lcp problems/column-20
pick "column-20 mass ratio 100" pivot none lcp problems/column-20-ratio100
pick "random-spd-200 (well connected)" pgs none lcp problems/random-spd-200
pick "random-spd-400 (well connected)" pgs none lcp "$T/rspd"
pick "pyramid-5 (rank-deficient, n = 100, growth 2.1)" mprgp ichol lcp problems/pyramid-5
"$LCP" generate chain --links 200 --angle 30 -o "$T/chain" 2>/dev/null
pick "a chain of 200 links (n <= 300, growth 1: ichol, not dense pivoting)" mprgp ichol lcp "$T/chain"
pick "column of 600 (long chain)" mprgp ichol lcp "$T/col600"
pick "column of 600, mass ratio 100" mprgp ichol lcp "$T/col600r"
pick "pyramid 12 (rank-deficient, 576 contacts)" mprgp ichol lcp "$T/pyr12"
pick "murty-8 (not symmetric)" lemke none lcp problems/murty-8
if [ -f "$SIC/lcp/lcp_mmc.dat" ] && [ -f "$SIC/lcp/lcp_exp_murty.dat" ]; then
    pick "Siconos lcp_mmc (dense, n = 26)" pivot none dat "$SIC/lcp/lcp_mmc.dat"
    pick "Siconos lcp_exp_murty (not symmetric)" lemke none dat "$SIC/lcp/lcp_exp_murty.dat"
else
    skip "Siconos lcp files missing ($SIC/lcp, LCPSOLVE_DATA)"
fi
pick "pyramid-5-fc3d as box blcp (findex)" pivot none blcp problems/pyramid-5-fc3d --cone pyramid:4
pick "pyramid-5-fc3d (coupled, symmetric)" admm none fc3d problems/pyramid-5-fc3d
pick "pyramid piles fc3d" admm none fc3d "$T/gran"
pick "pyramid-6 ccp" admm none ccp "$T/pyrccp"
"$LCP" generate granular --base 4 --layers 3 --mu 0.3 --kind ccp -o "$T/gccp" 2>/dev/null
pick "granular ccp (3D pile, ill-conditioned: admm first, then socp-ipm)" admm none ccp "$T/gccp"
# 3D granular piles as lcp: growth >= 2.3, apgd with the diagonal (not mprgp + ichol, which needs hundreds of iterations)
"$LCP" generate granular --base 6 --layers 4 -o "$T/glcp" 2>/dev/null
"$LCP" generate granular --base 5 --layers 4 --piles 3 --holes 0.2 --seed 4 -o "$T/glcp3" 2>/dev/null
pick "granular pile lcp (growth >= 2.3)" apgd diag lcp "$T/glcp"
pick "three granular piles lcp (growth >= 2.3)" apgd diag lcp "$T/glcp3"
"$LCP" generate granular --base 12 --layers 6 -o "$T/gbig" 2>/dev/null
pick "a granular pile of 3221 contacts lcp (one group > 2000: ipm)" ipm none lcp "$T/gbig"
"$LCP" generate granular --base 5 --layers 3 --holes 0.3 --seed 3 -o "$T/gsmall" 2>/dev/null
pick "a small granular pile lcp (n = 145, growth >= 2.3)" apgd diag lcp "$T/gsmall"
"$LCP" --json -n 0 "$T/glcp" >"$T/out" 2>/dev/null
case $(field auto_reason "$T/out") in
*"growth ln size/ln diameter = 2."[3-9]*"ipm after "*) ok "granular lcp: the reason gives the growth and apgd's budget" ;;
*) bad "granular lcp: reason '$(field auto_reason "$T/out")'" ;;
esac
# a friction column (growth ~1): admm (10-80x faster than nsn there since its per-contact scaling), then nsn,
# then nsgs after 100 + 2 diameter steps (a chain of 80: 100 + 2 * 79)
"$LCP" generate column --bodies 80 --mu 0.5 -o "$T/colf" 2>/dev/null
pick "friction column (growth ~1: admm)" admm none fc3d "$T/colf"
check "friction column: nsn's budget grows with the chain" grep -q 'nsgs after 258 = 100 + 2 diameter steps' "$T/out"
# the facts auto reads off the pattern: 4 columns of 50 -> 4 groups of 50 contacts, diameter 49 (as lcpsolve info counts)
"$LCP" generate column --bodies 50 --piles 4 --mu 0.5 -o "$T/colp" 2>/dev/null
"$LCP" --json -n 0 "$T/colp" >"$T/out" 2>/dev/null
check "4 friction columns: largest group 50 of 4, diameter 49" grep -q '"auto: admm (fc3d, 200 contacts, largest group 50 (of 4), diameter ~49, growth ln size/ln diameter = 1.01' "$T/out"
"$LCP" info "$T/colp" >"$T/info" 2>/dev/null
check "lcpsolve info agrees: 4 components, the largest 50" grep -q '4 components, the largest 50' "$T/info"
# a 3D granular pile as fc3d (growth >= 2.3, point contacts, condition > 2e4): admm for 100 iterations (it
# solves small piles), then nsgs, which larger piles need
"$LCP" generate granular --base 3 --layers 3 --mu 0.3 -o "$T/g1" 2>/dev/null
pick "granular pile fc3d (3D, ill-conditioned: admm first)" admm none fc3d "$T/g1"
check "granular pile fc3d: admm's budget 100, then nsgs" grep -q 'admm first, 100 iterations at most.*; fallback nsgs' "$T/out"
# a step of a sphere simulation (most contacts opening, point contacts): nsgs
"$LCP" generate sequence --scene granular --base 5 --layers 3 --steps 25 --mu 0.5 -o "$T/sq" 2>/dev/null
pick "sphere simulation step fc3d (66% opening, point contacts: nsgs)" nsgs none fc3d "$T/sq/step-0024"
check "simulation step: the reason gives the opening share" grep -q '% of the contacts opening (b_n > 0' "$T/out"
"$LCP" generate sequence --scene pyramid --base 8 --steps 25 --mu 0.5 --kind ccp -o "$T/sqc" 2>/dev/null
pick "sphere simulation step ccp (opening, point contacts: socp-ipm)" socp-ipm none ccp "$T/sqc/step-0024"
if [ -f "$SIC/fc3d/Spheres-i099-356-679.hdf5" ]; then
    pick "Siconos Spheres (many small groups)" nsgs none fclib $SIC/fc3d/Spheres-i099-356-679.hdf5
    pick "Siconos Capsules (W not symmetric)" nsn none dat $SIC/fc3d/Capsules-i122-1617.dat
    pick "Siconos KaplasTower (growth 2.5, well conditioned: admm)" admm none dat $SIC/fc3d/KaplasTower-i1061-4.hdf5.dat
    pick "Siconos BoxesStack1 (a stack of boxes, 4 points a face: admm, not nsgs)" admm none dat $SIC/fc3d/BoxesStack1-i100000-32.hdf5.dat
else
    skip "Siconos fc3d files missing"
fi

# a chain (growth < 1.2): mprgp -p ichol, 1 iteration where A is regular; a hanging chain resting on the ground
# (A singular) stalls it: pmg after 5 (not ipm, dense below n = 1000: 100x slower there)
"$LCP" generate chain --links 400 --ground -o "$T/chg" 2>/dev/null
"$LCP" --json -t 1e-9 -o "$T/x.mtx" "$T/chg" >"$T/out" 2>/dev/null
case "$(field solver "$T/out") $(field status "$T/out") $(field auto_reason "$T/out")" in
"pmg solved auto: mprgp -p ichol ("*"a chain (growth < 1.2"*"pmg after 5, ipm after 100 cycles"*"mprgp stopped (max_iter after 5 iterations): pmg from zero")
    if python3 tests/check_residual.py "$T/chg/A.mtx" "$T/chg/b.mtx" "$T/x.mtx" --max 1e-9 >"$T/res"; then
        ok "singular chain: mprgp stops after 5, pmg solves (independent residual $(cat "$T/res"))"
    else bad "singular chain: independent residual $(cat "$T/res")"; fi ;;
*) bad "singular chain: $(field solver "$T/out") $(field status "$T/out") '$(field auto_reason "$T/out")'" ;;
esac
pick "column of 600: a chain, mprgp in 1 iteration (pmg only after 5)" mprgp ichol lcp "$T/col600"
check "column of 600: the chain's fallback is named" grep -q 'pmg after 5, ipm after 100 cycles' "$T/out"

# many contact points a body (35+ entries a row of A): newton-min first, its first step solves a resting stack
"$LCP" generate tower --layers 10 --planks 3 -o "$T/tow" 2>/dev/null
"$LCP" generate redundant --bodies 20 --points 5 -o "$T/red" 2>/dev/null
pick "tower of planks lcp (41 entries a row: Newton first)" newton-min none lcp "$T/tow"
pick "redundant 5x5 point grids lcp (72 entries a row: Newton first)" newton-min none lcp "$T/red"
"$LCP" --json "$T/tow" >"$T/out" 2>/dev/null
case "$(field iterations "$T/out") $(field auto_reason "$T/out")" in
"1 auto: newton-min (40.9 entries a row >= 35"*"3 steps at most, then apgd -p diag: "*"; fallback apgd, then ipm") ok "tower: newton-min in 1 step; the reason names the rows, the budget and what follows" ;;
*) bad "tower: $(field iterations "$T/out") iterations, reason '$(field auto_reason "$T/out")'" ;;
esac
# and not below 35 a row: pyramids (4 points a face, 24 a row) keep mprgp (tested above), 2-plank towers (27 a row) too
"$LCP" generate tower --layers 30 --planks 2 -o "$T/tow2" 2>/dev/null
pick "2-plank tower lcp (27 entries a row: no Newton first)" mprgp ichol lcp "$T/tow2"
# the Newton first try falls through to the rules' pick when it does not solve in 3 steps
"$LCP" --json -n 0 "$T/red" >"$T/out" 2>/dev/null
check "redundant: newton-min's budget is 3, then mprgp -p ichol" grep -q '"auto_reason":"auto: newton-min (.*then mprgp -p ichol: .*; fallback mprgp, then ipm"' "$T/out"
# -p from the command line is for the rules' pick: no Newton first try
"$LCP" --json -p diag "$T/tow" >"$T/out" 2>/dev/null
case "$(field solver "$T/out") $(field precond "$T/out") $(field status "$T/out") $(field auto_reason "$T/out")" in
"apgd diag solved "*"without the Newton first try: apgd; -p diag from the command line") ok "tower -p diag: apgd -p diag, no Newton first try" ;;
*) bad "tower -p diag: $(field solver "$T/out") $(field precond "$T/out") '$(field auto_reason "$T/out")'" ;;
esac
# batch runs no fallbacks: the rules' pick, not the Newton first try
"$LCP" generate tower --layers 10 --planks 3 --envs 2 -o "$T/towb" 2>/dev/null
"$LCP" batch --json "$T/towb" >"$T/out" 2>/dev/null
check "batch on towers: auto's pick apgd, not newton-min" grep -q '"solver":[[:space:]]*"apgd"' "$T/out"
# friction on stacks of planks (4 contacts share a neighbourhood): admm without the condition estimate
"$LCP" generate tower --layers 10 --planks 3 --mu 0.5 -o "$T/towf" 2>/dev/null
pick "tower fc3d (growth 2.65, 4 points a pair of planks: admm)" admm none fc3d "$T/towf"
check "tower fc3d: no Lanczos; admm's budget 300, then nsn from its iterate, admm's second round to 1414" grep -q '4.0 contacts a neighbourhood >= 2 (several points on each pair of bodies: a stack of planks or boxes, not a granular pile of point contacts; cond taken as 2e4), W symmetric.*after 300, nsn from admm.s best iterate, 10 steps at most.*admm again from its best iterate up to 1414 (10 sqrt(cond) in \[300, 2000\])' "$T/out"
"$LCP" generate tower --layers 10 --planks 3 --mu 0.5 --kind ccp -o "$T/towc" 2>/dev/null
pick "tower ccp (4 points a pair of planks: admm, not socp-ipm)" admm none ccp "$T/towc"

# fc3d, W symmetric, not a granular pile: admm, after 300 iterations nsn from admm's best iterate (10 steps at
# most), then nsn from zero, then nsgs.  No structural fact separates the stacks admm crawls on from those it
# solves at once, so the rule is the same for boxes and spheres: a generated stack of boxes (2x2 points a face)
# and a column of spheres both take admm, which solves them in tens of iterations, before any fallback
"$LCP" generate redundant --bodies 10 --points 2 --mu 0.5 -o "$T/boxf" 2>/dev/null
pick "stack of 10 boxes fc3d, 2x2 points a face (admm)" admm none fc3d "$T/boxf"
case "$(field solver "$T/out") $(field iterations "$T/out") $(field auto_reason "$T/out")" in
"admm "[0-9]" "*"after 300, nsn from admm's best iterate, 10 steps at most"* | "admm "[0-9][0-9]" "*"after 300, nsn from admm's best iterate, 10 steps at most"*)
    case $(field auto_reason "$T/out") in *" stopped ("*) bad "box stack: a fallback ran: $(field auto_reason "$T/out")" ;;
    *) ok "box stack: admm solved in $(field iterations "$T/out") iterations, the reason names the warm nsn after 300" ;; esac ;;
*) bad "box stack: $(field solver "$T/out") $(field iterations "$T/out") '$(field auto_reason "$T/out")'" ;;
esac
"$LCP" generate column --bodies 30 --mu 0.5 -o "$T/col30f" 2>/dev/null
pick "column of 30 spheres fc3d (admm)" admm none fc3d "$T/col30f"
case "$(field solver "$T/out") $(field auto_reason "$T/out")" in
"admm auto: admm (fc3d, 30 contacts, largest group 30 (of 1), diameter ~29, growth ln size/ln diameter = 1.01 < 2.3"*"after 300, nsn from admm's best iterate"*)
    case $(field auto_reason "$T/out") in *" stopped ("*) bad "sphere column: a fallback ran: $(field auto_reason "$T/out")" ;;
    *) ok "sphere column: admm solved in $(field iterations "$T/out") iterations (growth 1.01, same rule as the box stack)" ;; esac ;;
*) bad "sphere column: $(field solver "$T/out") '$(field auto_reason "$T/out")'" ;;
esac
# where admm crawls (a step of a sphere pyramid simulation, under half the contacts opening: admm's rule): nsn
# from admm's iterate after 300 finishes in 1 step (nsn from zero fails on this step: line search)
"$LCP" generate sequence --scene pyramid --base 8 --steps 20 --mu 0.5 -o "$T/sqp" 2>/dev/null
pick "sphere pyramid step 16 (admm crawls: nsn from its iterate)" admm none fc3d "$T/sqp/step-0016"
case "$(field solver "$T/out") $(field iterations "$T/out") $(field auto_reason "$T/out")" in
"nsn "[1-9]" "*"; admm stopped (max_iter after 300 iterations): nsn from its best iterate") ok "sphere pyramid step 16: admm 300, then nsn from its iterate in $(field iterations "$T/out") steps" ;;
*) bad "sphere pyramid step 16: $(field solver "$T/out") $(field iterations "$T/out") '$(field auto_reason "$T/out")'" ;;
esac
# where Newton from admm's iterate crawls too (nsn from zero fails there as well): after its 10 steps admm again
# from its best iterate, which solves within its old budget (1414 in all)
"$LCP" generate sequence --scene pyramid --base 7 --steps 15 --mu 0.8 --mass-ratio 10 -o "$T/sqr" 2>/dev/null
pick "sphere pyramid (mass ratio 10) step 14 (the warm try fails: admm again)" admm none fc3d "$T/sqr/step-0014"
case "$(field solver "$T/out") $(field auto_reason "$T/out")" in
"admm "*"; admm stopped (max_iter after 300 iterations): nsn from its best iterate; nsn stopped (max_iter after 10 iterations): admm again from its best iterate") ok "sphere pyramid step 14: the warm nsn's 10 steps, then admm's second round solves ($(field iterations "$T/out") iterations)" ;;
*) bad "sphere pyramid step 14: $(field solver "$T/out") '$(field auto_reason "$T/out")'" ;;
esac
# the same fallbacks in a sequence (src/cli/sequence.c, warm-started by contact id): step 16 of that simulation
# takes the warm nsn (admm 300, then 1 Newton step), step 14 admm's second round, every step solves
"$LCP" generate sequence --scene pyramid --base 7 --steps 17 --mu 0.8 --mass-ratio 10 -o "$T/sqr17" 2>/dev/null
"$LCP" sequence --json "$T/sqr17" >"$T/seq" 2>/dev/null
python3 - "$T/seq" >"$T/res" <<'PY'
import json, sys
steps = {}
for line in open(sys.argv[1]):
    try:
        d = json.loads(line)
    except ValueError:
        continue
    if "step" in d:
        steps[d["step"]] = d
bad = [k for k, d in steps.items() if d["status"] != "solved"]
s14, s16 = steps.get(14, {}), steps.get(16, {})
print("%d steps, unsolved %s, step 14: %s, step 16: %s %s" % (len(steps), bad, s14.get("solver"), s16.get("solver"),
                                                          s16.get("iterations")))
sys.exit(0 if len(steps) == 17 and not bad and s16.get("solver") == "nsn" and 1 <= s16.get("iterations", 0) <= 10
         and s14.get("solver") == "admm" else 1)
PY
rc=$?
check "lcpsolve sequence: the warm nsn fallback there too ($(cat "$T/res"))" [ $rc -eq 0 ]
# n <= 30: nsgs, 100 sweeps at most, then admm: a column of 10 spheres under one 1000x heavier takes nsgs
# 80,000 sweeps (150 ms), admm 12 iterations
"$LCP" generate mass-ratio --bodies 10 --ratio 1e3 --mu 0.5 -o "$T/mr10f" 2>/dev/null
pick "mass ratio 1e3, 10 spheres fc3d (n = 30: nsgs first)" nsgs none fc3d "$T/mr10f"
case "$(field solver "$T/out") $(field auto_reason "$T/out")" in
"admm auto: nsgs (fc3d, n = 30 <= 30, "*"100 sweeps at most"*"; nsgs stopped (max_iter after 100 iterations): admm from zero") ok "mass ratio, n = 30: nsgs's 100 sweeps, then admm in $(field iterations "$T/out")" ;;
*) bad "mass ratio, n = 30: $(field solver "$T/out") '$(field auto_reason "$T/out")'" ;;
esac
if [ -f $SIC/fc3d/BoxesStack1-i100000-32.hdf5.dat ]; then
    "$LCP" --json $SIC/fc3d/BoxesStack1-i100000-32.hdf5.dat >"$T/out" 2>/dev/null
    case "$(field status "$T/out") $(field solver "$T/out") $(field iterations "$T/out") $(field auto_reason "$T/out")" in
    "solved nsn "[1-9]" "*"; admm stopped (max_iter after 300 iterations): nsn from its best iterate") ok "BoxesStack1: admm 300, then nsn from its iterate in $(field iterations "$T/out") steps (nsn from zero takes 43)" ;;
    *) bad "BoxesStack1: $(field status "$T/out") $(field solver "$T/out") $(field iterations "$T/out") '$(field auto_reason "$T/out")'" ;;
    esac
else
    skip "BoxesStack1: Siconos fc3d files missing ($SIC/fc3d, LCPSOLVE_DATA)"
fi

# lcp_CPS_3 (a 4-row bimatrix game, zero diagonal, indefinite): lemke's ray
# decides nothing, its complete enumeration does (src/solvers/enumerate.c)
if [ -f "$SIC/lcp/lcp_CPS_3.dat" ]; then
    "$LCP" --json "$SIC/lcp/lcp_CPS_3.dat" >"$T/out" 2>/dev/null; rc=$?
    case "$rc $(field solver "$T/out") $(field message "$T/out")" in
    "0 lemke lemke could not decide the whole; decided by its 1 component (1 by complete enumeration"*) ok "lcp_CPS_3: lemke, then enumeration ($(field residual "$T/out"))" ;;
    *) bad "lcp_CPS_3: exit $rc, $(field solver "$T/out"), '$(field message "$T/out")'" ;;
    esac
else
    skip "lcp_CPS_3: $SIC/lcp/lcp_CPS_3.dat missing (LCPSOLVE_DATA)"
fi
# the fallback: a 30-row bimatrix game (one component, over enumeration's 25
# rows): lemke cannot decide, auto runs newton-fb from zero
python3 -c "
import json, random
r = random.Random(7); m = 15; n = 2 * m
A = [[0] * n for _ in range(n)]
for i in range(m):
    for j in range(m): A[i][m + j] = r.randint(1, 30); A[m + i][j] = r.randint(1, 30)
json.dump({'kind': 'lcp', 'A': A, 'b': [-1] * n}, open('$T/game30.json', 'w'))"
"$LCP" --json "$T/game30.json" >"$T/out" 2>/dev/null; rc=$?
why=$(field auto_reason "$T/out")
case "$(field solver "$T/out") $why" in
"newton-fb auto: lemke"*"lemke stopped (error"*"newton-fb from zero"*) ok "fallback: lemke -> newton-fb on a 30-row game (exit $rc)" ;;
*) bad "fallback on a 30-row game: exit $rc, $(field solver "$T/out"), '$why'" ;;
esac
"$LCP" -s lemke --json "$T/game30.json" >"$T/out" 2>/dev/null; rc=$?
check "lemke alone on the 30-row game: exit 5, says why enumeration did not run" sh -c "[ $rc -eq 5 ] && grep -q 'one component of 30 rows, over the 25 of complete enumeration' '$T/out'"

# the budget: admm stops after 10 sqrt(cond) iterations and hands over to nsn (--max-iter caps nothing else)
"$LCP" --json -n 0 "$T/pyrccp" >"$T/out" 2>/dev/null
case $(field auto_reason "$T/out") in
*"< 2.3 (no condition estimate: not a 3D pile; cond taken as 2e4)"*"socp-ipm after 1414 (10 sqrt(cond) in [200, 2000])"*) ok "ccp admm on a 2D pyramid: no Lanczos, the budget is named with its rule" ;;
*) bad "ccp admm budget: '$(field auto_reason "$T/out")'" ;;
esac
"$LCP" --json -n 0 "$T/gccp" >"$T/out" 2>/dev/null
case $(field auto_reason "$T/out") in
*"growth ln size/ln diameter = 2."*"scaled cond ~"*"> 2e4"*) ok "granular ccp: point contacts, the Lanczos estimate decides" ;;
*) bad "granular ccp: '$(field auto_reason "$T/out")'" ;;
esac

# LCPSOLVE_CLOCK=thread (scripts/auto-check): times and --time-limit on the thread's CPU clock
LCPSOLVE_CLOCK=thread "$LCP" --json -s pgs -t 1e-14 -n 100000000 --time-limit 0.05 "$T/col600" >"$T/out" 2>/dev/null
case "$(field status "$T/out") $(field time_s "$T/out")" in
"time_limit 0.0"[45-9]* | "time_limit 0.1"*) ok "LCPSOLVE_CLOCK=thread: --time-limit on the thread clock ($(field time_s "$T/out") s)" ;;
*) bad "LCPSOLVE_CLOCK=thread: $(field status "$T/out") after $(field time_s "$T/out") s" ;;
esac

# -p wins over auto's preconditioner; a -p the pick does not take is refused
"$LCP" --json -p diag "$T/col600" >"$T/out" 2>/dev/null
check "-p diag overrides auto's ichol" grep -q '"auto_reason":"auto: mprgp -p ichol.*; -p diag from the command line' "$T/out"

# the reasons: stderr and the summary without --json, nothing with --quiet
"$LCP" problems/column-20 >"$T/sum" 2>"$T/err"
check "reason on stderr" grep -q '^lcpsolve: auto: pivot (symmetric, n = 20' "$T/err"
check "reason in the summary" grep -q '^choice *auto: pivot (' "$T/sum"
"$LCP" --quiet problems/column-20 >"$T/sum" 2>"$T/err"
check "--quiet: no summary, no reason" [ ! -s "$T/sum" ] && [ ! -s "$T/err" ]
"$LCP" --json -s psor problems/column-20 >"$T/out" 2>/dev/null
check "a named solver: no auto_reason" [ -z "$(field auto_reason "$T/out")" ]
finish
