/* src/scenes/geometry.c: the rigid-body scenes of `lcpsolve generate`
 * (column, pyramid, granular, tower, mass-ratio, redundant, chain, and
 * --piles copies of any): where each body is, its mass and inertia, and
 * where the bodies touch (each contact's point and normal).  Their problem,
 * M, J, v, A, b, is src/scenes/rigid.c's. */
#include "builders.h"

#include "../core/common.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void lcp_rb_scene_free(rb_scene *s)
{
    free(s->body);
    free(s->con);
    memset(s, 0, sizeof *s);
}

static int scene_alloc(rb_scene *s, long nb, long nc)
{
    s->nb = (int)nb;
    s->nc = (int)nc;
    s->body = lcp_calloc((size_t)nb, sizeof *s->body);
    s->con = lcp_calloc((size_t)nc, sizeof *s->con);
    if (!s->body || !s->con) {
        lcp_rb_scene_free(s);
        return LCP_ERROR;
    }
    return 0;
}

static void set3(double *d, double x, double y, double z)
{
    d[0] = x;
    d[1] = y;
    d[2] = z;
}

/* Diagonal inertia tensor diag(ix, iy, iz). */
static void inertia_diag(double *I, double ix, double iy, double iz)
{
    memset(I, 0, 9 * sizeof *I);
    I[0] = ix;
    I[4] = iy;
    I[8] = iz;
}

/* column: N solid spheres of radius r on the ground at the origin, sphere i
 * centred at z = r + 2 r i.  Mass m_i = m R^(i/(N-1)): the top sphere is R
 * times heavier than the bottom one (R = --mass-ratio), which spreads the
 * diagonal of A over R and makes the problem ill-conditioned for large R.
 * Inertia of a solid sphere: 2/5 m r^2 about every axis.
 * Contact 0: ground / sphere 0 at the origin; contact i: sphere i-1 /
 * sphere i at z = 2 r i.  All normals +z. */
static int scene_column(const gen_params *g, rb_scene *s)
{
    long N = g->bodies;
    double r = g->radius;
    if (scene_alloc(s, N, N)) return LCP_ERROR;
    for (long i = 0; i < N; i++) {
        rb_body *B = &s->body[i];
        B->m = g->mass * pow(g->mass_ratio, N > 1 ? (double)i / (double)(N - 1) : 0.0);
        set3(B->x, 0.0, 0.0, r + 2.0 * r * (double)i);
        double Is = 0.4 * B->m * r * r;
        inertia_diag(B->I, Is, Is, Is);
        rb_contact *C = &s->con[i];
        C->a = (int)i - 1; /* -1 for i = 0: the ground */
        C->b = (int)i;
        set3(C->p, 0.0, 0.0, 2.0 * r * (double)i);
        set3(C->n, 0.0, 0.0, 1.0);
    }
    return 0;
}

/* pyramid: rows k = 0 (on the ground) .. B-1, row k holding B-k boxes of
 * size w x d x h (x, y, z).  Box j of row k is centred at
 *   x = (j + k/2 - (B-1)/2) w,  y = 0,  z = h/2 + k h,
 * so it sits on boxes j and j+1 of row k-1, offset by half a box width.
 * Boxes in a row touch side to side; those side contacts carry no force
 * under gravity and are not modelled.  Inertia of a solid box:
 *   m/12 diag(d^2 + h^2, w^2 + h^2, w^2 + d^2).
 * Contacts: a base box on the ground at the 4 corners of its bottom face;
 * an upper box on each of its two supports at the 4 corners of the overlap
 * rectangle of the touching faces (x over half a width, y over the depth).
 * Four points on one face of rigid bodies: the contact set is redundant (A
 * is singular, the forces are not unique).  4 B^2 contacts in all. */
static int scene_pyramid(const gen_params *g, rb_scene *s)
{
    long B = g->base;
    double w = g->width, d = g->depth, h = g->height, m = g->mass;
    if (scene_alloc(s, B * (B + 1) / 2, 4 * B * B)) return LCP_ERROR;
    long nb = 0, nc = 0;
    long *row0 = lcp_alloc((size_t)B, sizeof *row0); /* index of box 0 of each row */
    if (!row0) {
        lcp_rb_scene_free(s);
        return LCP_ERROR;
    }
    for (long k = 0; k < B; k++) {
        row0[k] = nb;
        for (long j = 0; j < B - k; j++) {
            rb_body *bd = &s->body[nb++];
            bd->m = m;
            set3(bd->x, ((double)j + 0.5 * (double)k - 0.5 * (double)(B - 1)) * w, 0.0,
                 0.5 * h + (double)k * h);
            inertia_diag(bd->I, m / 12.0 * (d * d + h * h), m / 12.0 * (w * w + h * h),
                         m / 12.0 * (w * w + d * d));
        }
    }
    for (long k = 0; k < B; k++) {
        for (long j = 0; j < B - k; j++) {
            int up = (int)(row0[k] + j);
            const rb_body *U = &s->body[up];
            int nsup = k == 0 ? 1 : 2;
            for (int q = 0; q < nsup; q++) {
                int lo = k == 0 ? -1 : (int)(row0[k - 1] + j + q); /* body below */
                double x0 = U->x[0] - 0.5 * w, x1 = U->x[0] + 0.5 * w;
                if (lo >= 0) { /* overlap with the support in x */
                    x0 = fmax(x0, s->body[lo].x[0] - 0.5 * w);
                    x1 = fmin(x1, s->body[lo].x[0] + 0.5 * w);
                }
                double z = (double)k * h;
                const double cx[4] = {x0, x1, x1, x0}, cy[4] = {-0.5 * d, -0.5 * d, 0.5 * d, 0.5 * d};
                for (int c = 0; c < 4; c++) {
                    rb_contact *C = &s->con[nc++];
                    C->a = lo;
                    C->b = up;
                    set3(C->p, cx[c], cy[c], z);
                    set3(C->n, 0.0, 0.0, 1.0);
                }
            }
        }
    }
    free(row0);
    return 0;
}

/* granular: L layers of solid spheres of radius r (--base B, --layers L).
 * Even layers hold a B x B square grid of spacing 2r; odd layers a
 * (B-1) x (B-1) grid in the hollows, shifted by (r, r) and raised by
 * sqrt(2) r, so each of their spheres touches the 4 below (normals at 45
 * degrees), and an even layer above an odd one sits in its hollows the same
 * way (a face-centred cubic packing).  Each lattice site is left empty with
 * probability --holes (seeded): spheres above a hole have fewer supports,
 * and the contact graph is irregular.  Contacts: every pair of spheres at
 * distance 2r (beside: along x and y in a layer; below: the 4 hollow
 * neighbours), and every sphere of layer 0 with the ground.  The normal
 * points from the lower (or, in a layer, the first) sphere to the other. */
static int scene_granular(const gen_params *g, rb_scene *s)
{
    long B = g->base, L = g->layers;
    double r = g->radius, m = g->mass, h = sqrt(2.0) * r;
    uint64_t rng = g->seed;
    /* site (k, i, j) -> body index or -1; layer k has side B - k % 2 */
    long nsite = 0;
    for (long k = 0; k < L; k++) nsite += (B - k % 2) * (B - k % 2);
    long *site = lcp_alloc((size_t)(nsite > 0 ? nsite : 1), sizeof *site), *first = lcp_alloc((size_t)L, sizeof *first);
    if (!site || !first) {
        free(site);
        free(first);
        return LCP_ERROR;
    }
    long nb = 0, q = 0;
    for (long k = 0; k < L; k++) {
        first[k] = q;
        for (long t = 0; t < (B - k % 2) * (B - k % 2); t++, q++)
            site[q] = rng_uniform(&rng) < g->holes ? -1 : nb++;
    }
#define SITE(k, i, j) site[first[k] + (i) * (B - (k) % 2) + (j)]
    /* contacts: at most 1 (ground) or 4 (below) + 2 (beside) a sphere */
    if (scene_alloc(s, nb > 0 ? nb : 1, 6 * (nb > 0 ? nb : 1))) {
        free(site);
        free(first);
        return LCP_ERROR;
    }
    s->nb = (int)nb;
    long nc = 0;
    for (long k = 0; k < L; k++) {
        long side = B - k % 2;
        double off = k % 2 ? r : 0.0;
        for (long i = 0; i < side; i++)
            for (long j = 0; j < side; j++) {
                long b = SITE(k, i, j);
                if (b < 0) continue;
                rb_body *bd = &s->body[b];
                bd->m = m;
                set3(bd->x, off + 2.0 * r * (double)i, off + 2.0 * r * (double)j, r + h * (double)k);
                double Is = 0.4 * m * r * r;
                inertia_diag(bd->I, Is, Is, Is);
            }
    }
    for (long k = 0; k < L; k++) {
        long side = B - k % 2;
        for (long i = 0; i < side; i++)
            for (long j = 0; j < side; j++) {
                long b = SITE(k, i, j);
                if (b < 0) continue;
                long nbr[6];
                int nn = 0;
                if (k > 0) { /* the 4 hollow neighbours below */
                    long d = k % 2 ? 0 : -1; /* an odd layer is shifted by +r over the even one */
                    for (long di = 0; di < 2; di++)
                        for (long dj = 0; dj < 2; dj++) {
                            long ii = i + d + di, jj = j + d + dj, sb = B - (k - 1) % 2;
                            if (ii >= 0 && jj >= 0 && ii < sb && jj < sb && SITE(k - 1, ii, jj) >= 0)
                                nbr[nn++] = SITE(k - 1, ii, jj);
                        }
                }
                if (i + 1 < side && SITE(k, i + 1, j) >= 0) nbr[nn++] = SITE(k, i + 1, j);
                if (j + 1 < side && SITE(k, i, j + 1) >= 0) nbr[nn++] = SITE(k, i, j + 1);
                const double *xb = s->body[b].x;
                if (k == 0) { /* the ground */
                    rb_contact *C = &s->con[nc++];
                    C->a = -1;
                    C->b = (int)b;
                    set3(C->p, xb[0], xb[1], 0.0);
                    set3(C->n, 0.0, 0.0, 1.0);
                }
                for (int t = 0; t < nn; t++) {
                    const double *xa = s->body[nbr[t]].x;
                    double d[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
                    double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                    /* the normal from the lower sphere up, or in a layer from the earlier one */
                    int up = d[2] > 0.5 * r || (d[2] > -0.5 * r && (d[0] + d[1]) < 0.0);
                    rb_contact *C = &s->con[nc++];
                    C->a = up ? (int)nbr[t] : (int)b;
                    C->b = up ? (int)b : (int)nbr[t];
                    double sg = up ? 1.0 : -1.0;
                    set3(C->n, sg * d[0] / len, sg * d[1] / len, sg * d[2] / len);
                    const double *xl = up ? xa : xb;
                    set3(C->p, xl[0] + r * C->n[0], xl[1] + r * C->n[1], xl[2] + r * C->n[2]);
                }
            }
    }
#undef SITE
    s->nc = (int)nc;
    free(site);
    free(first);
    return 0;
}

/* A K x K grid of contact points (K >= 2: the corners for K = 2) on the
 * rectangle [x0, x1] x [y0, y1] at height z, between body a (below; -1 the
 * ground) and body b (above), normal +z: the face-face contact of two
 * boxes, or of a box and the ground, as K^2 points.  Appends at s->con[*nc]. */
static void face_grid(rb_scene *s, long *nc, int a, int b, double x0, double x1, double y0,
                      double y1, double z, long K)
{
    for (long i = 0; i < K; i++)
        for (long j = 0; j < K; j++) {
            rb_contact *C = &s->con[(*nc)++];
            C->a = a;
            C->b = b;
            set3(C->p, x0 + (x1 - x0) * (double)j / (double)(K - 1),
                 y0 + (y1 - y0) * (double)i / (double)(K - 1), z);
            set3(C->n, 0.0, 0.0, 1.0);
        }
}

/* Inertia of a solid box w x d x h (x, y, z) about its centre. */
static void inertia_box(double *I, double m, double w, double d, double h)
{
    inertia_diag(I, m / 12.0 * (d * d + h * h), m / 12.0 * (w * w + h * h),
                 m / 12.0 * (w * w + d * d));
}

/* tower: L layers (--layers) of P planks (--planks) of size w x d x h
 * (--width: the long side, --depth, --height: the thickness; Kapla-like
 * defaults 0.12 x 0.024 x 0.008 m, 12 g).  Even layers lie along x, odd ones
 * along y (rotated 90 degrees about z: the inertia tensor's x and y entries
 * swap).  In a layer the planks are spread evenly across the length of the
 * planks below: plank j at c_j = (j - (P-1)/2) (w - d) / (P - 1) (c = 0 for
 * P = 1), so the outer ones lie flush with the ends below; layer k at
 * z = h/2 + k h.  Every plank of layer k >= 1 crosses every plank of layer
 * k-1 over a d x d square: 4 contacts at its corners.  Layer 0 stands on the
 * ground: 4 contacts at the corners of each plank's bottom face.
 * 4 P + 4 P^2 (L - 1) contacts; like pyramid, A is singular. */
static int scene_tower(const gen_params *g, rb_scene *s)
{
    long L = g->layers, P = g->planks;
    double w = g->width, d = g->depth, h = g->height, m = g->mass;
    if (scene_alloc(s, L * P, 4 * P + 4 * P * P * (L - 1))) return LCP_ERROR;
    long nc = 0;
    for (long k = 0; k < L; k++)
        for (long j = 0; j < P; j++) {
            rb_body *B = &s->body[k * P + j];
            double c = P > 1 ? ((double)j - 0.5 * (double)(P - 1)) * (w - d) / (double)(P - 1) : 0.0;
            B->m = m;
            if (k % 2 == 0) {
                set3(B->x, 0.0, c, 0.5 * h + (double)k * h);
                inertia_box(B->I, m, w, d, h);
            } else {
                set3(B->x, c, 0.0, 0.5 * h + (double)k * h);
                inertia_box(B->I, m, d, w, h);
            }
        }
    for (long k = 0; k < L; k++) {
        /* half extents of a plank of layer k (and of k - 1) along x and y */
        double hx = k % 2 ? 0.5 * d : 0.5 * w, hy = k % 2 ? 0.5 * w : 0.5 * d;
        for (long j = 0; j < P; j++) {
            int up = (int)(k * P + j);
            const double *xu = s->body[up].x;
            if (k == 0) {
                face_grid(s, &nc, -1, up, xu[0] - hx, xu[0] + hx, xu[1] - hy, xu[1] + hy, 0.0, 2);
                continue;
            }
            for (long i = 0; i < P; i++) { /* the crossing with plank i below */
                int lo = (int)((k - 1) * P + i);
                const double *xl = s->body[lo].x;
                face_grid(s, &nc, lo, up, fmax(xu[0] - hx, xl[0] - hy), fmin(xu[0] + hx, xl[0] + hy),
                          fmax(xu[1] - hy, xl[1] - hx), fmin(xu[1] + hy, xl[1] + hx),
                          (double)k * h, 2);
            }
        }
    }
    return 0;
}

/* mass-ratio: heavy on light.  The column of N spheres (--bodies N, as
 * scene_column builds it: radius r, on the ground, one contact under each)
 * with every sphere of mass m (--mass) except the top one, R m (--ratio R),
 * inertia scaled with it (a denser sphere).  (column --mass-ratio spreads
 * the masses geometrically instead.)  A light sphere held between two
 * parallel contacts only feels their difference through the heavy body's
 * mobility 1/(R m): the top rows of A approach [1 -1; -1 1]/m and its
 * condition number grows like R; the load R m g dt has to travel down
 * the column, so PGS needs about R sweeps (N = 4:
 * condition 1.4e7 for R = 1e6; pgs 5,900 sweeps to 1e-10 for R = 100,
 * 590,000 for R = 1e4). */
static int scene_mass_ratio(const gen_params *g, rb_scene *s)
{
    if (scene_column(g, s)) return LCP_ERROR;
    rb_body *top = &s->body[s->nb - 1];
    top->m *= g->ratio;
    for (int k = 0; k < 9; k++) top->I[k] *= g->ratio;
    return 0;
}

/* redundant: N boxes w x d x h (--bodies, --width, --depth, --height)
 * stacked on the ground, box k centred at (0, 0, h/2 + k h), each face-face
 * contact (box on ground, box on box) a K x K grid of points (--points K)
 * over the full w x d face.  A face of two rigid bodies takes 3 independent
 * normal rows (a push and two tilts) and 6 with friction, so of the N K^2
 * rows (3 N K^2 with --mu) only 3 N (6 N) are independent: A is
 * rank-deficient by N (K^2 - 3) (N (3 K^2 - 6)), lambda is not unique and
 * w is. */
static int scene_redundant(const gen_params *g, rb_scene *s)
{
    long N = g->bodies, K = g->points;
    double w = g->width, d = g->depth, h = g->height;
    if (scene_alloc(s, N, N * K * K)) return LCP_ERROR;
    long nc = 0;
    for (long k = 0; k < N; k++) {
        rb_body *B = &s->body[k];
        B->m = g->mass;
        set3(B->x, 0.0, 0.0, 0.5 * h + (double)k * h);
        inertia_box(B->I, g->mass, w, d, h);
        face_grid(s, &nc, (int)k - 1, (int)k, -0.5 * w, 0.5 * w, -0.5 * d, 0.5 * d, (double)k * h, K);
    }
    return 0;
}

/* chain: N links (--links), each a solid capsule of radius r (--radius) and
 * cylinder length l (--length), mass m; its tips (on the axis, l/2 + r from
 * the centre) are where the ropes attach.  The chain hangs straight from
 * the fixed anchor O along u = (sin a, 0, -cos a), a = --angle (a swinging
 * chain released at rest; 0: hanging still): with pitch P = l + 2 r + g,
 *   top tip of link i = O + u (g + i P),  centre = O + u (g + i P + l/2 + r).
 * Rope i joins the anchor (i = 0) or the bottom tip of link i-1 to the top
 * tip of link i, length g (--gap), taut.  Its row is the unilateral
 * inextensibility constraint g - |p_i - p_{i-1}| >= 0, by velocity
 *   -u . (v_tip_i - v_tip_{i-1}) >= 0,
 * with the tension lambda_i >= 0 pulling the link toward the one above: a
 * contact (rb_contact) with normal -u from link i-1 (a) to link i (b) at the
 * rope's midpoint (any point on the rope's line gives the same row).  The
 * anchor is at the height that puts the chain's lowest point (on the bottom
 * hemisphere of the last link) at z = 0; with --ground that point is a
 * contact with the ground, normal +z (N + 1 rows; the last link is then
 * held by the ground and its rope together, so A is singular).
 * Capsule inertia: cylinder m_c (l^2/12 + r^2/4) plus hemispheres
 * m_s (2 r^2/5 + l^2/4 + 3 l r/8) across the axis, m_c r^2/2 + 2 m_s r^2/5
 * along it (m_c, m_s by volume), turned to the world frame:
 * I = I_t (E - u u') + I_a u u'. */
static int scene_chain(const gen_params *g, rb_scene *s)
{
    long N = g->links;
    double r = g->radius, l = g->length, gp = g->gap, m = g->mass;
    double a = g->angle * M_PI / 180.0, u[3] = {sin(a), 0.0, -cos(a)};
    double P = l + 2.0 * r + gp;
    double vc = M_PI * r * r * l, vs = 4.0 / 3.0 * M_PI * r * r * r;
    double mc = m * vc / (vc + vs), ms = m * vs / (vc + vs);
    double It = mc * (l * l / 12.0 + r * r / 4.0) + ms * (0.4 * r * r + l * l / 4.0 + 0.375 * l * r);
    double Ia = 0.5 * mc * r * r + 0.4 * ms * r * r;
    /* lowest point: bottom hemisphere centre of link N-1, minus r in z */
    double O[3] = {0.0, 0.0, cos(a) * (gp + (double)(N - 1) * P + r + l) + r};
    if (scene_alloc(s, N, N + (g->ground ? 1 : 0))) return LCP_ERROR;
    for (long i = 0; i < N; i++) {
        rb_body *B = &s->body[i];
        double t = gp + (double)i * P + 0.5 * l + r;
        B->m = m;
        for (int k = 0; k < 3; k++) B->x[k] = O[k] + t * u[k];
        for (int p = 0; p < 3; p++)
            for (int q = 0; q < 3; q++)
                B->I[3 * p + q] = (p == q ? It : 0.0) + (Ia - It) * (u[p] * u[q]); /* symmetric */
        rb_contact *C = &s->con[i];
        C->a = (int)i - 1; /* -1 for i = 0: the anchor */
        C->b = (int)i;
        double tm = (double)i * P + 0.5 * gp; /* the rope's midpoint */
        for (int k = 0; k < 3; k++) {
            C->p[k] = O[k] + tm * u[k];
            C->n[k] = -u[k];
        }
    }
    if (g->ground) {
        rb_contact *C = &s->con[N];
        const double *x = s->body[N - 1].x;
        C->a = -1;
        C->b = (int)N - 1;
        set3(C->p, x[0] + 0.5 * l * u[0], x[1] + 0.5 * l * u[1], x[2] + 0.5 * l * u[2] - r);
        set3(C->n, 0.0, 0.0, 1.0);
    }
    return 0;
}

/* --piles K: K copies of the scene, the k-th shifted by k times (the
 * scene's extent + 1 m) along y, so no two copies touch: K components of
 * the contact graph. */
static int replicate(rb_scene *s, long K)
{
    if (K <= 1) return 0;
    if ((long)s->nb * K > MAX_BODIES * 4 || (long)s->nc * K > INT_MAX / 3) return LCP_ERROR;
    double ymin = INFINITY, ymax = -INFINITY;
    for (int b = 0; b < s->nb; b++) ymin = fmin(ymin, s->body[b].x[1]), ymax = fmax(ymax, s->body[b].x[1]);
    for (int c = 0; c < s->nc; c++) ymin = fmin(ymin, s->con[c].p[1]), ymax = fmax(ymax, s->con[c].p[1]);
    double gap = (s->nb ? ymax - ymin : 0.0) + 1.0;
    rb_scene r;
    if (scene_alloc(&r, (long)s->nb * K, (long)s->nc * K)) return LCP_ERROR;
    for (long k = 0; k < K; k++) {
        for (int b = 0; b < s->nb; b++) {
            rb_body *d = &r.body[k * s->nb + b];
            *d = s->body[b];
            d->x[1] += (double)k * gap;
        }
        for (int c = 0; c < s->nc; c++) {
            rb_contact *d = &r.con[k * s->nc + c];
            *d = s->con[c];
            d->p[1] += (double)k * gap;
            if (d->a >= 0) d->a += (int)(k * s->nb);
            d->b += (int)(k * s->nb);
        }
    }
    lcp_rb_scene_free(s);
    *s = r;
    return 0;
}

/* The scene of g (one of the rigid-body scenes), then --piles copies. */
int lcp_gen_rigid_scene(const gen_params *g, rb_scene *s)
{
    int status;
    switch (g->scene->id) {
    case SC_COLUMN: status = scene_column(g, s); break;
    case SC_PYRAMID: status = scene_pyramid(g, s); break;
    case SC_GRANULAR: status = scene_granular(g, s); break;
    case SC_TOWER: status = scene_tower(g, s); break;
    case SC_MASS_RATIO: status = scene_mass_ratio(g, s); break;
    case SC_REDUNDANT: status = scene_redundant(g, s); break;
    default: status = scene_chain(g, s); break;
    }
    if (!status) status = replicate(s, g->piles);
    return status;
}
