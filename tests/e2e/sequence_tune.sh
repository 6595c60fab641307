#!/bin/sh
# tests/e2e/sequence_tune.sh: `lcpsolve sequence --tune` (src/cli/sequence.c):
# each step's configuration and iteration budget chosen by a bandit with the
# reward -alpha time_s - beta residual (the reward arm pgs-reward stops at
# its break-even sweep).  The summary's mean reward is that of
# its own means; every step names its action; a reward of the residual alone
# (alpha 0) ends on answers at the tolerance, one of the time alone (beta 0)
# on the cheapest actions (5 sweeps or auto; in one of two runs: the times
# are measured); --tune/--alpha/--beta outside a sequence and bad values:
# exit 2.  The thread's CPU clock (LCPSOLVE_CLOCK=thread): the times the
# bandit learns from depend less on the machine's load.
# Run from the repository root: sh tests/e2e/sequence_tune.sh.
. tests/lib.sh
export LCPSOLVE_CLOCK=thread OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
"$LCP" generate sequence --scene granular --base 4 --layers 3 --steps 30 -o "$T/seq" >/dev/null 2>&1

"$LCP" sequence "$T/seq" --tune --json >"$T/out" 2>"$T/err"; rc=$?
python3 - "$T/out" >"$T/res" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
steps, summ = rows[:-1], rows[-1]
arms = {"pgs-5", "pgs-20", "pgs-50", "pgs-200", "pgs-reward", "lemke", "auto"}
acts = [s.get("action") for s in steps]
ok = (summ.get("tune") is True and len(steps) == 30 and all(a in arms for a in acts)
      and sum(summ["actions"].values()) == 30
      and all(summ["actions"][a] == acts.count(a) for a in summ["actions"]))
want = -summ["alpha"] * summ["mean_ms"] / 1000 - summ["beta"] * summ["mean_residual"]
ok = ok and abs(summ["mean_reward"] - want) <= 2e-5 * max(1e-9, abs(want)) + 1e-12  # the summary prints 6 digits
print("reward %.4g (from the means %.4g), actions %s" % (summ["mean_reward"], want, summ["actions"]))
sys.exit(0 if ok else 1)
PY
r=$?
check "--tune --json: exit 0 ($rc), an action a step, the reward of the means ($(cat "$T/res"))" [ $rc -eq 0 -a $r -eq 0 ]

# the reward arm stops at its break-even sweep (status stalled) or at the tolerance, never at a budget
# (lcp_breakeven_step itself: tests/unit/test_sweep.c)
python3 - "$T/out" >"$T/res" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][:-1]
rw = [s for s in rows if s.get("action") == "pgs-reward"]
print(len(rw), sorted(set(s["status"] for s in rw)), max([s["iterations"] for s in rw] or [0]))
# (the arm may also be scored without a step of its own, from pgs-200's checks: then no step to look at)
sys.exit(0 if all(s["status"] in ("stalled", "solved") and s["iterations"] < 1000 for s in rw) else 1)
PY
check "pgs-reward steps end at the break-even sweep or solved (count, statuses, most sweeps: $(cat "$T/res"))" [ $? -eq 0 ]

"$LCP" sequence "$T/seq" --tune --alpha 0 --beta 1 --json >"$T/out" 2>/dev/null
python3 - "$T/out" >"$T/res" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][:-1]
last = rows[-5:]
print(", ".join("%s %.1e" % (s["action"], s["residual"]) for s in last))
sys.exit(0 if all(s["residual"] <= 1e-8 for s in last) else 1)
PY
check "alpha 0 (the residual alone): the last 5 steps at the tolerance ($(cat "$T/res"))" [ $? -eq 0 ]

# the times the bandit learns from are measured: on a loaded machine (CI runs the sanitizer tier beside
# this) a step's time can come out several times too long; the greedy bandit runs only the arm it rates
# best in a state, and its means weigh the latest rewards (a dearer arm held is rated by its late, dear
# steps, not by its early cheap ones), but the times stay measured: one of two runs must settle
for try in 1 2; do
    "$LCP" sequence "$T/seq" --tune --alpha 1 --beta 0 --json >"$T/out" 2>/dev/null
    python3 - "$T/out" >"$T/res$try" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][:-1]
last = [s["action"] for s in rows[-10:]]
print(", ".join(last))
# the cheapest actions: 5 sweeps, or auto, whose choice on these small steps costs about as much
sys.exit(0 if all(a in ("pgs-5", "auto") for a in last[-3:]) else 1)
PY
    r=$?
    [ $r -eq 0 ] && break
done
check "beta 0 (the time alone): the last 3 steps on 5 sweeps or auto, no larger budget, in one of two runs (the last 10: $(cat "$T/res1"); $(cat "$T/res2" 2>/dev/null))" [ $r -eq 0 ]

"$LCP" sequence "$T/seq" --tune >"$T/out" 2>&1; rc=$?
check "--tune, text: a tune line with the reward and the actions (exit $rc)" sh -c "[ $rc -eq 0 ] && grep -q '^tune: mean reward .* (alpha 1, beta 1); actions ' '$T/out'"
"$LCP" --tune problems/column-20 >"$T/out" 2>"$T/err"; rc=$?
check "--tune outside a sequence: exit 2 ($rc)" sh -c "[ $rc -eq 2 ] && grep -q 'apply to lcpsolve sequence' '$T/err'"
"$LCP" sequence "$T/seq" --tune --alpha x >"$T/out" 2>"$T/err"; rc=$?
check "--alpha x: exit 2 ($rc), one line" sh -c "[ $rc -eq 2 ] && grep -q \"alpha: 'x' is not a non-negative number\" '$T/err'"
finish
