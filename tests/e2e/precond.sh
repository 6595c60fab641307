#!/bin/sh
# tests/e2e/precond.sh: the preconditioner interface from the command line:
# -p is checked against the solver's list (--list-solvers), unknown names
# and pairs that do not fit are refused (exit 2, one line naming what the
# solver takes), the name reaches --json and the summary, -p diag leaves
# Gauss-Seidel's steps unchanged, and --warm-factor/--dt-ratio scale the
# warm start.  Run from the repository root: sh tests/e2e/precond.sh.
. tests/lib.sh
P=problems/column-20

# every solver line of --list-solvers names its preconditioners, none first
"$LCP" --list-solvers >"$T/list"
check "--list-solvers: every line has precond: none..." \
    sh -c "! grep -v 'precond: none' '$T/list' | grep -q ."
check "--list-solvers: pgs takes diag" grep -q '^pgs .*precond: none,diag' "$T/list"

# unknown preconditioner, and pairs that do not fit
"$LCP" -p nosuch "$P" >"$T/out" 2>"$T/err"; rc=$?
check "unknown preconditioner: exit 2" [ $rc -eq 2 ]
check "unknown preconditioner: names the ones there are" grep -q "unknown preconditioner 'nosuch' (this build has: none" "$T/err"
check "unknown preconditioner: one line" [ "$(wc -l <"$T/err")" -eq 1 ]
"$LCP" -s lemke -p diag "$P" >"$T/out" 2>"$T/err"; rc=$?
check "lemke -p diag: refused, exit 2" [ $rc -eq 2 ]
check "lemke -p diag: says why" grep -q "solver 'lemke' takes no preconditioner" "$T/err"
"$LCP" -s nsgs -p diag problems/pyramid-5-fc3d >"$T/out" 2>"$T/err"; rc=$?
check "nsgs -p diag: refused, exit 2" [ $rc -eq 2 ]

# -p diag: the name is reported, and pgs/psor/sgs/jacobi take the same steps
for s in pgs psor sgs jacobi; do
    "$LCP" -s $s --json "$P" >"$T/out"; it0=$(json_field iterations)
    "$LCP" -s $s -p diag --json "$P" >"$T/out"; rc=$?; it1=$(json_field iterations)
    check "$s -p diag: solved" [ $rc -eq 0 ]
    check "$s -p diag: --json precond is diag" [ "$(json_field precond)" = diag ]
    check "$s -p diag: same iterations as none ($it0 = $it1)" [ "$it0" = "$it1" ]
done
"$LCP" -s pgs -p diag "$P" >"$T/out"
check "summary names the preconditioner" grep -q "precond diag" "$T/out"
printf 'solver: pgs\nprecond: diag\n' >"$T/c.yaml"
"$LCP" --config "$T/c.yaml" --json "$P" >"$T/out"
check "--config precond: diag" [ "$(json_field precond)" = diag ]
printf 'precond: nosuch\n' >"$T/c.yaml"
"$LCP" --config "$T/c.yaml" "$P" >"$T/out" 2>"$T/err"; rc=$?
check "--config unknown precond: exit 2 naming the line" sh -c "[ $rc -eq 2 ] && grep -q 'c.yaml:1' '$T/err'"

# --warm-factor and --dt-ratio: from the solution scaled by 0.5 * 2 = 1, no iteration is needed
"$LCP" -s pgs -t 1e-12 -o "$T/x.mtx" --quiet "$P"
"$LCP" -s pgs -t 1e-10 --warm-start "$T/x.mtx" --warm-factor 0.5 --dt-ratio 2 --json "$P" >"$T/out"
check "warm start x 0.5 x 2: solved at iteration 0" [ "$(json_field iterations)" = 0 ]
"$LCP" -s pgs -t 1e-10 --warm-start "$T/x.mtx" --warm-factor 0.5 --json "$P" >"$T/out"
check "warm start x 0.5: needs iterations" [ "$(json_field iterations)" -gt 0 ]
"$LCP" -s pgs --warm-factor -1 "$P" >"$T/out" 2>"$T/err"; rc=$?
check "--warm-factor -1: exit 2" [ $rc -eq 2 ]
"$LCP" -s pgs --cycle X "$P" >"$T/out" 2>"$T/err"; rc=$?
check "--cycle X: exit 2" [ $rc -eq 2 ]
# every solver x preconditioner pair --list-solvers allows, on a positive
# definite A (column-20) and a semidefinite one (pyramid-5, rank-deficient):
# solved to 1e-8 and checked by the independent residual checker
"$LCP" --list-solvers | while read -r name kinds _ precs _; do
    case ",$kinds," in *,lcp,*) ;; *) continue ;; esac
    for pc in $(echo "$precs" | tr ',' ' '); do
        [ "$pc" = none ] && [ "$precs" = none ] && continue # no preconditioner to pair with
        for prob in problems/column-20 problems/pyramid-5; do
            "$LCP" -s "$name" -p "$pc" -t 1e-8 -n 1000000 --time-limit 60 -o "$T/x.mtx" --quiet "$prob"; rc=$?
            if [ $rc -eq 0 ] && indep "$prob/A.mtx" "$prob/b.mtx" "$T/x.mtx" --max 1e-8; then
                echo "PASS $name -p $pc on $(basename $prob)"
            else
                echo "FAIL $name -p $pc on $(basename $prob): exit $rc"
            fi
        done
    done
done >"$T/pairs"
cat "$T/pairs"
pass=$((pass + $(grep -c '^PASS' "$T/pairs"))); fail=$((fail + $(grep -c '^FAIL' "$T/pairs")))
check "pairs were tested (mprgp with ichol, spai, mg among them)" grep -q '^PASS mprgp -p mg on pyramid-5' "$T/pairs"
finish
