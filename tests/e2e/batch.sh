#!/bin/sh
# tests/e2e/batch.sh: `lcpsolve batch DIR` solves every environment of a
# folder (generated with `generate --envs`), all solved to tol (the
# independent checker agrees on a few outputs, and the perturbed
# environments differ), -j 2 writes the same bits as -j 1, --json has its
# fields, tiny lcps down each way of the small paths (pivot's, lemke's
# tiny one, neither) give their single solves' answers, iteration limits
# give exit 1, a bad file in the folder is an input
# error naming it, `generate --envs` is deterministic and its problems are
# consistent (b = J v), --device gpu is refused cleanly in builds without
# CUDA.  Run from the repository root.
. tests/lib.sh
differ() { ! cmp -s "$1" "$2"; }
"$LCP" generate pyramid --base 2 --envs 40 -o "$T/pyr" 2>/dev/null
check "generate --envs 40: 40 folders" [ "$(ls "$T/pyr" | wc -l)" -eq 40 ]
check "generate --envs: names env00000 .. env00039" [ -f "$T/pyr/env00000/A.mtx" -a -f "$T/pyr/env00039/b.mtx" ]
check "environments differ (b perturbed)" differ "$T/pyr/env00000/b.mtx" "$T/pyr/env00001/b.mtx"
check "environments differ (v perturbed)" differ "$T/pyr/env00000/v.mtx" "$T/pyr/env00001/v.mtx"
"$LCP" generate pyramid --base 2 --envs 40 -o "$T/pyr2" 2>/dev/null
check "generate --envs: the same command, the same bytes" diff -r "$T/pyr" "$T/pyr2"
"$LCP" generate pyramid --base 2 --envs 3 -o "$T/pyr3" 2>/dev/null
check "generate --envs: environment k does not depend on K" cmp -s "$T/pyr/env00002/b.mtx" "$T/pyr3/env00002/b.mtx"
"$LCP" generate pyramid --base 2 --envs 3 --seed 9 -o "$T/pyr4" 2>/dev/null
check "generate --envs: --seed changes the perturbation" differ "$T/pyr/env00002/b.mtx" "$T/pyr4/env00002/b.mtx"
"$LCP" generate pyramid --base 2 --envs 3 --perturb 0 -o "$T/pyr5" 2>/dev/null
"$LCP" generate pyramid --base 2 -o "$T/one" 2>/dev/null
check "--perturb 0: every environment is the scene" cmp -s "$T/one/b.mtx" "$T/pyr5/env00001/b.mtx"
"$LCP" generate pyramid --base 2 --perturb 0.2 -o "$T/x" 2>"$T/err"; rc=$?
check "--perturb without --envs: exit 2" [ $rc -eq 2 ]
# b = J v in every environment: solving the factored form alone gives the same answer
mkdir "$T/fact"; cp "$T/pyr/env00007/M.mtx" "$T/pyr/env00007/J.mtx" "$T/pyr/env00007/v.mtx" "$T/fact/"
"$LCP" -s lemke -t 1e-12 -o "$T/xf.mtx" --quiet "$T/fact"
check "factored form of an environment: solved" [ $? -eq 0 ]
check "factored form solves the assembled environment (b = J v)" indep "$T/pyr/env00007/A.mtx" "$T/pyr/env00007/b.mtx" "$T/xf.mtx" --max 1e-9

for s in pgs lemke psor; do
    "$LCP" batch -s $s --json -o "$T/o1-$s" "$T/pyr" >"$T/out"; rc=$?
    check "batch -s $s: exit 0" [ $rc -eq 0 ]
    check "batch -s $s: 40 environments" [ "$(json_field environments)" = 40 ]
    check "batch -s $s: all solved" [ "$(json_field solved)" = 40 -a "$(json_field not_solved)" = 0 ]
    check "batch -s $s: worst residual <= tol" python3 -c "import json; exit(0 if json.load(open('$T/out'))['worst_residual'] <= 1e-8 else 1)"
    check "batch -s $s: 40 outputs" [ "$(ls "$T/o1-$s" | wc -l)" -eq 40 ]
    for e in env00000 env00013 env00039; do
        check "batch -s $s: $e independent residual" indep "$T/pyr/$e/A.mtx" "$T/pyr/$e/b.mtx" "$T/o1-$s/$e.mtx" --max 1e-8
    done
    "$LCP" batch -s $s -j 2 --quiet -o "$T/o2-$s" "$T/pyr"
    check "batch -s $s: -j 2 = -j 1 bitwise" diff -r "$T/o1-$s" "$T/o2-$s"
done
# auto: one choice a pattern (every environment here has the pyramid's), the same bits for any -j
"$LCP" batch --json -o "$T/o1-auto" "$T/pyr" >"$T/out"; rc=$?
check "batch auto: exit 0, all solved" [ $rc -eq 0 -a "$(json_field solved)" = 40 ]
check "batch auto: one solver for all (one choice)" [ "$(json_field solver)" != "auto (mixed)" ]
"$LCP" batch -j 2 --quiet -o "$T/o2-auto" "$T/pyr"
check "batch auto: -j 2 = -j 1 bitwise" diff -r "$T/o1-auto" "$T/o2-auto"
check "batch auto: env00013 independent residual" indep "$T/pyr/env00013/A.mtx" "$T/pyr/env00013/b.mtx" "$T/o1-auto/env00013.mtx" --max 1e-8
# each output is the answer of the single solve
"$LCP" -s pgs -o "$T/single.mtx" --quiet "$T/pyr/env00013"
check "batch output = lcpsolve -s pgs on the environment" cmp -s "$T/single.mtx" "$T/o1-pgs/env00013.mtx"
check "environments' answers differ" differ "$T/o1-lemke/env00000.mtx" "$T/o1-lemke/env00001.mtx"

# tiny lcps down each way of the small paths: pivot's (a 2 x 2 SPD A), lemke's tiny one (a zero diagonal:
# lcp_CPS_2), neither (A = -1, b = -1: no solution, the general run's certificate); each as its single solve
mkdir -p "$T/tiny/e1" "$T/tiny/e2" "$T/tiny/e3"
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 2\n1 2 1\n2 1 1\n2 2 2\n' >"$T/tiny/e1/A.mtx"
printf '%%%%MatrixMarket matrix array real general\n2 1\n-1\n-1\n' >"$T/tiny/e1/b.mtx"
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 6\n1 2 2\n1 3 -1\n2 1 -1\n2 3 1\n3 1 2\n3 2 -2\n' >"$T/tiny/e2/A.mtx"
printf '%%%%MatrixMarket matrix array real general\n3 1\n-3\n6\n-1\n' >"$T/tiny/e2/b.mtx"
printf '%%%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 -1\n' >"$T/tiny/e3/A.mtx"
printf '%%%%MatrixMarket matrix array real general\n1 1\n-1\n' >"$T/tiny/e3/b.mtx"
"$LCP" batch --json -o "$T/tiny-out" "$T/tiny" >"$T/out"; rc=$?
check "batch of tiny lcps: exit 3 (one has no solution), 2 solved" [ $rc -eq 3 -a "$(json_field solved)" = 2 ]
check "batch of tiny lcps: e3 the one not solved" python3 -c "
import json; exit(0 if json.load(open('$T/out'))['not_solved_names'] == ['e3'] else 1)"
check "batch of tiny lcps: pivot and lemke answered (mixed)" [ "$(json_field solver)" = "auto (mixed)" ]
for e in e1 e2; do
    "$LCP" -o "$T/tiny-$e.mtx" --quiet "$T/tiny/$e"
    check "batch of tiny lcps: $e = its single solve" cmp -s "$T/tiny-$e.mtx" "$T/tiny-out/$e.mtx"
done
"$LCP" --json "$T/tiny/e2" >"$T/out"
check "tiny lcp e2: lemke's answer" [ "$(json_field solver)" = lemke ]
"$LCP" --json "$T/tiny/e3" >"$T/out"; rc=$?
check "tiny lcp e3: no solution (exit 3)" [ $rc -eq 3 -a "$(json_field status)" = no_solution ]
"$LCP" batch -s pgs --json "$T/pyr" >"$T/out"
for f in environments solved not_solved worst_residual parse_s solve_s env_steps_per_s median_env_s max_env_s threads device; do
    check "--json has $f" [ -n "$(json_field $f)" ]
done
check "--json: env_steps_per_s = environments / solve_s" python3 -c "
import json; o = json.load(open('$T/out')); exit(0 if abs(o['env_steps_per_s'] * o['solve_s'] - 40) < 1e-6 * 40 else 1)"
check "--json: median <= max" python3 -c "import json; o = json.load(open('$T/out')); exit(0 if 0 < o['median_env_s'] <= o['max_env_s'] else 1)"
"$LCP" batch -s pgs "$T/pyr" >"$T/out"
check "summary: environments and env-steps/s" grep -q "env-steps/s" "$T/out"

# friction environments, the auto solver (nsgs), granular
"$LCP" generate granular --base 2 --layers 2 --mu 0.4 --envs 12 -o "$T/gran" 2>/dev/null
"$LCP" batch --json -j 2 "$T/gran" >"$T/out"; rc=$?
check "batch fc3d granular (auto: nsgs): exit 0, all solved" [ $rc -eq 0 -a "$(json_field solved)" = 12 ]
# a batch longer than the first 2 ms, which the calling thread solves alone: -j 2 then solves the rest on a
# team of 2 (with auto, after each pattern's leader solved on the calling thread: a team of 1 before), the
# same bits as -j 1
"$LCP" generate pyramid --base 3 --mu 0.5 --envs 200 -o "$T/fric" 2>/dev/null
"$LCP" batch -t 1e-6 --json -o "$T/f1" "$T/fric" >"$T/out"; rc=$?
check "batch auto, 200 friction pyramids, -j 1: all solved on one thread" [ $rc -eq 0 -a "$(json_field solved)" = 200 -a "$(json_field threads_used)" = 1 ]
"$LCP" batch -t 1e-6 -j 2 --json -o "$T/f2" "$T/fric" >"$T/out"; rc=$?
check "batch auto, 200 friction pyramids, -j 2: a team of 2 threads" [ $rc -eq 0 -a "$(json_field threads_used)" = 2 ]
check "batch auto, 200 friction pyramids: -j 2 = -j 1 bitwise" diff -r "$T/f1" "$T/f2"

# limits: exit 1, the not-solved named
"$LCP" batch -s pgs -n 2 --json "$T/pyr" >"$T/out"; rc=$?
check "batch -n 2: exit 1" [ $rc -eq 1 ]
check "batch -n 2: none solved" [ "$(json_field solved)" = 0 -a "$(json_field not_solved)" = 40 ]
check "batch -n 2: not_solved_names" python3 -c "import json; exit(0 if 'env00000' in json.load(open('$T/out'))['not_solved_names'] else 1)"

# bad input: exit 2, naming the file
cp -r "$T/pyr3" "$T/bad"
echo '{"kind": "lcp", "A": [[1' >"$T/bad/env00001b.json"
"$LCP" batch "$T/bad" >/dev/null 2>"$T/err"; rc=$?
check "bad .json in the folder: exit 2" [ $rc -eq 2 ]
check "bad .json: the message names it" grep -q "env00001b.json" "$T/err"
check "bad .json: one line" [ "$(wc -l <"$T/err")" -eq 1 ]
rm "$T/bad/env00001b.json"
echo garbage >"$T/bad/env00002/A.mtx"
"$LCP" batch "$T/bad" >/dev/null 2>"$T/err"; rc=$?
check "bad A.mtx in an environment: exit 2 naming it" [ $rc -eq 2 ] && grep -q "env00002/A.mtx" "$T/err"
"$LCP" batch -s nsgs "$T/pyr3" >/dev/null 2>"$T/err"; rc=$?
check "solver that does not take the kind: exit 2" [ $rc -eq 2 ] && grep -q "env00000" "$T/err"
"$LCP" batch "$T/nothing" >/dev/null 2>"$T/err"; rc=$?
check "missing DIR: exit 2" [ $rc -eq 2 ]
mkdir "$T/empty"
"$LCP" batch "$T/empty" >/dev/null 2>"$T/err"; rc=$?
check "empty DIR: exit 2" [ $rc -eq 2 ]
"$LCP" batch -s pgs -j 0 "$T/pyr3" >/dev/null 2>"$T/err"; rc=$?
check "-j 0: exit 2" [ $rc -eq 2 ]
if "$LCP" --list-solvers | grep -q '^pgs-cuda'; then
    skip "--device gpu refusal (this is a CUDA build)"
else
    "$LCP" batch --device gpu "$T/pyr3" >/dev/null 2>"$T/err"; rc=$?
    check "--device gpu without CUDA: exit 2, one line" [ $rc -eq 2 -a "$(wc -l <"$T/err")" -eq 1 ]
fi
finish
