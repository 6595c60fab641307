#!/bin/sh
# tests/e2e/contract.sh: docs/contract.md against the built binary: the
# kinds, the options it names, the --json fields, the statuses, the trace
# columns and the exit codes, so that the document and the code move
# together.
. tests/lib.sh
C=docs/contract.md
# the kinds of the problems table = the kinds the solvers take
kinds_doc=$(sed -n 's/^| `\([a-z0-9]*\)` |.*/\1/p' "$C" | sort -u | tr '\n' ' ')
kinds_bin=$("$LCP" --list-solvers | awk '{print $2}' | tr ',' '\n' | sort -u | tr '\n' ' ')
check "kinds: contract '$kinds_doc' = solvers' '$kinds_bin'" [ "$kinds_doc" = "$kinds_bin" ]
# every long option the contract names is an option of --help
"$LCP" --help >"$T/help" 2>&1
for o in $(grep -o -- '--[a-z][a-z-]*' "$C" | sort -u); do
    check "option $o in --help" grep -q -- "$o\b" "$T/help"
done
# the --json fields
"$LCP" -s pgs --json problems/column-20 >"$T/out"
for f in $(sed -n '/^Human summary/,/^`status`/p' "$C" | tr '\n' ' ' | sed 's/.*at least: *`\([^`]*\)`.*/\1/' | tr -d ','); do
    check "--json field $f" python3 -c "import json,sys; sys.exit('$f' not in json.load(open('$T/out')))"
done
# the statuses: the contract's list = the library's table (src/core/common.h)
st_doc=$(sed -n '/`status` is one of/,/^$/p' "$C" | grep -o '`[a-z_]*`' | tr -d '`' | grep -v '^status$\|^batch$\|^bench$\|adaptive' | sort -u | tr '\n' ' ')
st_src=$(sed -n 's/^ *X(LCP_[A-Z_]*, *"\([a-z_]*\)".*/\1/p' src/core/common.h | sort -u | tr '\n' ' ')
check "statuses: contract '$st_doc' = src/core/common.h '$st_src'" [ "$st_doc" = "$st_src" ]
# the exit codes: the contract's table = the library's, status by status
while read -r name code; do
    case $name in
    solved) want=0 ;; max_iter|time_limit|stalled) want=1 ;; input_error) want=2 ;;
    no_solution) want=3 ;; reference_mismatch) want=4 ;; error) want=5 ;; *) want=x ;;
    esac
    check "exit code of $name: $code" [ "$code" = "$want" ]
done <<EOT
$(sed -n 's/^ *X(LCP_[A-Z_]*, *"\([a-z_]*\)", *\([0-9]\),.*/\1 \2/p' src/core/common.h)
EOT
for code in 0 1 2 3 4 5; do
    check "exit code $code in the contract's table" grep -q "^| $code |" "$C"
done
# and as runs give them
"$LCP" -s pgs --quiet problems/column-20; check "exit 0: solved" [ $? -eq 0 ]
"$LCP" -s pgs -n 1 --quiet problems/column-20; check "exit 1: iteration limit" [ $? -eq 1 ]
"$LCP" -s pgs --quiet "$T/absent" 2>/dev/null; check "exit 2: input error" [ $? -eq 2 ]
echo '{"kind": "lcp", "A": [[-1]], "b": [-1]}' >"$T/none.json"
"$LCP" -s lemke --quiet "$T/none.json" 2>/dev/null; check "exit 3: no solution (w = -x - 1)" [ $? -eq 3 ]
printf '%%%%MatrixMarket matrix array real general\n20 1\n' >"$T/ref.mtx"
i=0; while [ $i -lt 20 ]; do echo 5 >>"$T/ref.mtx"; i=$((i + 1)); done
"$LCP" -s pgs --quiet --reference "$T/ref.mtx" problems/column-20 2>/dev/null
check "exit 4: differs from --reference" [ $? -eq 4 ]
# the trace's columns
"$LCP" -s pgs --quiet --trace "$T/t.csv" problems/column-20
cols=$(sed -n 's/.*header first: `\([^`]*\)`.*/\1/p' "$C")
check "trace header starts '$cols'" sh -c "head -n 1 '$T/t.csv' | grep -q '^$cols'"
check "trace row 0 is the start" sh -c "sed -n 2p '$T/t.csv' | grep -q '^0,'"
# --list-solvers names the options only some solvers read, on the lines of those that read them
lines=$("$LCP" --list-solvers)
check "--list-solvers: psor reads --omega, pgs does not; lemke reads --cover, pivot --crash, ipm --linsolve" sh -c "
    echo \"\$1\" | grep -q '^psor .*; reads.* --omega' && ! echo \"\$1\" | grep -q '^pgs .*--omega' &&
    echo \"\$1\" | grep -q '^lemke .*; reads.* --cover' && echo \"\$1\" | grep -q '^pivot .*; reads.* --crash' &&
    echo \"\$1\" | grep -q '^ipm .*; reads.* --linsolve'" sh "$lines"
finish
