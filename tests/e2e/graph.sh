#!/bin/sh
# tests/e2e/graph.sh: the contact graph from the command line: `info`
# reports components, degrees, colours and the Laplacian estimate (text and
# --json), --graph writes a DOT file with every contact and edge, --order
# (natural, rcm, amd, nd, colour, dsatur) solves with pgs, sgs and nsgs, and
# -j 2 gives the same bits as -j 1 for every order, on the bundled problems
# and the Siconos friction files; refusals exit 2.
# Run from the repository root: sh tests/e2e/graph.sh.
. tests/lib.sh
SIC=$SICONOS_DATA/fc3d
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, {'d': d}))" "$1" "$2"; }

# info: a column is a path (Laplacian 2 - 2 cos(k pi / N)), 2 colours
"$LCP" info --json problems/column-20 >"$T/out"
check "info column: 1 component of 20" [ "$(jget "$T/out" "(d['graph']['components'], d['graph']['largest_component'])")" = "(1, 20)" ]
check "info column: 19 edges, degrees 1..2" [ "$(jget "$T/out" "(d['graph']['edges'], d['graph']['degree_min'], d['graph']['degree_max'])")" = "(19, 1, 2)" ]
check "info column: 2 colours" [ "$(jget "$T/out" "d['graph']['colours_dsatur']")" = 2 ]
check "info column: Fiedler value of a 20-path" python3 -c "
import json, math; d = json.load(open('$T/out'))['graph']
exit(0 if abs(d['laplacian_fiedler'] - (2 - 2 * math.cos(math.pi / 20))) < 1e-8 else 1)"
"$LCP" info problems/pyramid-5 >"$T/out"
check "info text: graph, degree, colours, laplacian lines" sh -c "grep -q '^graph ' '$T/out' && grep -q '^degree ' '$T/out' && grep -q '^colours ' '$T/out' && grep -q '^laplacian ' '$T/out'"
if [ -f "$SIC/Capsules-i122-1617.dat" ]; then
    "$LCP" info --json "$SIC/Capsules-i122-1617.dat" >"$T/out"
    check "info Capsules: 296 contacts in 33 components" [ "$(jget "$T/out" "(d['graph']['nodes'], d['graph']['components'])")" = "(296, 33)" ]
else skip "Capsules: $SICONOS_DATA missing"; fi

# --graph: every contact a node, every edge once, with a colour
"$LCP" info --graph "$T/g.dot" problems/pyramid-5 >/dev/null
"$LCP" info --json problems/pyramid-5 >"$T/out"
edges=$(jget "$T/out" "d['graph']['edges']")
check "--graph: DOT header" grep -q '^graph contacts {' "$T/g.dot"
check "--graph: $edges edges" [ "$(grep -c -- ' -- ' "$T/g.dot")" -eq "$edges" ]
check "--graph: 100 nodes with a fill colour" [ "$(grep -c 'fillcolor' "$T/g.dot")" -eq 100 ]
"$LCP" -s pgs --graph "$T/g2.dot" --quiet problems/column-20
check "--graph while solving" [ "$(grep -c -- ' -- ' "$T/g2.dot")" -eq 19 ]
"$LCP" --graph /nonexistent/dir/g.dot problems/column-20 >/dev/null 2>"$T/err"; rc=$?
check "--graph into a missing folder: exit 2" [ $rc -eq 2 ]

# --order: every method solves, -j 2 = -j 1 bit for bit
for o in natural rcm amd nd colour dsatur; do
    for prob in problems/column-20 problems/pyramid-5 problems/random-spd-200; do
        for s in pgs sgs; do
            "$LCP" -s $s --order $o -j 1 -o "$T/x1.mtx" --json "$prob" >"$T/out"; rc=$?
            "$LCP" -s $s --order $o -j 2 -o "$T/x2.mtx" --quiet "$prob"
            check "$s --order $o $(basename $prob): solved" [ $rc -eq 0 ]
            check "$s --order $o $(basename $prob): -j 2 = -j 1" cmp -s "$T/x1.mtx" "$T/x2.mtx"
        done
    done
    "$LCP" -s nsgs --order $o -j 1 -o "$T/x1.mtx" --quiet problems/pyramid-5-fc3d; rc=$?
    "$LCP" -s nsgs --order $o -j 2 -o "$T/x2.mtx" --quiet problems/pyramid-5-fc3d
    check "nsgs --order $o: solved" [ $rc -eq 0 ]
    check "nsgs --order $o: -j 2 = -j 1" cmp -s "$T/x1.mtx" "$T/x2.mtx"
done
# an order changes the sweep: colour classes on the pyramid take a different number of sweeps
"$LCP" -s pgs --json problems/pyramid-5 >"$T/out"; it0=$(json_field iterations)
"$LCP" -s pgs --order colour --json problems/pyramid-5 >"$T/out"; it1=$(json_field iterations)
check "pgs --order colour sweeps differently ($it0 vs $it1)" [ "$it0" != "$it1" ]
"$LCP" -s pgs -j 2 --order colour --output-w "$T/w.mtx" -o "$T/x.mtx" --quiet problems/column-20
check "pgs --order colour: independent residual" indep problems/column-20/A.mtx problems/column-20/b.mtx "$T/x.mtx" --max 1e-8
[ -d "$SIC" ] || skip "nsgs --order dsatur on the Siconos fc3d files: $SIC absent (LCPSOLVE_DATA)"
for f in "$SIC"/*.dat "$SIC"/*.hdf5; do
    [ -f "$f" ] || continue
    # 300 sweeps are enough to compare bits (the colour barriers are slow on a busy machine)
    "$LCP" -s nsgs --order dsatur -t 1e-8 -n 300 -j 1 -o "$T/x1.mtx" --quiet "$f"
    "$LCP" -s nsgs --order dsatur -t 1e-8 -n 300 -j 2 -o "$T/x2.mtx" --quiet "$f"
    check "nsgs --order dsatur $(basename "$f"): -j 2 = -j 1" cmp -s "$T/x1.mtx" "$T/x2.mtx"
done

# --order natural|amd|nd reaches the sparse factorisations: same answers
"$LCP" -s ipm -t 1e-12 -o "$T/ref.mtx" --quiet problems/random-spd-200
for o in natural amd nd; do
    "$LCP" -s ipm --linsolve sparse --order $o -t 1e-10 --reference "$T/ref.mtx" --quiet problems/random-spd-200
    check "ipm --linsolve sparse --order $o: matches the default ordering" [ $? -eq 0 ]
    for s in nsn socp-ipm admm; do
        "$LCP" -s $s --order $o -t 1e-9 --kind ccp -o "$T/r.mtx" --quiet problems/pyramid-5-fc3d
        check "$s --order $o: solved" [ $? -eq 0 ]
    done
done
"$LCP" -s ipm --order rcm problems/random-spd-200 >/dev/null 2>"$T/err"; rc=$?
check "ipm --order rcm: exit 2 naming what it takes" sh -c "[ $rc -eq 2 ] && grep -q 'natural, amd or nd' '$T/err'"

# refusals
"$LCP" -s lemke --order rcm problems/column-20 >/dev/null 2>"$T/err"; rc=$?
check "lemke --order rcm: exit 2" [ $rc -eq 2 ]
check "lemke --order rcm: says who takes it" grep -q "does not take --order" "$T/err"
"$LCP" -s pgs --order sideways problems/column-20 >/dev/null 2>"$T/err"; rc=$?
check "--order sideways: exit 2, one line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$T/err') -eq 1 ]"
"$LCP" -s nsgs --order colour --shuffle problems/pyramid-5-fc3d >/dev/null 2>"$T/err"; rc=$?
check "nsgs --order with --shuffle: exit 2" [ $rc -eq 2 ]
finish
