/* src/solvers/nsn.c: global nonsmooth Newton on the Alart-Curnier function,
 * for ccp and fc3d (Alart & Curnier 1991, "A mixed formulation for frictional
 * contact problems prone to Newton like solution methods"; Christensen,
 * Klarbring, Pang & Stromberg 1998; Siconos'
 * fc3d_nonsmooth_Newton_AlartCurnier).
 *
 * With u = W r + q, per contact i (rows 3i = normal, 3i+1, 3i+2 = tangents):
 *     x_n   = r_n - rho_n nu,            nu = u_n (fc3d), u_n - mu |u_T| (ccp)
 *     Phi_n = r_n - max(0, x_n)
 *     Phi_T = r_T - P_B(mu max(0, x_n)) (r_T - rho_T u_T)
 * (P_B(R): the projection onto the disc of radius R).  Phi(r) = 0 is
 * Coulomb's law, i.e. the fc3d problem with De Saxce's term (r in K,
 * u + mu |u_T| e_n in K^*, perpendicular); the ccp in u is the fc3d in
 * u - mu |u_T| e_n (same u_T), hence its nu.  rho_n = 1 / W_nn, rho_T =
 * 2 / (W_t1t1 + W_t2t2) per contact (1 / the mean positive diagonal where
 * a diagonal entry is not positive).
 *
 * A Newton step solves H d = -Phi with H = A + C W an element of the
 * generalised Jacobian: A = dPhi/dr and C = dPhi/dv dv/du (v = (nu, u_T))
 * are 3x3 blocks per contact, so block row i of H is A_i on the diagonal
 * block plus C_i times rows 3i..3i+2 of W: its pattern is the union of
 * those rows' patterns and the diagonal block, the same at every step.  H
 * is assembled in CSR (= H' in CSC, solved with UMFPACK_At as in
 * src/solvers/newton.c); UMFPACK's symbolic analysis is done once, the
 * numeric LU each step (UMFPACK allocates that factor itself; both through
 * src/la/sparse_factor.c, without iterative refinement).
 *
 * Globalisation: Armijo backtracking (sigma 1e-4, factor 1/2, down to
 * 1e-12) on the merit psi = |Phi|^2 / 2, whose slope along d is Phi'H d
 * (= -2 psi for the exact Newton direction), non-monotone: the test is
 * against the largest merit of the last NONMONOTONE iterates (Grippo,
 * Lampariello and Lucidi 1986; as newton-fb's).  Where contacts cross the
 * cone's surface and the normal's kink a full step may raise |Phi| for a
 * step or two: with the monotone test nsn took 89-201 steps of 1/16 and
 * less on pyramids and towers with A + 1e-3 I, 16-30 with this one.  H is regularised as in
 * Levenberg-Marquardt, H + delta I with delta >= 0.1 |Phi| / max(|r|,
 * |rho q|) (-> 0 at a solution: the local convergence stays superlinear):
 * on the rank-deficient W of stacks and towers H is singular where contacts
 * stick, and plain Newton crawls (Siconos' nsn-ac takes 379 steps on
 * KaplasTower, fails on BoxesStack1 and generated pyramids).  When H + delta I
 * is singular (UMFPACK says so, d is not finite or no descent direction),
 * the line search fails or only a step below 1/64 passes, delta is raised
 * (x100, from 1e-10, up to 1e-2) and the best point of these tries is taken
 * (its delta / 10 is where the next step starts, when the first delta gave
 * no step at all); then the steepest-descent direction -H'Phi with the
 * Cauchy step is tried.  When that fails too the solve stops: status error
 * "line search failed" (or, if the residual is already below 1.5e-8 =
 * sqrt(eps), the monitor's status: a rounding floor), after the hybrid
 * restarts left (below).  It also stops as
 * error when psi gains less than a relative 1e-6 over 100 steps (a crawl),
 * and with the monitor's status when, below a residual of 1.5e-8, psi does
 * not halve in 10 steps (rounding: a tolerance below what the data allow).
 *
 * A hybrid start where the steps crawl far from a solution: admm's answer
 * to 1e-3, and the Newton steps from it (hybrid_start below); hybrid
 * restarts (admm from the iterate, to 1/100 of its residual) where they
 * stall nearer one -- at a stationary point of the merit that is no
 * solution, or cycling.  Piece locking where they cycle near one: contacts
 * that keep changing between stick and slip (or on and off) are held to
 * one piece for a few steps (piece_lock below).  A second start from the
 * start with another rho (one a contact, from its diagonal block of W)
 * where the steps still fail (second_start below).
 *
 * One iteration = one Newton step.  Trace columns: merit (psi after the
 * step) and step (the accepted t).  The step is exported through nsn.h for
 * the proximal-point solver prox (src/solvers/prox.c), which runs it on the
 * regularised problem u = (W + sigma I) r + q - sigma r_k.
 */
#include "nsn.h"
#include "../la/sparse_factor.h"
#include "../la/spectral.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARMIJO_SIGMA 1e-4
#define ARMIJO_BETA 0.5
#define MIN_STEP 1e-12
#define REG_START 1e-10 /* first regularisation delta */
#define REG_MAX 1e-2    /* largest delta tried */
#define REG_FACTOR 10.0 /* delta / 10 after a step */
#define REG_JUMP 100.0  /* delta x 100 a retry */
#define SHORT_STEP 0.015625 /* a step below 1/64: retry with a larger delta */
#define LM_FACTOR 0.1  /* delta >= LM_FACTOR |Phi| / max(|r|, |rho q|) */
#define CRAWL_STEPS 100
#define NONMONOTONE 5 /* the line search's reference: the largest merit of this many last iterates */
#define CRAWL_REL 1e-6
#define ROUNDING_RESIDUAL 1.5e-8
#define ROUNDING_STEPS 10 /* below it: stop when psi does not halve in this many steps */

struct nsn_work {
    const lcp_problem *p;
    int n, nc, desaxce;
    double sigma, delta;
    const double *rk;
    double *diag;            /* n: diagonal of W */
    double *rho;             /* 2 nc: rho_n, rho_T */
    double *lam;             /* nc: the largest eigenvalue of each contact's diagonal block of W (NULL: rho by rows) */
    int *Hp, *Hj, *wpos, *bdiag; /* H's pattern; W entry k -> offset in its block row; diagonal block offset */
    double *Hx;
    double *Ab, *Cb;         /* 9 nc each: the A_i and C_i blocks at the current r */
    unsigned char *lock;     /* nc: 0, or 1 + the piece a contact's Phi is held to (piece locking) */
    double *u, *phi, *d, *wd, *hd, *g, *rt, *ut, *phit, *rhs, *rb, *ub, *phib;
    double psi;
    double ref;              /* the line search's reference merit (>= psi; nsn_set_reference) */
    lcp_sparse_factor lu;    /* UMFPACK on H's pattern, no iterative refinement */
};

/* The pieces of Phi: bit 0 the normal's (x_n > 0: on), bit 1 the
 * tangent's (|y| <= R: inside the disc). */
#define PIECE_ON 1
#define PIECE_INSIDE 2

/* Phi of one contact at (r, u) and, when A != NULL, the blocks A = dPhi/dr
 * and C = dPhi/du (both 3x3 row-major); lock: 0, or 1 + the piece whose
 * formula is taken whatever (r, u) say (its smooth extension).  Returns the
 * piece (r, u) lie in. */
static int contact_ac(int desaxce, double mu, double rn_rho, double rt_rho, const double *r, const double *u,
                      int lock, double *F, double *A, double *C)
{
    double ut = lcp_norm2(u[1], u[2]);
    double kap = desaxce ? 0.0 : mu;                         /* ccp: nu = u_n - mu |u_T| */
    double nu = u[0] - kap * ut;
    double xn = r[0] - rn_rho * nu;
    double y0 = r[1] - rt_rho * u[1], y1 = r[2] - rt_rho * u[2], ny = lcp_norm2(y0, y1);
    int piece = (xn > 0 ? PIECE_ON : 0) | (ny <= (xn > 0 ? mu * xn : 0.0) ? PIECE_INSIDE : 0);
    int use = lock ? lock - 1 : piece;
    int on = use & PIECE_ON;
    double R = on ? mu * xn : 0.0;
    int inside = (use & PIECE_INSIDE) || ny == 0;
    F[0] = r[0] - (on ? xn : 0.0);
    if (inside) {
        F[1] = r[1] - y0;
        F[2] = r[2] - y1;
    } else {
        F[1] = r[1] - R * y0 / ny;
        F[2] = r[2] - R * y1 / ny;
    }
    if (!A) return piece;
    double B[9] = {0};                                       /* dPhi / dv, v = (nu, u_T) */
    memset(A, 0, 9 * sizeof(double));
    A[0] = on ? 0.0 : 1.0;
    B[0] = on ? rn_rho : 0.0;
    if (inside) {                                            /* Phi_T = rho_T u_T */
        B[4] = B[8] = rt_rho;
    } else {                                                 /* d(R y/|y|) = t dR + R/|y| (I - t t') dy */
        double t[2] = {y0 / ny, y1 / ny}, s = R / ny;
        for (int a = 0; a < 2; a++) {
            A[3 * (a + 1)] = on ? -t[a] * mu : 0.0;          /* dR/dr_n = mu */
            B[3 * (a + 1)] = on ? t[a] * mu * rn_rho : 0.0;  /* dR/dnu = -mu rho_n */
            for (int b = 0; b < 2; b++) {
                double P = s * ((a == b) - t[a] * t[b]);
                A[3 * (a + 1) + b + 1] = (a == b) - P;       /* dy/dr_T = I */
                B[3 * (a + 1) + b + 1] = rt_rho * P;         /* dy/du_T = -rho_T I */
            }
        }
    }
    double g1 = 0.0, g2 = 0.0;                               /* dnu/du = (1, g1, g2) */
    if (kap > 0 && ut > 0) g1 = -kap * u[1] / ut, g2 = -kap * u[2] / ut;
    for (int a = 0; a < 3; a++) {                            /* C = B dv/du */
        C[3 * a] = B[3 * a];
        C[3 * a + 1] = B[3 * a + 1] + B[3 * a] * g1;
        C[3 * a + 2] = B[3 * a + 2] + B[3 * a] * g2;
    }
    return piece;
}

/* phi (and the blocks when jac) at (r, u); returns psi. */
static double eval_phi(nsn_work *w, const double *r, const double *u, double *phi, int jac)
{
    const lcp_problem *p = w->p;
    double s = 0.0;
    for (int i = 0; i < w->nc; i++) {
        double *F = phi + 3 * i;
        contact_ac(w->desaxce, p->mu[i], w->rho[2 * i], w->rho[2 * i + 1], r + 3 * i, u + 3 * i, w->lock[i], F,
                   jac ? w->Ab + 9 * i : NULL, jac ? w->Cb + 9 * i : NULL);
        s += F[0] * F[0] + F[1] * F[1] + F[2] * F[2];
    }
    return 0.5 * s;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

void nsn_work_free(nsn_work *w)
{
    if (!w) return;
    lcp_sparse_factor_free(&w->lu);
    double *dv[] = {w->diag, w->rho, w->lam, w->Hx, w->Ab, w->Cb, w->u, w->phi, w->d, w->wd, w->hd,
                    w->g, w->rt, w->ut, w->phit, w->rhs, w->rb, w->ub, w->phib};
    for (size_t i = 0; i < sizeof dv / sizeof dv[0]; i++) free(dv[i]);
    free(w->Hp);
    free(w->Hj);
    free(w->wpos);
    free(w->bdiag);
    free(w->lock);
    free(w);
}

int nsn_work_new(const lcp_problem *p, nsn_work **out, lcp_err *err)
{
    *out = NULL;
    nsn_work *w = calloc(1, sizeof *w);
    if (!w) return lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory");
    const lcp_csr *W = &p->A;
    int n = p->n, nc = p->nc;
    w->p = p;
    w->n = n;
    w->nc = nc;
    w->desaxce = p->kind == LCP_KIND_FC3D;
    long wnnz = lcp_csr_nnz(W);
    w->diag = lcp_alloc((size_t)n, sizeof(double));
    w->rho = lcp_alloc(2 * (size_t)nc, sizeof(double));
    w->Hp = lcp_alloc((size_t)n + 1, sizeof(int));
    w->wpos = lcp_alloc((size_t)wnnz + 1, sizeof(int));
    w->bdiag = lcp_alloc((size_t)nc + 1, sizeof(int));
    w->Ab = lcp_alloc(9 * (size_t)nc, sizeof(double));
    w->Cb = lcp_alloc(9 * (size_t)nc, sizeof(double));
    w->lock = lcp_calloc((size_t)nc + 1, 1);
    double **vecs[] = {&w->u, &w->phi, &w->d, &w->wd, &w->hd, &w->g, &w->rt, &w->ut, &w->phit, &w->rhs,
                       &w->rb, &w->ub, &w->phib};
    int okv = 1;
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++) okv &= (*vecs[i] = lcp_alloc((size_t)n, sizeof(double))) != NULL;
    int *mark = lcp_alloc((size_t)n, sizeof(int)), *cols = lcp_alloc((size_t)n, sizeof(int));
    int *pos = lcp_alloc((size_t)n, sizeof(int));
    int rc = 0;
    if (!okv || !w->diag || !w->rho || !w->Hp || !w->wpos || !w->bdiag || !w->Ab || !w->Cb || !w->lock ||
        !mark || !cols || !pos) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory (%d contacts)", nc);
        goto done;
    }
    for (int i = 0; i < n; i++) w->diag[i] = lcp_csr_diag(W, i), mark[i] = -1;
    /* pass 1: the block rows' lengths */
    long hnnz = 0;
    w->Hp[0] = 0;
    for (int i = 0; i < nc; i++) {
        int len = 0;
        for (int c = 3 * i; c < 3 * i + 3; c++) mark[c] = i, len++;
        for (int b = 0; b < 3; b++)
            for (int k = W->p[3 * i + b]; k < W->p[3 * i + b + 1]; k++)
                if (mark[W->j[k]] != i) mark[W->j[k]] = i, len++;
        for (int a = 0; a < 3; a++) w->Hp[3 * i + a + 1] = w->Hp[3 * i + a] + len;
        hnnz += 3L * len;
        if (hnnz > 2000000000L) {
            rc = lcp_fail(err, LCP_ERROR, NULL, 0, "the Newton matrix is too large (%ld entries)", hnnz);
            goto done;
        }
    }
    w->Hj = lcp_alloc((size_t)hnnz + 1, sizeof(int));
    w->Hx = lcp_alloc((size_t)hnnz + 1, sizeof(double));
    if (!w->Hj || !w->Hx) {
        rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory (Newton matrix, %ld entries)", hnnz);
        goto done;
    }
    /* pass 2: sorted columns of each block row, copied to its 3 rows */
    for (int i = 0; i < n; i++) mark[i] = -1;
    for (int i = 0; i < nc; i++) {
        int len = 0;
        for (int c = 3 * i; c < 3 * i + 3; c++) mark[c] = i, cols[len++] = c;
        for (int b = 0; b < 3; b++)
            for (int k = W->p[3 * i + b]; k < W->p[3 * i + b + 1]; k++)
                if (mark[W->j[k]] != i) mark[W->j[k]] = i, cols[len++] = W->j[k];
        qsort(cols, (size_t)len, sizeof(int), cmp_int);
        for (int o = 0; o < len; o++) pos[cols[o]] = o;
        w->bdiag[i] = pos[3 * i];
        for (int a = 0; a < 3; a++) memcpy(w->Hj + w->Hp[3 * i + a], cols, (size_t)len * sizeof(int));
        for (int b = 0; b < 3; b++)
            for (int k = W->p[3 * i + b]; k < W->p[3 * i + b + 1]; k++) w->wpos[k] = pos[W->j[k]];
    }
    /* a Newton direction needs no iterative refinement */
    int st = lcp_sparse_factor_init(&w->lu, n, w->Hp, w->Hj, w->Hx, 0, 0);
    if (st != LCP_SF_OK) {
        if (!w->lu.stage) rc = lcp_fail(err, LCP_ERROR, NULL, 0, "out of memory (%d contacts)", nc);
        else
            rc = lcp_fail(err, LCP_ERROR, NULL, 0,
                          "UMFPACK symbolic analysis of the Newton matrix failed (status %d%s)", w->lu.status,
                          st == LCP_SF_NOMEM ? ": out of memory" : "");
        goto done;
    }
    nsn_set_prox(w, 0.0, NULL);
done:
    free(mark);
    free(cols);
    free(pos);
    if (rc) nsn_work_free(w);
    else *out = w;
    return rc;
}

void nsn_set_prox(nsn_work *w, double sigma, const double *rk)
{
    w->sigma = sigma;
    w->rk = rk;
    double sum = 0.0;
    int cnt = 0;
    for (int i = 0; i < w->n; i++)
        if (w->diag[i] + sigma > 0) sum += w->diag[i] + sigma, cnt++;
    double fb = cnt ? cnt / sum : 1.0;                        /* 1 / mean positive diagonal */
    for (int i = 0; i < w->nc; i++) {
        double dn = w->diag[3 * i] + sigma, dt = w->diag[3 * i + 1] + w->diag[3 * i + 2] + 2 * sigma;
        w->rho[2 * i] = dn > 0 ? 1.0 / dn : fb;
        w->rho[2 * i + 1] = dt > 0 && w->diag[3 * i + 1] + sigma > 0 && w->diag[3 * i + 2] + sigma > 0 ? 2.0 / dt : fb;
        if (w->lam) /* by blocks (nsn_rho_by_blocks): one rho a contact */
            w->rho[2 * i] = w->rho[2 * i + 1] = w->lam[i] + sigma > 0 ? 1.0 / (w->lam[i] + sigma) : fb;
    }
}

/* rho by contact blocks from now on (Siconos' rho strategy "spectral
 * norm"): rho_n = rho_T = 1 / the largest eigenvalue of the symmetric part
 * of the contact's diagonal block of W + sigma I, in place of 1 / W_nn and
 * 2 / (W_t1t1 + W_t2t2).  The roots of Phi are the same, the Newton path
 * another.  Call nsn_eval afterwards.  Returns 0, 1 when out of memory
 * (rho unchanged). */
static int nsn_rho_by_blocks(nsn_work *w)
{
    if (!w->lam && !(w->lam = lcp_alloc((size_t)w->nc + 1, sizeof(double)))) return 1;
    for (int i = 0; i < w->nc; i++) { /* of the symmetric part of W_ii (lcp_sym3_lmax reads its upper triangle) */
        double B[9];
        lcp_csr_block3(&w->p->A, i, B);
        B[1] = 0.5 * (B[1] + B[3]), B[2] = 0.5 * (B[2] + B[6]), B[5] = 0.5 * (B[5] + B[7]);
        w->lam[i] = lcp_sym3_lmax(B);
    }
    nsn_set_prox(w, w->sigma, w->rk);
    return 0;
}

/* u = W r + q + sigma (r - rk) */
static void compute_u(const nsn_work *w, const double *r, double *u)
{
    const lcp_problem *p = w->p;
    lcp_csr_matvec(&p->A, r, u);
    for (int i = 0; i < w->n; i++) u[i] += p->b[i];
    if (w->sigma > 0)
        for (int i = 0; i < w->n; i++) u[i] += w->sigma * (r[i] - w->rk[i]);
}

double nsn_eval(nsn_work *w, const double *r)
{
    compute_u(w, r, w->u);
    w->psi = eval_phi(w, r, w->u, w->phi, 0);
    return w->psi;
}

double nsn_merit(const nsn_work *w) { return w->psi; }

void nsn_set_reference(nsn_work *w, double ref) { w->ref = ref; }

double nsn_residual(const nsn_work *w, const double *r)
{
    const lcp_problem *p = w->p;
    double e = 0.0, nq = 0.0, nr = 0.0, nu = 0.0;
    for (int i = 0; i < w->n; i++) {
        double q = p->b[i] - (w->sigma > 0 ? w->sigma * w->rk[i] : 0.0);
        nq += q * q;
        nr += r[i] * r[i];
        nu += w->u[i] * w->u[i];
    }
    for (int i = 0; i < w->nc; i++) e += lcp_contact_residual2(p->mu[i], w->desaxce, r + 3 * i, w->u + 3 * i);
    double s = sqrt(fmax(nq, fmax(nr, nu)));
    return s > 0 ? sqrt(e) / s : sqrt(e);
}

/* H = A + C (W + sigma I) + delta I at the blocks of the last eval_phi(jac). */
static void assemble(nsn_work *w, double delta)
{
    const lcp_csr *W = &w->p->A;
    for (int i = 0; i < w->nc; i++) {
        int base = w->Hp[3 * i], len = w->Hp[3 * i + 1] - base;
        double *h = w->Hx + base;
        const double *A = w->Ab + 9 * i, *C = w->Cb + 9 * i;
        memset(h, 0, 3 * (size_t)len * sizeof(double));
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                h[a * len + w->bdiag[i] + b] = A[3 * a + b] + w->sigma * C[3 * a + b] + (a == b ? delta : 0.0);
        for (int b = 0; b < 3; b++)
            for (int k = W->p[3 * i + b]; k < W->p[3 * i + b + 1]; k++) {
                double v = W->x[k];
                int o = w->wpos[k];
                h[o] += C[b] * v;
                h[len + o] += C[3 + b] * v;
                h[2 * len + o] += C[6 + b] * v;
            }
    }
}

/* y = (H - delta I) x, H as assembled */
static void h_matvec(const nsn_work *w, double delta, const double *x, double *y)
{
    for (int i = 0; i < w->n; i++) {
        double s = -delta * x[i];
        for (int k = w->Hp[i]; k < w->Hp[i + 1]; k++) s += w->Hx[k] * x[w->Hj[k]];
        y[i] = s;
    }
}

/* y = (H - delta I)' x */
static void h_tmatvec(const nsn_work *w, double delta, const double *x, double *y)
{
    for (int i = 0; i < w->n; i++) y[i] = -delta * x[i];
    for (int i = 0; i < w->n; i++)
        for (int k = w->Hp[i]; k < w->Hp[i + 1]; k++) y[w->Hj[k]] += w->Hx[k] * x[i];
}

/* the LU of H as assembled: 0, 1 when singular, LCP_ERROR */
static int lu_factor(nsn_work *w, lcp_err *err)
{
    int st = lcp_sparse_factor_refactor(&w->lu, w->Hx, LCP_SF_LU);
    if (st == LCP_SF_SINGULAR) return 1;
    return st == LCP_SF_OK ? 0 : lcp_sparse_factor_fail(&w->lu, err, "");
}

/* H d = rhs with H as assembled: 0, 1 when singular, LCP_ERROR */
static int lu_solve(nsn_work *w, lcp_err *err)
{
    int st = lu_factor(w, err);
    if (st) return st;
    st = lcp_sparse_factor_solve(&w->lu, w->rhs, w->d);
    if (st == LCP_SF_SINGULAR) return 1;
    if (st != LCP_SF_OK) return lcp_sparse_factor_fail(&w->lu, err, "");
    for (int i = 0; i < w->n; i++)
        if (!isfinite(w->d[i])) return 1;
    return 0;
}

/* Armijo along d (wd = W d) from r; slope = Phi'H d < 0.  Leaves the
 * accepted trial point in rt, ut, phit with its merit in *pt and returns t,
 * or 0. */
static double line_search(nsn_work *w, const double *r, double slope, double *pt)
{
    int n = w->n;
    double psi0 = fmax(w->psi, w->ref), sg = w->sigma;
    for (double t = 1.0; t >= MIN_STEP; t *= ARMIJO_BETA) {
        for (int i = 0; i < n; i++) {
            w->rt[i] = r[i] + t * w->d[i];
            w->ut[i] = w->u[i] + t * (w->wd[i] + sg * w->d[i]);
        }
        *pt = eval_phi(w, w->rt, w->ut, w->phit, 0);
        if (*pt <= psi0 + ARMIJO_SIGMA * t * slope) return t; /* false for NaN */
    }
    return 0.0;
}

static void swap_ptr(double **a, double **b)
{
    double *t = *a;
    *a = *b;
    *b = t;
}

/* the trial point (rt, ut, phit) becomes the kept candidate (rb, ub, phib) */
static void keep_trial(nsn_work *w)
{
    swap_ptr(&w->rt, &w->rb);
    swap_ptr(&w->ut, &w->ub);
    swap_ptr(&w->phit, &w->phib);
}

/* the kept candidate becomes the iterate */
static void commit(nsn_work *w, double *r, double psi)
{
    memcpy(r, w->rb, (size_t)w->n * sizeof(double));
    swap_ptr(&w->u, &w->ub);
    swap_ptr(&w->phi, &w->phib);
    w->psi = psi;
}

static double dot(const double *a, const double *b, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

int nsn_step(nsn_work *w, double *r, double *t, lcp_err *err)
{
    int n = w->n;
    *t = 0.0;
    if (!(w->psi > 0)) return 1;
    eval_phi(w, r, w->u, w->phi, 1);                         /* the blocks at r */
    for (int i = 0; i < n; i++) w->rhs[i] = -w->phi[i];
    double qq = 0.0;                                         /* Levenberg-Marquardt: delta ~ |Phi| / |r| */
    for (int i = 0; i < w->nc; i++)
        for (int a = 0; a < 3; a++) {
            double v = w->rho[2 * i + (a > 0)] * w->p->b[3 * i + a];
            qq += v * v;
        }
    double rr = fmax(dot(r, r, n), qq);
    double delta = w->delta;
    if (rr > 0) delta = fmax(delta, fmin(REG_MAX, LM_FACTOR * sqrt(2 * w->psi / rr)));
    /* the Newton direction with delta; when H is singular, d no descent
     * direction, or the step short, again with a larger delta: the best
     * point of these tries is taken */
    double best = fmax(w->psi, w->ref), best_t = 0.0, best_delta = 0.0;
    int first_ok = 0, attempt = 0;
    for (;; attempt++) {
        assemble(w, delta);
        int st = lu_solve(w, err);
        if (st == LCP_ERROR) return st;
        double tt = 0.0, pt;
        if (st == 0) {
            h_matvec(w, delta, w->d, w->hd);                 /* H d, H without delta */
            double slope = dot(w->phi, w->hd, n);
            if (isfinite(slope) && slope < 0) {
                lcp_csr_matvec(&w->p->A, w->d, w->wd);
                tt = line_search(w, r, slope, &pt);
                if (attempt == 0 && tt > 0) first_ok = 1;
                if (tt > 0 && pt < best) {
                    keep_trial(w);
                    best = pt;
                    best_t = tt;
                    best_delta = delta;
                }
            }
        }
        if (tt >= SHORT_STEP) break;
        delta = fmax(delta * REG_JUMP, REG_START);
        if (delta > REG_MAX) break;
    }
    if (best_t > 0) {
        commit(w, r, best);
        *t = best_t;
        /* remembered (divided by 10) only when the first delta gave no step */
        w->delta = first_ok || best_delta / REG_FACTOR < REG_START ? 0.0 : best_delta / REG_FACTOR;
        return 0;
    }
    /* steepest descent on psi: d = -c g, g = H'Phi, c the Cauchy step */
    assemble(w, 0.0);
    h_tmatvec(w, 0.0, w->phi, w->g);
    h_matvec(w, 0.0, w->g, w->hd);
    double gg = dot(w->g, w->g, n), hh = dot(w->hd, w->hd, n);
    if (!(gg > 0) || !(hh > 0) || !isfinite(gg) || !isfinite(hh)) return 1;
    double c = gg / hh, pt;
    for (int i = 0; i < n; i++) w->d[i] = -c * w->g[i];
    lcp_csr_matvec(&w->p->A, w->d, w->wd);
    double tt = line_search(w, r, -c * gg, &pt);
    if (tt > 0) {
        keep_trial(w);
        commit(w, r, pt);
        *t = tt * c;
        return 0;
    }
    return 1;
}

int nsn_factor(nsn_work *w, const double *r, lcp_err *err)
{
    compute_u(w, r, w->u);
    w->psi = eval_phi(w, r, w->u, w->phi, 1);                /* the blocks at r */
    assemble(w, 0.0);
    return lu_factor(w, err);
}

int nsn_factor_solve(nsn_work *w, const double *b, double *x)
{
    return lcp_sparse_factor_solve(&w->lu, b, x) == LCP_SF_OK ? 0 : 1;
}

/* ------------------------------------------------------------- the solver */

/* The hybrid start (Siconos' NSN_HYBRID_STRATEGY_VI_EG_NSN, with admm for
 * the extragradient): where the Newton steps have not cut the residual
 * tenfold over HYBRID_WINDOW steps (from step HYBRID_AFTER on) and it is
 * above HYBRID_TOL, admm runs from zero on a monitor of its own to
 * HYBRID_TOL (at most HYBRID_ITERS iterations, within the time left), and
 * the Newton steps go on from its answer where that is better than theirs.
 * On granular piles Newton alone crawls at a residual of 0.1-0.3 (and so
 * does Siconos' Alart-Curnier Newton) while admm stalls at 1e-4; Newton
 * from admm's answer at 1e-3 converges (a pile of 440 contacts, mu 0.8: 42
 * steps to 1e-8).  Once a solve.
 *
 * The hybrid restarts: where the steps have not cut the residual tenfold in
 * HYBRID_STALL steps, where no direction decreases the merit, or where it
 * crawls, at a residual above the rounding floor, admm runs from the
 * iterate to HYBRID_GAIN of its residual (at most RESTART_ITERS iterations)
 * and the steps go on from its answer where that is better; at most
 * HYBRID_RESTARTS a solve, then the stop as before.  Near a solution the
 * merit |Phi|^2/2 has stationary points that are none (a pile of 51
 * contacts, fc3d: the steps stalled at a residual of 2e-4 with 6 contacts
 * in the wrong piece; Siconos' nsn-ac stops at 1.6e-5 on it): admm does not
 * see them.  Granular piles at 1e-10 (scripts/bench-nsn): 66 of 67 solved
 * where 63 were with piece locking alone, 43 of 46 held-out ones where 36
 * were.  Two decades take admm thousands of iterations on a pile with W +
 * 1e-3 I (its linear rate there: 1e-10 from zero in 16,000): with at most
 * 2,000 a restart's admm fell short (1.5e-5 from a stall at 4e-6) and the
 * steps returned to the stall; with 10,000 it reaches 1/100 (6,764
 * iterations on pile-4x3-s28 + 1e-3 I: solved in 138 steps, 1 s). */
#define HYBRID_AFTER 20
#define HYBRID_WINDOW 10
#define HYBRID_TOL 1e-3
#define HYBRID_ITERS 2000   /* admm's iterations at most, the start (from zero to HYBRID_TOL) */
#define RESTART_ITERS 10000 /* ... a restart (from the iterate, two decades down) */
#define HYBRID_RESTARTS 3  /* the restarts where the steps stall nearer a solution */
#define HYBRID_STALL 100   /* ... the residual not cut tenfold in this many steps */
#define HYBRID_GAIN 0.01   /* ... admm from the iterate to this much of its residual */
/* from: NULL (admm from zero, to HYBRID_TOL: the start), or the iterate
 * (a restart: admm from it to HYBRID_GAIN of its residual).  Returns 1
 * when x was replaced, 0 when not, LCP_ERROR. */
static int hybrid_start(nsn_work *w, const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon,
                        int k, const double *from, lcp_info *info, lcp_err *err)
{
    const lcp_solver *by = lcp_solver_find("admm");
    double *z = lcp_calloc((size_t)p->n, sizeof(double)), res = INFINITY;
    if (!z) return lcp_fail(err, LCP_ERROR, NULL, 0, "nsn: out of memory (hybrid start)");
    if (from) memcpy(z, from, (size_t)p->n * sizeof(double));
    double tol = from ? fmax(HYBRID_GAIN * mon->last.residual, s->tol) : HYBRID_TOL;
    int its = 0, done = 0;
    int cap = from ? RESTART_ITERS : HYBRID_ITERS;
    if (by && lcp_guess_by(p, s, by, z, mon->t0, tol, cap, &its, &res) == 0 && res < mon->last.residual) {
        memcpy(x, z, (size_t)p->n * sizeof(double));
        nsn_eval(w, x);
        w->delta = 0.0;
        done = 1;
        snprintf(info->message, sizeof info->message,
                 "hybrid %s after %d Newton steps at a residual of %.3g: admm's answer (%d iterations, residual %.3g)",
                 from ? "restart" : "start", k, mon->last.residual, its, res);
    }
    free(z);
    return done;
}

/* Piece locking.  Near a solution where a contact lies close to the border
 * between two pieces of Phi (stick and slip, on and off), the Newton steps
 * can cycle: the step from one piece lands in the other and back, each
 * accepted by the non-monotone test, while the residual stays put (a
 * granular pile of 42 contacts: 300 steps at 1e-4, one contact changing
 * between stick and slip every step).  Newton on one piece's formula is
 * Newton on a smooth function and converges to that piece's root; where
 * the root lies in the piece it is the solution.  So: when the merit has
 * not halved in LOCK_WINDOW steps and contacts changed piece LOCK_FLIPS
 * times or more since it last did, those contacts are held to the piece
 * they are in (contact_ac's lock) for a round of at most LOCK_STEPS steps
 * (fewer when the merit stops halving for LOCK_STALL steps), each with a
 * monotone line search (the piece's merit is smooth); the monitor
 * judges the true residual at every step, so a round that reaches the
 * solution ends the solve.  After a round each held contact is set to the
 * piece it lies in then (an active-set update: the other piece where the
 * root left it), as is a free contact that changed piece LOCK_FLIPS_ROUND
 * times in the round, and the next round starts, at most LOCK_ROUNDS; then
 * the contacts are let go from the better of the round's end and its
 * start.  Only below a residual of LOCK_RESIDUAL (near a solution; far
 * from one the hybrid start serves), at most LOCK_TRIES locks a solve.
 * Granular piles at tol 1e-10 (scripts/bench-nsn, before the hybrid
 * restarts): 63 of 67 solved where 58 were without it, 36 of 46 held-out
 * piles where 33 were. */
#define LOCK_WINDOW 10
#define LOCK_RESIDUAL 1e-2
#define LOCK_FLIPS 4
#define LOCK_STEPS 12
#define LOCK_STALL 3
#define LOCK_ROUNDS 6
#define LOCK_FLIPS_ROUND 2
#define LOCK_TRIES 5

typedef struct {
    unsigned char *prev, *now; /* nc: the pieces at the last iterate and at this one */
    int *flips;                /* nc: changes of piece since the merit last halved */
    double *xs;                /* n: the iterate where the lock began */
    double psi_s, mark;        /* the merit there; the merit at the last halving */
    int since, locked, round, steps, tries;
} piece_lock;

/* the pieces the contacts lie in at r (with u of the last nsn_eval / nsn_step) */
static void pieces(const nsn_work *w, const double *r, unsigned char *out)
{
    double F[3];
    for (int i = 0; i < w->nc; i++)
        out[i] = (unsigned char)contact_ac(w->desaxce, w->p->mu[i], w->rho[2 * i], w->rho[2 * i + 1], r + 3 * i,
                                           w->u + 3 * i, 0, F, NULL, NULL);
}

static void lock_free(piece_lock *L)
{
    free(L->prev);
    free(L->now);
    free(L->flips);
    free(L->xs);
}

/* the watch anew from x (its pieces, the merit's mark, no changes counted) */
static void lock_reset(const nsn_work *w, const double *x, piece_lock *L)
{
    pieces(w, x, L->prev);
    L->mark = w->psi;
    L->since = 0;
    memset(L->flips, 0, (size_t)w->nc * sizeof(int));
}

static int lock_new(const nsn_work *w, const double *x, piece_lock *L)
{
    memset(L, 0, sizeof *L);
    L->prev = lcp_alloc((size_t)w->nc + 1, 1);
    L->now = lcp_alloc((size_t)w->nc + 1, 1);
    L->flips = lcp_calloc((size_t)w->nc + 1, sizeof(int));
    L->xs = lcp_alloc((size_t)w->n + 1, sizeof(double));
    if (!L->prev || !L->now || !L->flips || !L->xs) return 1;
    lock_reset(w, x, L);
    return 0;
}

/* After a step without locks: counts the changes of piece and begins a
 * lock where the steps cycle.  Returns 1 when it did (the merit is now the
 * locked pieces'). */
static int lock_watch(nsn_work *w, piece_lock *L, const double *x, double res)
{
    int nc = w->nc, m = 0;
    pieces(w, x, L->now);
    for (int i = 0; i < nc; i++) L->flips[i] += L->now[i] != L->prev[i];
    memcpy(L->prev, L->now, (size_t)nc);
    if (w->psi <= 0.5 * L->mark) {
        L->mark = w->psi;
        L->since = 0;
        memset(L->flips, 0, (size_t)nc * sizeof(int));
        return 0;
    }
    if (++L->since < LOCK_WINDOW || L->tries >= LOCK_TRIES || res > LOCK_RESIDUAL) return 0;
    for (int i = 0; i < nc; i++)
        if (L->flips[i] >= LOCK_FLIPS) w->lock[i] = (unsigned char)(1 + L->now[i]), m++;
    L->since = 0;
    memset(L->flips, 0, (size_t)nc * sizeof(int));
    if (!m) return 0;
    memcpy(L->xs, x, (size_t)w->n * sizeof(double));
    L->psi_s = w->psi;
    L->locked = 1;
    L->round = L->steps = 0;
    L->tries++;
    L->mark = nsn_eval(w, x);
    return 1;
}

/* After a step with locks (failed: no step was taken): ends the round where
 * it is over, and the lock after its last round.  Returns 1 when the merit
 * changed meaning (a new round's pieces, or none held). */
static int lock_step(nsn_work *w, piece_lock *L, double *x, int failed)
{
    int nc = w->nc;
    L->steps++;
    if (w->psi <= 0.5 * L->mark) L->mark = w->psi, L->since = 0;
    else L->since++;
    pieces(w, x, L->now);
    for (int i = 0; i < nc; i++) L->flips[i] += L->now[i] != L->prev[i];
    memcpy(L->prev, L->now, (size_t)nc);
    if (!failed && L->steps < LOCK_STEPS && L->since < LOCK_STALL) return 0;
    int moved = 0;
    for (int i = 0; i < nc; i++)
        if ((w->lock[i] || L->flips[i] >= LOCK_FLIPS_ROUND) && w->lock[i] != 1 + L->now[i])
            w->lock[i] = (unsigned char)(1 + L->now[i]), moved++;
    memset(L->flips, 0, (size_t)nc * sizeof(int));
    if (moved && ++L->round < LOCK_ROUNDS) {                  /* the next round, from here */
        L->steps = L->since = 0;
        L->mark = nsn_eval(w, x);
        return 1;
    }
    memset(w->lock, 0, (size_t)nc);                          /* let go */
    L->locked = 0;
    if (!(nsn_eval(w, x) <= L->psi_s)) {
        memcpy(x, L->xs, (size_t)w->n * sizeof(double));
        nsn_eval(w, x);
    }
    lock_reset(w, x, L);
    return 1;
}

/* the watch anew after a jump (the hybrid start or a restart), its locks too */
static void lock_new_mark(const nsn_work *w, const double *x, piece_lock *L)
{
    lock_reset(w, x, L);
    L->tries = 0;
}

/* What nsn_solve keeps across its steps besides the iterate. */
typedef struct {
    double psi_old[CRAWL_STEPS]; /* the merits of the last steps (a ring) */
    double psi_mark;             /* the merit at the last rounding check */
    int crawl_from;              /* the step the merit's history starts at */
    int restarts;                /* hybrid restarts made */
    int stall_from;              /* the step the residual was last cut tenfold (or a restart) */
    double res_stall;            /* the residual then */
    int from;                    /* the step this start began at (0, or the second start's) */
    int hybrid;                  /* the hybrid start was tried (this start) */
    double res_mark;             /* the residual HYBRID_WINDOW steps ago */
    int second, second_k;        /* the second start was made, at this step */
    double second_res;           /* the residual then */
    piece_lock lk;
} nsn_run;

/* the merit's history anew from step k (after the merit changed meaning or
 * the iterate jumped) */
static void history_anew(const nsn_work *w, nsn_run *run, int k)
{
    for (int j = 0; j < CRAWL_STEPS; j++) run->psi_old[j] = w->psi;
    run->psi_mark = w->psi;
    run->crawl_from = k;
}

/* A hybrid restart from the iterate x at step k, where the steps stall,
 * fail or crawl at a residual above the rounding floor (at most
 * HYBRID_RESTARTS a solve): 1 when admm moved x (the histories then start
 * anew), 0, LCP_ERROR. */
static int restart(nsn_work *w, const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, int k,
                   lcp_info *info, lcp_err *err, nsn_run *run)
{
    if (run->restarts >= HYBRID_RESTARTS || mon->last.residual <= ROUNDING_RESIDUAL) return 0;
    run->restarts++;
    run->stall_from = k;
    int st = hybrid_start(w, p, s, x, mon, k, x, info, err);
    if (st == 1) {
        history_anew(w, run, k);
        lock_new_mark(w, x, &run->lk);
    }
    return st;
}

/* The second start.  The Newton path on Phi depends on rho, its roots do
 * not: where the steps from the start fail after their hybrid restarts (no
 * descent direction, or a crawl) above the rounding floor, nsn starts once more
 * from the start x0 with rho by contact blocks (nsn_rho_by_blocks: one rho
 * a contact, 1 / the largest eigenvalue of its diagonal block of W, as
 * Siconos' nsn-ac takes it), with its hybrid start, restarts and locks
 * anew; the steps and the time limit run on, and the answer is the best
 * iterate of both.  Held-out granular piles at 1e-10 (BENCHMARKS.md
 * "Friction Newton on granular piles"): the two rho fail on different piles.
 * Returns 1 when it started (x = x0), 0 when not. */
static int second_start(nsn_work *w, const double *x0, double *x, lcp_monitor *mon, int k, lcp_info *info,
                        nsn_run *run)
{
    if (run->second || mon->last.residual <= ROUNDING_RESIDUAL || nsn_rho_by_blocks(w)) return 0;
    run->second = 1;
    run->second_k = mon->iter; /* (the steps taken: a failed step is none) */
    run->second_res = mon->last.residual;
    memcpy(x, x0, (size_t)w->n * sizeof(double));
    memset(w->lock, 0, (size_t)w->nc);
    w->delta = 0.0;
    nsn_eval(w, x);
    run->lk.locked = 0;
    lock_new_mark(w, x, &run->lk);
    history_anew(w, run, k);
    run->from = run->stall_from = k;
    run->restarts = run->hybrid = 0;
    run->res_stall = run->res_mark = mon->first_residual;
    info->status = LCP_SOLVED; /* (the first start's failure is not the answer's) */
    info->message[0] = '\0';
    return 1;
}

/* Where the steps fail (no direction decreases the merit, or it crawls):
 * a hybrid restart while any is left, else the second start.  1 when the
 * solve goes on from a new iterate, 0 when neither applies (the failure
 * stands), LCP_ERROR. */
static int recover(nsn_work *w, const lcp_problem *p, const lcp_settings *s, double *x, const double *x0,
                   lcp_monitor *mon, int k, lcp_info *info, lcp_err *err, nsn_run *run)
{
    int st = restart(w, p, s, x, mon, k, info, err, run);
    return st ? st : second_start(w, x0, x, mon, k, info, run);
}

static const char *const columns[] = {"merit", "step", NULL};

static int nsn_solve(const lcp_problem *p, const lcp_settings *s, double *x, lcp_monitor *mon, lcp_info *info,
                     lcp_err *err)
{
    nsn_work *w;
    int rc = nsn_work_new(p, &w, err);
    if (rc) return rc;
    nsn_run *run = lcp_calloc(1, sizeof *run);
    double *x0 = lcp_alloc((size_t)p->n + 1, sizeof(double)), extra[2] = {nsn_eval(w, x), 0.0};
    if (x0) memcpy(x0, x, (size_t)p->n * sizeof(double));
    if (!run || !x0 || lock_new(w, x, &run->lk)) {
        if (run) lock_free(&run->lk);
        free(run);
        free(x0);
        nsn_work_free(w);
        return lcp_fail(err, LCP_ERROR, NULL, 0, "nsn: out of memory (%d contacts)", p->nc);
    }
    piece_lock *lk = &run->lk;
    double *psi_old = run->psi_old;
    run->psi_mark = extra[0];
    if (!lcp_monitor_step(mon, 0, x, extra)) {
        run->res_mark = run->res_stall = mon->last.residual;
        for (int k = 1;; k++) {
            psi_old[(k - 1) % CRAWL_STEPS] = nsn_merit(w);
            double ref = 0.0; /* the largest merit of the last NONMONOTONE iterates */
            for (int j = 1; j <= NONMONOTONE && j <= k; j++) ref = fmax(ref, psi_old[(k - j) % CRAWL_STEPS]);
            nsn_set_reference(w, lk->locked ? 0.0 : ref); /* a locked round: monotone */
            double t;
            int st = nsn_step(w, x, &t, err);
            if (st == LCP_ERROR) {
                rc = st;
                break;
            }
            if (st == 1 && lk->locked) {                    /* the round ends; the solve goes on */
                lock_step(w, lk, x, 1);
                history_anew(w, run, k);
                continue;
            }
            if (st == 1 && (rc = recover(w, p, s, x, x0, mon, k, info, err, run)) != 0) {
                if (rc == LCP_ERROR) break;                  /* a new iterate (admm's, or the start): on from there */
                rc = 0;
                continue;
            }
            if (st == 1) {
                if (mon->last.residual > ROUNDING_RESIDUAL) {
                    info->status = LCP_ERROR;
                    snprintf(info->message, sizeof info->message,
                             "line search failed: no descent for the merit %.3e (residual %.3e) after %d steps",
                             nsn_merit(w), mon->last.residual, k - 1);
                }
                break;
            }
            extra[0] = nsn_merit(w);
            extra[1] = t;
            if (lcp_monitor_step(mon, k, x, extra)) break;
            if (lk->locked ? lock_step(w, lk, x, 0) : lock_watch(w, lk, x, mon->last.residual))
                history_anew(w, run, k);
            if (lk->locked) continue;                        /* a locked merit: no stopping test on it */
            if (!run->hybrid && (k - run->from) % HYBRID_WINDOW == 0) {
                double res = mon->last.residual;
                if (k - run->from >= HYBRID_AFTER && res > HYBRID_TOL && res > 0.1 * run->res_mark) {
                    run->hybrid = 1;
                    if ((rc = hybrid_start(w, p, s, x, mon, k, NULL, info, err)) == LCP_ERROR) break;
                    rc = 0;
                    history_anew(w, run, k);
                    lock_new_mark(w, x, lk);
                }
                run->res_mark = res;
            }
            if (mon->last.residual <= 0.1 * run->res_stall) { /* the residual stalls: a restart */
                run->res_stall = mon->last.residual;
                run->stall_from = k;
            } else if (k - run->stall_from >= HYBRID_STALL) {
                run->stall_from = k;
                if ((rc = restart(w, p, s, x, mon, k, info, err, run)) != 0) {
                    if (rc == LCP_ERROR) break;
                    rc = 0;
                    continue;
                }
            }
            if (k % ROUNDING_STEPS == 0) {                   /* at the rounding floor: stop when psi stalls */
                if (mon->last.residual <= ROUNDING_RESIDUAL && nsn_merit(w) > 0.5 * run->psi_mark) break;
                run->psi_mark = nsn_merit(w);
            }
            if (k - run->crawl_from >= CRAWL_STEPS && nsn_merit(w) > (1.0 - CRAWL_REL) * psi_old[k % CRAWL_STEPS]) {
                if ((rc = recover(w, p, s, x, x0, mon, k, info, err, run)) != 0) {
                    if (rc == LCP_ERROR) break;              /* a crawl: a restart, or the second start */
                    rc = 0;
                    continue;
                }
                if (mon->last.residual > ROUNDING_RESIDUAL) {
                    info->status = LCP_ERROR;
                    snprintf(info->message, sizeof info->message,
                             "line search failed: the merit gained less than %g over %d steps (merit %.3e)",
                             CRAWL_REL, CRAWL_STEPS, nsn_merit(w));
                }
                break;
            }
        }
    }
    if (run->second) { /* the second start, then what happened after it */
        char then[sizeof info->message];
        snprintf(then, sizeof then, "%s", info->message);
        snprintf(info->message, sizeof info->message,
                 "second start after %d Newton steps at a residual of %.3g (rho by contact blocks)%s%.*s",
                 run->second_k, run->second_res, *then ? "; " : "", (int)(sizeof then - 100), then);
    }
    info->iterations = mon->iter;
    lock_free(lk);
    free(run);
    free(x0);
    nsn_work_free(w);
    return rc;
}

const lcp_solver lcp_solver_nsn = {
    "nsn", "global nonsmooth Newton on the Alart-Curnier function, UMFPACK, non-monotone Armijo line search",
    LCP_KIND_CCP | LCP_KIND_FC3D, columns, nsn_solve, NULL, LCP_SOLVER_FACTOR, 0};
