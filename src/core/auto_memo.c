/* src/core/auto_memo.c: auto's last choice on this thread; see auto_memo.h. */
#include "auto_memo.h"
#include "per_thread.h"
#include "pipeline.h"
#include "../solvers/pivot_small.h"

#include <stdlib.h>
#include <string.h>

/* The scalars the choice depends on, besides the arrays below. */
typedef struct {
    int kind, n, nc, nmu, am, an, mm, mn, jm, jn;
    long annz, mnnz, jnnz;
    int has_lo, has_hi, has_findex, has_mu, has_v, has_e;
    double reg;
    size_t memory_limit, model_len;
} memo_head;

enum { PARTS = 13 }; /* A, M, J (3 each), lo, hi, findex, mu */
typedef struct {
    const void *ptr[PARTS];
    size_t bytes[PARTS];
    int value[PARTS]; /* values (A's, M's and J's entries, the bounds, mu), not the pattern */
} memo_parts;

typedef struct {
    memo_head head;
    unsigned char *data; /* the parts, one after the other, then the opening bits of b */
    size_t cap, used;    /* bytes */
    int valid;
    lcp_auto_choice ch;
} memo;

static void memo_cleanup(void *v)
{
    memo *m = v;
    free(m->data);
}

static memo *this_thread(int create) { return lcp_per_thread(LCP_PER_THREAD_AUTO_MEMO, sizeof(memo), memo_cleanup, create); }

/* p's scalars and arrays; the bytes of the arrays and of b's bits in all. */
static size_t describe(const lcp_problem *p, const char *model, memo_head *h, memo_parts *q)
{
    memset(h, 0, sizeof *h);
    memset(q, 0, sizeof *q);
    int n = p->n;
    h->kind = (int)p->kind, h->n = n, h->nc = p->nc, h->nmu = p->mu ? p->nmu : 0;
    h->am = p->A.m, h->an = p->A.n, h->annz = lcp_csr_nnz(&p->A);
    h->mm = p->M.m, h->mn = p->M.n, h->mnnz = lcp_csr_nnz(&p->M);
    h->jm = p->J.m, h->jn = p->J.n, h->jnnz = lcp_csr_nnz(&p->J);
    h->has_lo = p->lo != NULL, h->has_hi = p->hi != NULL, h->has_findex = p->findex != NULL;
    h->has_mu = p->mu != NULL, h->has_v = p->v != NULL, h->has_e = p->e != NULL;
    h->reg = p->reg;
    h->memory_limit = lcp_memory_limit;
    h->model_len = model ? strlen(model) + 1 : 0;
    const lcp_csr *mat[3] = {&p->A, &p->M, &p->J};
    int k = 0;
    for (int c = 0; c < 3; c++) {
        if (!mat[c]->p) continue;
        q->ptr[k] = mat[c]->p, q->bytes[k++] = (size_t)(mat[c]->m + 1) * sizeof(int);
        q->ptr[k] = mat[c]->j, q->bytes[k++] = (size_t)lcp_csr_nnz(mat[c]) * sizeof(int);
        q->value[k] = 1, q->ptr[k] = mat[c]->x, q->bytes[k++] = (size_t)lcp_csr_nnz(mat[c]) * sizeof(double);
    }
    if (p->lo) q->value[k] = 1, q->ptr[k] = p->lo, q->bytes[k++] = (size_t)n * sizeof(double);
    if (p->hi) q->value[k] = 1, q->ptr[k] = p->hi, q->bytes[k++] = (size_t)n * sizeof(double);
    if (p->findex) q->ptr[k] = p->findex, q->bytes[k++] = (size_t)n * sizeof(int);
    if (p->mu) q->value[k] = 1, q->ptr[k] = p->mu, q->bytes[k++] = (size_t)h->nmu * sizeof(double);
    size_t total = h->model_len + ((size_t)n + 7) / 8;
    for (int c = 0; c < PARTS; c++) total += q->bytes[c];
    return total;
}

/* the contacts that open: b's normal rows above 0 (the features' opening fraction), a bit each */
static int open_bit(const lcp_problem *p, int c)
{
    int block = p->kind & LCP_KIND_FRICTION ? 3 : 1;
    return p->b[(size_t)c * (size_t)block] > 0;
}

static int contacts(const lcp_problem *p) { return p->kind & LCP_KIND_FRICTION ? p->nc : p->n; }

int lcp_auto_memo_get(const lcp_problem *p, const char *model, lcp_auto_choice *ch)
{
    memo *m = this_thread(0);
    if (!m || !m->valid || !p->b) return 0;
    memo_head h;
    memo_parts q;
    if (describe(p, model, &h, &q) != m->used || memcmp(&h, &m->head, sizeof h)) return 0;
    const unsigned char *d = m->data;
    for (int c = 0; c < PARTS; d += q.bytes[c], c++)
        if (q.bytes[c] && memcmp(q.ptr[c], d, q.bytes[c])) return 0;
    if (h.model_len && memcmp(model, d, h.model_len)) return 0;
    d += h.model_len;
    for (int c = 0, nc = contacts(p); c < nc; c++)
        if (open_bit(p, c) != ((d[c / 8] >> (c % 8)) & 1)) return 0;
    *ch = m->ch;
    ch->time_s = 0; /* nothing computed */
    return 1;
}

void lcp_auto_memo_put(const lcp_problem *p, const char *model, const lcp_auto_choice *ch)
{
    if (!p->b) return;
    memo_head h;
    memo_parts q;
    size_t total = describe(p, model, &h, &q);
    if (total > LCP_AUTO_MEMO_BYTES) return;
    memo *m = this_thread(1);
    if (!m) return;
    m->valid = 0;
    if (m->cap < total) {
        unsigned char *d = realloc(m->data, total ? total : 1);
        if (!d) return;
        m->data = d;
        m->cap = total;
    }
    unsigned char *d = m->data;
    for (int c = 0; c < PARTS; d += q.bytes[c], c++)
        if (q.bytes[c]) memcpy(d, q.ptr[c], q.bytes[c]);
    if (h.model_len) memcpy(d, model, h.model_len);
    d += h.model_len;
    int nc = contacts(p);
    memset(d, 0, ((size_t)p->n + 7) / 8);
    for (int c = 0; c < nc; c++)
        if (open_bit(p, c)) d[c / 8] |= (unsigned char)(1u << (c % 8));
    m->head = h;
    m->used = total;
    m->ch = *ch;
    m->valid = 1;
}

void lcp_auto_memo_forget(void)
{
    memo *m = this_thread(0);
    if (m) m->valid = 0;
}

int lcp_auto_same_pattern(const lcp_problem *a, const lcp_problem *b)
{
    memo_head ha, hb;
    memo_parts qa, qb;
    if (describe(a, NULL, &ha, &qa) != describe(b, NULL, &hb, &qb) || memcmp(&ha, &hb, sizeof ha)) return 0;
    for (int c = 0; c < PARTS; c++)
        if (!qa.value[c] && qa.bytes[c] && qa.ptr[c] != qb.ptr[c] && memcmp(qa.ptr[c], qb.ptr[c], qa.bytes[c])) return 0;
    return 1;
}

void lcp_auto_share_begin(lcp_auto_share *sh, int n)
{
    memset(sh, 0, sizeof *sh);
    sh->firsts = malloc((size_t)(n > 0 ? n : 1) * sizeof *sh->firsts);
    sh->lead = malloc((size_t)(n > 0 ? n : 1) * sizeof *sh->lead);
    sh->made = calloc((size_t)(n > 0 ? n : 1), sizeof *sh->made);
    sh->n = n;
    if (!sh->firsts || !sh->lead || !sh->made) lcp_auto_share_free(sh); /* short of memory: nothing shared */
}

void lcp_auto_share_add(lcp_auto_share *sh, const lcp_problem *const *p, int k, const lcp_solve_opts *o)
{
    if (!sh->lead || k < 0 || k >= sh->n) return;
    sh->lead[k] = k;
    if (o && p[k] && p[k]->n <= LCP_TINY_N && lcp_pipeline_small_first(p[k], o, NULL, 0)) return; /* alone */
    for (int f = 0; p[k] && f < sh->nf; f++)
        if (lcp_auto_same_pattern(p[sh->firsts[f]], p[k])) {
            sh->lead[k] = sh->firsts[f];
            return;
        }
    if (p[k]) sh->firsts[sh->nf++] = k;
    if (!(sh->made[k] = calloc(1, sizeof **sh->made))) lcp_auto_share_free(sh); /* short of memory: nothing shared */
}

void lcp_auto_share_init(lcp_auto_share *sh, const lcp_problem *const *p, int n, const lcp_solve_opts *o)
{
    lcp_auto_share_begin(sh, n);
    for (int k = 0; k < n; k++) lcp_auto_share_add(sh, p, k, o);
}

lcp_auto_choice *lcp_auto_share_made(const lcp_auto_share *sh, int k)
{
    return k >= 0 && k < sh->n ? sh->made[k] : NULL;
}

const lcp_auto_choice *lcp_auto_share_given(const lcp_auto_share *sh, int k)
{
    if (!(k >= 0 && k < sh->n) || sh->lead[k] == k) return NULL;
    const lcp_auto_choice *c = sh->made[sh->lead[k]];
    return c && c->solver ? c : NULL;
}

void lcp_auto_share_free(lcp_auto_share *sh)
{
    free(sh->firsts);
    for (int k = 0; sh->made && k < sh->n; k++) free(sh->made[k]);
    free(sh->made);
    free(sh->lead);
    memset(sh, 0, sizeof *sh);
}
