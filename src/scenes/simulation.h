/* src/scenes/simulation.h: the rigid-sphere simulation behind `lcpsolve
 * generate sequence` (src/scenes/simulation.c): its scenes, its spheres,
 * and a time step as two calls, the step's contact problem, then its solve
 * and the spheres moved by the impulses.  The command, which writes each
 * step's problem folder between the two, is src/cli/generate_sequence.c. */
#ifndef LCPSOLVE_SIMULATION_H
#define LCPSOLVE_SIMULATION_H

#include <stdint.h>

#include "../core/problem.h"

typedef struct {
    double m, I;            /* mass, moment of inertia (solid sphere: 2/5 m r^2) */
    double x[3], u[3], w[3]; /* position, linear and angular velocity */
} lcp_seq_sphere;

typedef struct {
    int scene; /* 0 column, 1 pyramid, 2 granular */
    long bodies, base, layers, steps;
    double radius, mass, mass_ratio, dt, gravity, mu, gap, jitter;
    int friction;
    const char *kind;
    uint64_t seed;
    const char *out;
    double box[2]; /* granular: walls at x = 0, box[0] and y = 0, box[1] */
} lcp_seq_params;

/* The scene names, by lcp_seq_params.scene. */
extern const char *const lcp_seq_scene_names[3];

/* What follows from the options once they are checked: the gap's default
 * (0.3 r), friction (mu >= 0) and the granular box. */
void lcp_seq_params_derive(lcp_seq_params *g);

/* The spheres of g's scene at time 0 (*out, nb of them, lcp_calloc'd):
 * 0, or LCP_ERROR when out of memory. */
int lcp_seq_build_scene(const lcp_seq_params *g, lcp_seq_sphere **out, int *nb);

/* The problem of one time step of the spheres S: the contacts detected, p
 * (initialised) gets kind, M, J, v, e, A, b and mu; *ids (lcp_alloc'd, the
 * caller frees it, also on an error) one persistent id a contact, *nc
 * contacts.  0, or LCP_ERROR when out of memory. */
int lcp_seq_step_problem(const lcp_seq_params *g, const lcp_seq_sphere *S, int nb, lcp_problem *p, double **ids,
                         int *nc);

/* Solves the step's problem p for the impulses (tolerance 1e-10) and moves
 * the spheres S with them; *res the residual of the answer taken.  0, or
 * an error (err says which; nothing said: out of memory). */
int lcp_seq_step_advance(const lcp_seq_params *g, lcp_seq_sphere *S, int nb, lcp_problem *p, double *res,
                         lcp_err *err);

#endif
