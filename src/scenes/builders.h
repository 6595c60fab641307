/* src/scenes/builders.h: what the builders of src/scenes/ share and the rest of
 * the program does not see: the triplet lists their matrices are assembled
 * from (src/scenes/scenes.c), the bodies and contacts of a rigid-body scene
 * (src/scenes/geometry.c) turned into its problem (src/scenes/rigid.c), and
 * the matrix-only scenes (src/scenes/matrices.c). */
#ifndef LCPSOLVE_SCENES_BUILDERS_H
#define LCPSOLVE_SCENES_BUILDERS_H

#include "scenes.h"

/* ------------------------------------------------------------ triplets */

typedef struct {
    long n, cap;
    int *i, *j;
    double *x;
} triplets;

/* Appends (i, j, x): 0, or LCP_ERROR when out of memory. */
int lcp_trip_push(triplets *t, int i, int j, double x);
void lcp_trip_free(triplets *t);
/* The m x n CSR matrix of t (duplicates summed), t freed: 0 or LCP_ERROR. */
int lcp_trip_to_csr(triplets *t, int m, int n, lcp_csr *A);

/* ------------------------------------------------------- rigid bodies */

typedef struct {
    double m;    /* mass, kg */
    double x[3]; /* centre of mass, world frame, m */
    double I[9]; /* inertia tensor about the centre of mass, world frame, kg m^2, row-major */
} rb_body;

typedef struct {
    int a, b;    /* body below (-1: the static ground) and body above */
    double p[3]; /* contact point, world frame */
    double n[3]; /* unit normal, from a into b */
} rb_contact;

typedef struct {
    int nb, nc;
    rb_body *body;
    rb_contact *con;
} rb_scene;

void lcp_rb_scene_free(rb_scene *s);

/* The bodies and contacts of g's rigid-body scene, --piles copies of it
 * (0, or LCP_ERROR when out of memory). */
int lcp_gen_rigid_scene(const gen_params *g, rb_scene *s);

/* The factored and assembled forms of the scene s into res (with friction:
 * 3 rows a contact and mu); 0, or LCP_ERROR. */
int lcp_gen_build_rigid(const gen_params *g, const rb_scene *s, int friction, gen_result *res);

/* ------------------------------------------------------- matrix scenes */

int lcp_gen_build_random_spd(const gen_params *g, gen_result *res);
int lcp_gen_build_murty(const gen_params *g, gen_result *res);

#endif
