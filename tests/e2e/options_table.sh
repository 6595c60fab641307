#!/bin/sh
# tests/e2e/options_table.sh: the one option table (src/core/options.c)
# behind --help, the man page, --config, batch and the library.  Every long
# option of `lcpsolve --help` has its entry in man/lcpsolve.1's OPTIONS
# section; every option of a solve is listed by `lcpsolve batch --help`
# (except --trace, refused there) and taken by --config with the command
# line's message for a bad value; an option of the command line's files is
# refused by batch.  Run from the repository root.
. tests/lib.sh
"$LCP" --help | sed -n '/^Options:/,/^$/p' | grep -o -- '--[a-z][a-z-]*' | sort -u >"$T/opts"
n=$(wc -l <"$T/opts")
check "--help lists the options ($n)" [ "$n" -ge 40 ]
sed -n '/^\.SH OPTIONS/,/^\.SH SOLVERS/p' man/lcpsolve.1 >"$T/man"
missing=""
while read -r o; do
    esc=$(printf '%s' "${o#--}" | sed 's/-/\\\\-/g')
    grep -q "fB\\\\-\\\\-$esc\\\\fR" "$T/man" || missing="$missing $o"
done <"$T/opts"
check "every option of --help is in the man page's OPTIONS (missing:${missing:- none})" [ -z "$missing" ]
"$LCP" batch --help >"$T/bhelp"
missing=""
for o in solver precond tol max-iter omega threads time-limit reg warm-factor dt-ratio cover linsolve cycle order \
         decompose local rho inner crash adaptive shuffle cone; do
    grep -q -- "--$o " "$T/bhelp" || grep -q -- "--$o\$" "$T/bhelp" || missing="$missing --$o"
done
check "batch --help lists every option of a solve (missing:${missing:- none})" [ -z "$missing" ]
check "batch --help does not offer --trace" sh -c "! grep -q -- '--trace' '$T/bhelp' || grep -q 'trace is refused' '$T/bhelp'"
# the same check and message for a bad value, from the command line, a --config file and batch
mkdir -p "$T/b" && cp -r problems/column-20 "$T/b/"
for kv in "tol -1" "max-iter x" "omega 2.5" "decompose maybe" "cone pyramid:2" "crash lemke" "inner pgs"; do
    set -- $kv
    "$LCP" --"$1" "$2" problems/column-20 >/dev/null 2>"$T/e1"; r1=$?
    printf '%s: "%s"\n' "$1" "$2" >"$T/c.yaml"
    "$LCP" --config "$T/c.yaml" problems/column-20 >/dev/null 2>"$T/e2"; r2=$?
    "$LCP" batch --"$1" "$2" "$T/b" >/dev/null 2>"$T/e3"; r3=$?
    m1=$(sed 's/^lcpsolve: //' "$T/e1"); m2=$(sed "s|^lcpsolve: $T/c.yaml:1: ||" "$T/e2"); m3=$(sed 's/^lcpsolve batch: //' "$T/e3")
    check "--$1 $2: exit 2 and one message on the command line, in --config, in batch ($m1)" \
        sh -c "[ $r1 -eq 2 ] && [ $r2 -eq 2 ] && [ $r3 -eq 2 ] && [ -n \"$m1\" ] && [ \"$m1\" = \"$m2\" ] && [ \"$m1\" = \"$m3\" ]"
done
"$LCP" batch --json "$T/b" >/dev/null 2>"$T/e"; rc=$?
"$LCP" batch --reference x.mtx "$T/b" >/dev/null 2>"$T/e"; rc=$?
check "batch refuses an option of one problem's files (--reference; exit $rc)" [ $rc -eq 2 ]
printf 'shuffle: false\n' >"$T/c.yaml"
"$LCP" -s nsgs --config "$T/c.yaml" problems/pyramid-5-fc3d --json >"$T/out" 2>/dev/null
a=$(json_field iterations)
"$LCP" -s nsgs problems/pyramid-5-fc3d --json >"$T/out" 2>/dev/null
b=$(json_field iterations)
"$LCP" -s nsgs --shuffle problems/pyramid-5-fc3d --json >"$T/out" 2>/dev/null
c=$(json_field iterations)
check "--config shuffle: false leaves the order as it is ($a = $b; --shuffle: $c)" [ "$a" = "$b" ]
finish
