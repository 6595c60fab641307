/* peer/engines_lcp.cpp: the solvers game and robot engines link, Bullet 3
 * (double build) and ODE, on any lcp or blcp file lcpsolve reads.
 *
 *   build/peer/engines_lcp SOLVER PROBLEM OUT.mtx [TOL [MAX_ITER [REPEAT [GROUP]]]]
 *   build/peer/engines_lcp SOLVER --batch DIR [TOL [MAX_ITER]]
 *
 * SOLVER: bt-dantzig (btSolveDantzigLCP), bt-lemke (btLemkeSolver, which
 * runs btLemkeAlgorithm; lcp and blcp without findex), bt-pgs
 * (btSolveProjectedGaussSeidel, TOL its least-squares threshold on the
 * change of x, MAX_ITER sweeps, default 10,000), ode-dantzig (ODE's dLCP,
 * dxSolveLCP; only where built with -DLCP_PEER_ODE, see below).
 *
 * Reads PROBLEM with lcpsolve's own readers (parse time excluded), hands A
 * to the peer as the dense row-major matrix it takes, solves up to REPEAT
 * times (default 1; stopping once the solves took 0.5 s in all, as
 * bench/solve_loop does on lcpsolve's side) from the pristine data (the copy of A, b and the bounds that
 * the Dantzig solvers overwrite is inside the timed loop, as
 * btDantzigSolver::solveMLCP does it), GROUP solves a timing (default 1;
 * the time of one a GROUP-th of theirs, as solve_loop's batch=GROUP: below
 * a microsecond the clock's read around each solve is a fifth of it), writes x as a Matrix Market array
 * and prints one line: the peer's own verdict (info 0: it reported
 * success), the iterations (0: the engines' calls do not report them), the
 * median seconds of one solve, and the residual of x by lcpsolve's
 * verification (src/core/verify.c), the residual lcpsolve reports for
 * itself.  Exit 0 when the peer reported success, 1 when it reported a
 * failure, 2 on bad input.
 *
 * Conventions: lcpsolve's w = A x + b is the engines' A x = b' + w with
 * b' = -b; a blcp row i with findex[i] = j has bounds -+mu_i |x_j|, which
 * is the engines' lo = -mu_i, hi = mu_i, findex = j.  Where there are
 * findex rows, the peers get the rows in the order engines build them
 * (Bullet's btMLCPSolver: every row without findex, then the friction
 * rows), A, b, bounds and findex permuted alike and x permuted back: in
 * lcpsolve's contact-major order (normal, tangent, tangent, contact by
 * contact) both Dantzig solvers end a column of spheres with a wrong
 * answer (ODE: "LCP internal error, s <= 0").
 *
 * --batch DIR: the environments of DIR (every entry, in name order, as
 * `lcpsolve batch` takes them; bt-dantzig and bt-pgs), all read and set up
 * first, then each solved once in a loop on this one thread, as an engine
 * steps its environments; prints the environments, how many the peer's
 * answers solve to TOL (lcpsolve's residual), the worst residual, the loop's
 * seconds and environment-steps per second.
 *
 * ODE: libode-dev installs no header for its LCP solver, but libode.so
 * exports dxSolveLCP(dxWorldProcessMemArena *, unsigned n, double *A,
 * double *pairsbx, double *outer_w, unsigned nub, double *pairslh,
 * int *findex) with the C++ linkage of ODE 0.16, together with
 * dxEstimateSolveLCPMemoryReq(unsigned n, bool) and
 * dxAllocateTemporaryWorldProcessMemArena / dxFreeTemporaryWorldProcessMemArena.
 * The declarations below are ours: the arena is opaque except for its first
 * two pointers (the allocation cursor and the start of its buffer), which a
 * caller resets before each solve; b and x travel interleaved (b_i, x_i),
 * lo and hi likewise; A has rows of dPAD(n) doubles (n rounded up to a
 * multiple of 4 for n > 1) and is overwritten. */
#include <BulletDynamics/MLCPSolvers/btDantzigLCP.h>
#include <BulletDynamics/MLCPSolvers/btLemkeSolver.h>
#include <BulletDynamics/MLCPSolvers/btSolveProjectedGaussSeidel.h>
#include <LinearMath/btMatrixX.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <dirent.h>

extern "C" {
#include "core/common.h"
#include "core/problem.h"
#include "core/verify.h"
#include "io/io.h"
}

#ifdef LCP_PEER_ODE
struct dxWorldProcessMemArena;
struct dxWorldProcessMemoryManager;
struct dxWorldProcessMemoryReserveInfo;
void dxSolveLCP(dxWorldProcessMemArena *arena, unsigned n, double *A, double *pairsbx, double *outer_w,
                unsigned nub, double *pairslh, int *findex);
size_t dxEstimateSolveLCPMemoryReq(unsigned n, bool outer_w_avail);
dxWorldProcessMemArena *dxAllocateTemporaryWorldProcessMemArena(size_t memreq, const dxWorldProcessMemoryManager *,
                                                                const dxWorldProcessMemoryReserveInfo *);
void dxFreeTemporaryWorldProcessMemArena(dxWorldProcessMemArena *arena);
static void ode_arena_reset(dxWorldProcessMemArena *a)
{
    void **cursor = reinterpret_cast<void **>(a);
    cursor[0] = cursor[1];
}
static unsigned ode_pad(unsigned n) { return n > 1 ? ((n - 1) | 3u) + 1 : n; }
#endif

namespace {

struct Data {
    int n = 0;
    std::vector<double> A;           /* row-major n x n */
    std::vector<double> b, lo, hi;   /* engine convention: b' = -b */
    std::vector<int> findex;
    std::vector<int> perm;           /* engine row r is problem row perm[r] */
    bool has_findex = false;
};

double now() { return lcp_now(); }

int group = 1; /* solves a timing (GROUP); times[] holds the time of one */

/* the time budget of the repeated solves: 0.5 s in all */
bool spent(const std::vector<double> &t)
{
    double s = 0;
    for (double v : t) s += v;
    return s * group >= 0.5;
}

int build(const lcp_problem &p, Data &d)
{
    int n = p.n;
    d.n = n;
    d.A.assign((size_t)n * n, 0.0);
    for (int i = 0; i < n; i++)
        for (int k = p.A.p[i]; k < p.A.p[i + 1]; k++) d.A[(size_t)i * n + p.A.j[k]] += p.A.x[k];
    d.perm.resize(n);
    int k = 0; /* the engines' order: rows without findex, then the friction rows */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++)
            if ((p.findex && p.findex[i] >= 0) == (pass == 1)) d.perm[k++] = i;
    std::vector<int> inv(n);
    for (int i = 0; i < n; i++) inv[d.perm[i]] = i;
    std::vector<double> Ad((size_t)n * n);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) Ad[(size_t)r * n + c] = d.A[(size_t)d.perm[r] * n + d.perm[c]];
    d.A.swap(Ad);
    d.b.resize(n);
    d.lo.resize(n);
    d.hi.resize(n);
    d.findex.assign(n, -1);
    for (int r = 0; r < n; r++) {
        int i = d.perm[r];
        d.b[r] = -p.b[i];
        if (p.findex && p.findex[i] >= 0) {
            d.findex[r] = inv[p.findex[i]];
            d.lo[r] = -p.mu[i];
            d.hi[r] = p.mu[i];
            d.has_findex = true;
        } else {
            d.lo[r] = p.lo ? p.lo[i] : 0.0; /* |bound| >= 1e300: none (files hold finite values) */
            d.hi[r] = p.hi ? p.hi[i] : INFINITY;
            if (d.lo[r] <= -1e300) d.lo[r] = -INFINITY;
            if (d.hi[r] >= 1e300) d.hi[r] = INFINITY;
        }
    }
    return 0;
}

/* Bullet's Dantzig: infinite bounds as BT_INFINITY (its own "no bound"). */
bool bt_dantzig(const Data &d, std::vector<double> &x, btDantzigScratchMemory &scratch, std::vector<double> &A,
                std::vector<double> &b, std::vector<double> &lo, std::vector<double> &hi, std::vector<int> &fx,
                std::vector<double> &w)
{
    int n = d.n;
    std::copy(d.A.begin(), d.A.end(), A.begin());
    std::copy(d.b.begin(), d.b.end(), b.begin());
    std::copy(d.findex.begin(), d.findex.end(), fx.begin());
    for (int i = 0; i < n; i++) {
        lo[i] = std::isinf(d.lo[i]) ? -BT_INFINITY : d.lo[i];
        hi[i] = std::isinf(d.hi[i]) ? BT_INFINITY : d.hi[i];
        x[i] = 0.0;
    }
    return btSolveDantzigLCP(n, A.data(), x.data(), b.data(), w.data(), 0, lo.data(), hi.data(), fx.data(), scratch);
}

void to_matrix(const Data &d, btMatrixXu &M)
{
    M.resize(d.n, d.n);
    M.setZero();
    for (int i = 0; i < d.n; i++)
        for (int j = 0; j < d.n; j++)
            if (d.A[(size_t)i * d.n + j] != 0.0) M.setElem(i, j, d.A[(size_t)i * d.n + j]);
}

const char *usage =
    "usage: engines_lcp bt-dantzig|bt-lemke|bt-pgs|ode-dantzig PROBLEM OUT.mtx [TOL [MAX_ITER [REPEAT [GROUP]]]]\n"
    "       engines_lcp bt-dantzig|bt-pgs --batch DIR [TOL [MAX_ITER]]\n";

/* --batch: every environment of dir solved once in a loop (see the top). */
int batch(bool dantzig, const char *dir, double tol, int max_iter)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "%s: not a folder of environments\n", dir);
        return 2;
    }
    std::vector<std::string> names;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') names.push_back(std::string(dir) + "/" + e->d_name);
    closedir(d);
    std::sort(names.begin(), names.end());
    size_t ne = names.size();
    std::vector<lcp_problem> probs(ne);
    std::vector<Data> data(ne);
    std::vector<btMatrixXu> mats(dantzig ? 0 : ne);
    for (size_t k = 0; k < ne; k++) {
        lcp_err err = {};
        lcp_problem_init(&probs[k]);
        if (lcp_read_problem(names[k].c_str(), LCP_KIND_NONE, &probs[k], &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 2;
        }
        if (probs[k].kind != LCP_KIND_LCP && probs[k].kind != LCP_KIND_BLCP) {
            fprintf(stderr, "%s: kind %s: the engines' solvers take lcp and blcp\n", names[k].c_str(),
                    lcp_kind_name(probs[k].kind));
            return 2;
        }
        build(probs[k], data[k]);
        if (!dantzig) to_matrix(data[k], mats[k]);
    }
    if (ne == 0) {
        fprintf(stderr, "%s: no environments\n", dir);
        return 2;
    }
    int nmax = 0;
    for (const Data &dd : data) nmax = std::max(nmax, dd.n);
    std::vector<std::vector<double>> xs(ne);
    btDantzigScratchMemory scratch;
    std::vector<double> A((size_t)nmax * nmax), b(nmax), lo(nmax), hi(nmax), w(nmax);
    std::vector<int> fx(nmax);
    btSolveProjectedGaussSeidel pg;
    pg.m_leastSquaresResidualThreshold = tol * tol;
    int claimed = 0;
    double t0 = now();
    for (size_t k = 0; k < ne; k++) {
        const Data &dd = data[k];
        int n = dd.n;
        xs[k].assign(n, 0.0);
        if (dantzig) {
            claimed += bt_dantzig(dd, xs[k], scratch, A, b, lo, hi, fx, w);
        } else {
            btVectorXu bb(n), xx(n), l(n), h(n);
            btAlignedObjectArray<int> dep;
            dep.resize(n);
            for (int i = 0; i < n; i++) {
                bb[i] = dd.b[i];
                xx[i] = 0.0;
                l[i] = std::isinf(dd.lo[i]) ? -BT_INFINITY : dd.lo[i];
                h[i] = std::isinf(dd.hi[i]) ? BT_INFINITY : dd.hi[i];
                dep[i] = dd.findex[i];
            }
            claimed += pg.solveMLCP(mats[k], bb, xx, l, h, dep, max_iter, true);
            for (int i = 0; i < n; i++) xs[k][i] = xx[i];
        }
    }
    double t = now() - t0;
    int solved = 0;
    double worst = 0.0;
    for (size_t k = 0; k < ne; k++) {
        const Data &dd = data[k];
        std::vector<double> x(dd.n), ww(dd.n);
        for (int r = 0; r < dd.n; r++) x[dd.perm[r]] = xs[k][r];
        lcp_metrics m;
        lcp_verify(&probs[k], x.data(), ww.data(), &m);
        solved += m.residual <= tol;
        worst = std::max(worst, m.residual);
        lcp_problem_free(&probs[k]);
    }
    printf("environments %zu claimed %d solved %d worst_residual %.3e time_s %.6e env_steps_per_s %.6e\n", ne, claimed,
           solved, worst, t, (double)ne / t);
    return solved == (int)ne ? 0 : 1;
}

} // namespace

/* One of Bullet's MLCP solvers (btLemkeSolver, btSolveProjectedGaussSeidel)
 * on d, repeat times from x = 0 (each call timed into times; findex rows
 * only where the solver takes them); x gets the last answer. */
template <class Solver>
static bool bt_mlcp(Solver &s, const Data &d, bool findex, int max_iter, int repeat, std::vector<double> &x,
                    std::vector<double> &times)
{
    int n = d.n;
    btMatrixXu M;
    to_matrix(d, M);
    btVectorXu bb(n), xx(n), lo(n), hi(n);
    btAlignedObjectArray<int> dep;
    dep.resize(n);
    for (int i = 0; i < n; i++) {
        bb[i] = d.b[i];
        lo[i] = std::isinf(d.lo[i]) ? -BT_INFINITY : d.lo[i];
        hi[i] = std::isinf(d.hi[i]) ? BT_INFINITY : d.hi[i];
        dep[i] = findex ? d.findex[i] : -1;
    }
    bool ok = true;
    for (int r = 0; r < repeat && !spent(times); r++) {
        double t0 = now();
        for (int g = 0; g < group; g++) {
            for (int i = 0; i < n; i++) xx[i] = 0.0;
            ok = s.solveMLCP(M, bb, xx, lo, hi, dep, max_iter, true);
        }
        times.push_back((now() - t0) / group);
    }
    for (int i = 0; i < n; i++) x[i] = xx[i];
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fputs(usage, stderr);
        return 2;
    }
    const char *solver = argv[1];
    if (!strcmp(argv[2], "--batch")) {
        if (strcmp(solver, "bt-dantzig") && strcmp(solver, "bt-pgs")) {
            fputs(usage, stderr);
            return 2;
        }
        return batch(!strcmp(solver, "bt-dantzig"), argv[3], argc > 4 ? atof(argv[4]) : 1e-8,
                     argc > 5 ? atoi(argv[5]) : 10000);
    }
    bool dantzig = !strcmp(solver, "bt-dantzig"), lemke = !strcmp(solver, "bt-lemke"),
         pgs = !strcmp(solver, "bt-pgs"), ode = !strcmp(solver, "ode-dantzig");
    if (!dantzig && !lemke && !pgs && !ode) {
        fputs(usage, stderr);
        return 2;
    }
#ifndef LCP_PEER_ODE
    if (ode) {
        fprintf(stderr, "ode-dantzig: built without ODE (libode-dev)\n");
        return 2;
    }
#endif
    double tol = argc > 4 ? atof(argv[4]) : 1e-12;
    int max_iter = argc > 5 ? atoi(argv[5]) : 10000;
    int repeat = argc > 6 ? atoi(argv[6]) : 1;
    group = argc > 7 ? atoi(argv[7]) : 1;
    if (repeat < 1 || max_iter < 1 || group < 1) {
        fputs(usage, stderr);
        return 2;
    }
    lcp_problem prob;
    lcp_err err = {};
    lcp_problem_init(&prob);
    if (lcp_read_problem(argv[2], LCP_KIND_NONE, &prob, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    if (prob.kind != LCP_KIND_LCP && prob.kind != LCP_KIND_BLCP) {
        fprintf(stderr, "%s: kind %s: the engines' solvers take lcp and blcp\n", argv[2], lcp_kind_name(prob.kind));
        return 2;
    }
    Data d;
    build(prob, d);
    if (lemke && d.has_findex) {
        fprintf(stderr, "%s: bt-lemke takes no findex (friction) rows\n", argv[2]);
        return 2;
    }
    int n = d.n, iterations = 0; /* not reported by the engines' calls */
    bool ok = true;
    std::vector<double> x(n, 0.0), times;
    times.reserve(repeat);

    if (dantzig) {
        btDantzigScratchMemory scratch;
        std::vector<double> A(d.A.size()), b(n), lo(n), hi(n), w(n);
        std::vector<int> fx(n);
        for (int r = 0; r < repeat && !spent(times); r++) {
            double t0 = now();
            for (int g = 0; g < group; g++) ok = bt_dantzig(d, x, scratch, A, b, lo, hi, fx, w);
            times.push_back((now() - t0) / group);
        }
    } else if (lemke) {
        btLemkeSolver s;
        bool bounded = false; /* plain Lemke on (A, b) for an lcp */
        for (int i = 0; i < n; i++) bounded = bounded || d.lo[i] != 0.0 || !std::isinf(d.hi[i]);
        s.m_useLoHighBounds = bounded;
        s.m_maxLoops = max_iter;
        ok = bt_mlcp(s, d, false, max_iter, repeat, x, times);
    } else if (pgs) {
        btSolveProjectedGaussSeidel s;
        s.m_leastSquaresResidualThreshold = tol * tol;
        ok = bt_mlcp(s, d, true, max_iter, repeat, x, times);
    }
#ifdef LCP_PEER_ODE
    else if (ode) {
        unsigned nskip = ode_pad((unsigned)n);
        size_t req = dxEstimateSolveLCPMemoryReq((unsigned)n, false);
        dxWorldProcessMemArena *arena = dxAllocateTemporaryWorldProcessMemArena(req, NULL, NULL);
        double *A = static_cast<double *>(aligned_alloc(64, ((size_t)n * nskip * sizeof(double) + 63) / 64 * 64 + 64));
        std::vector<double> bx(2 * (size_t)n), lh(2 * (size_t)n);
        std::vector<int> fx(n);
        if (!arena || !A) {
            fprintf(stderr, "out of memory (n = %d)\n", n);
            return 5;
        }
        for (int r = 0; r < repeat && !spent(times); r++) {
            double t0 = now();
            for (int g = 0; g < group; g++) {
                for (int i = 0; i < n; i++) {
                    memcpy(A + (size_t)i * nskip, d.A.data() + (size_t)i * n, (size_t)n * sizeof(double));
                    for (unsigned j = (unsigned)n; j < nskip; j++) A[(size_t)i * nskip + j] = 0.0;
                    bx[2 * i] = d.b[i];
                    bx[2 * i + 1] = 0.0;
                    lh[2 * i] = std::isinf(d.lo[i]) ? -INFINITY : d.lo[i];
                    lh[2 * i + 1] = std::isinf(d.hi[i]) ? INFINITY : d.hi[i];
                    fx[i] = d.findex[i];
                }
                ode_arena_reset(arena);
                dxSolveLCP(arena, (unsigned)n, A, bx.data(), NULL, 0, lh.data(), fx.data());
            }
            times.push_back((now() - t0) / group);
        }
        for (int i = 0; i < n; i++) x[i] = bx[2 * i + 1];
        free(A);
        dxFreeTemporaryWorldProcessMemArena(arena);
        ok = true; /* dxSolveLCP reports nothing: its answer is judged below */
        for (int i = 0; i < n; i++)
            if (!std::isfinite(x[i])) ok = false;
    }
#endif
    std::vector<double> xp(x);
    for (int r = 0; r < n; r++) x[d.perm[r]] = xp[r];
    std::sort(times.begin(), times.end());
    double t = times[times.size() / 2];
    std::vector<double> w(n);
    lcp_metrics m;
    lcp_verify(&prob, x.data(), w.data(), &m);
    if (lcp_write_mtx_vector(argv[3], x.data(), n, "engine peer solution", &err)) fprintf(stderr, "%s\n", err.msg);
    printf("info %d iterations %d time_s %.6e residual %.3e repeats %d\n", ok ? 0 : 1, iterations, t, m.residual,
           (int)times.size());
    lcp_problem_free(&prob);
    return ok ? 0 : 1;
}
