/* src/core/auto_memo.h: auto's last choice on this thread, kept with what it
 * was computed from.
 *
 * Auto's choice (src/core/auto.c) is a function of the model and of what
 * the features and the candidates' checks read: the kind, A, the bounds,
 * findex, mu, the factored form, and which contacts open (the sign of b's
 * normal rows) -- not of b's values.  A solve whose problem agrees with the
 * last one chosen for on this thread in all of these (compared entry by
 * entry, not by a hash) takes that choice again without computing the
 * features and the neighbours: the same choice, bit for bit, as computing
 * it would give.  The case it serves: the same contacts solved again with
 * another b (a time step with persistent contacts, a loop over right-hand
 * sides, a benchmark's repeated solve).  Problems whose arrays exceed
 * LCP_AUTO_MEMO_BYTES are not kept (their choice costs little beside their
 * solve); the memory is the thread's and is freed when the thread ends.
 * The same description of a problem tells which problems of a batch share
 * one pattern, and so one choice (lcp_auto_same_pattern). */
#ifndef LCPSOLVE_AUTO_MEMO_H
#define LCPSOLVE_AUTO_MEMO_H

#include "auto.h"

#define LCP_AUTO_MEMO_BYTES ((size_t)4 << 20)

/* 1 and ch filled where p (with the model named model, NULL the built-in)
 * is the problem of the choice kept on this thread; 0 otherwise. */
int lcp_auto_memo_get(const lcp_problem *p, const char *model, lcp_auto_choice *ch);
/* Keeps ch as the choice for p and model on this thread (nothing where p is
 * too large or memory is short). */
void lcp_auto_memo_put(const lcp_problem *p, const char *model, const lcp_auto_choice *ch);

/* 1 where a and b have one pattern -- the kind, the sizes, the sparsity
 * patterns of A (M, J), findex, which of the bounds, mu and the factored
 * form they have -- whatever their values and b: the environments of a
 * batch that share auto's choice (lcp_solve_opts.auto_given). */
int lcp_auto_same_pattern(const lcp_problem *a, const lcp_problem *b);
/* A batch's shared choices (lcp_solve_opts.auto_given): the first problem
 * of each pattern leads -- solved before the others, its choice kept
 * (auto_made) -- and the other problems of the pattern take that choice.
 * Nothing is shared where memory is short (every problem chooses), nor for
 * a problem of up to LCP_TINY_N unknowns that a solve with o (NULL: none
 * such) begins by pivot's small path: its own solve makes no choice (the
 * small path, then for an lcp lemke), so it leads itself and keeps none. */
typedef struct {
    int n, *lead;           /* lead[k]: the first problem of k's pattern */
    lcp_auto_choice **made; /* a leader's choice, kept by its solve; NULL for the others */
    int nf, *firsts;        /* (lcp_auto_share_add's: the patterns seen, by their first problem) */
} lcp_auto_share;
/* p[0..n) (a NULL problem leads itself) */
struct lcp_solve_opts;
void lcp_auto_share_init(lcp_auto_share *sh, const lcp_problem *const *p, int n, const struct lcp_solve_opts *o);
/* The same, a problem at a time: lcp_auto_share_begin for n problems, then
 * lcp_auto_share_add for k = 0, 1, ... n - 1 in turn, each once p[k] is
 * set (p[0..k]: the problems so far), e.g. as each is read, while its
 * arrays are still in the cache (a second pass over thousands of small
 * problems read long before is bound by cache misses). */
void lcp_auto_share_begin(lcp_auto_share *sh, int n);
void lcp_auto_share_add(lcp_auto_share *sh, const lcp_problem *const *p, int k, const struct lcp_solve_opts *o);
/* Where problem k's own choice goes: k leads its pattern (NULL otherwise). */
lcp_auto_choice *lcp_auto_share_made(const lcp_auto_share *sh, int k);
/* The choice problem k takes: its leader's, where the leader's solve made one (NULL: its own). */
const lcp_auto_choice *lcp_auto_share_given(const lcp_auto_share *sh, int k);
void lcp_auto_share_free(lcp_auto_share *sh);

/* Drops this thread's kept choice (tune's validation: every run of auto
 * chooses afresh, as on a problem never seen). */
void lcp_auto_memo_forget(void);

#endif
