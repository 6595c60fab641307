/* src/graph/graph.h: the contact graph of a problem, its components,
 * colourings and orderings.
 *
 * Nodes are the contacts: the rows of an lcp or blcp, the 3-row blocks of a
 * friction problem.  Two contacts are adjacent when A couples them (a
 * nonzero in block (u, v) or (v, u): for A = J M^-1 J' that is sharing a
 * body) or, for blcp, when one's bounds follow the other (findex).  Rows of
 * one colour class are therefore independent in a Gauss-Seidel sweep: they
 * may be updated in any order, or at once, with the same bits.
 */
#ifndef LCPSOLVE_GRAPH_H
#define LCPSOLVE_GRAPH_H

#include "../core/problem.h"

typedef struct {
    int n;     /* nodes (contacts) */
    int block; /* rows a node: 1 (lcp, blcp) or 3 (ccp, fc3d) */
    int *p;    /* adjacency in CSR form, n+1, without self loops, symmetric */
    int *j;
} lcp_graph;

int lcp_graph_build(const lcp_problem *p, lcp_graph *g, lcp_err *err);
void lcp_graph_free(lcp_graph *g);
static inline long lcp_graph_edges(const lcp_graph *g) { return g->p ? g->p[g->n] / 2 : 0; }

/* comp[v] = component of v, numbered from 0 by decreasing size (ties: the
 * smaller first node first); returns the number of components, or -1 on no
 * memory.  size (optional, n entries): size of each component. */
int lcp_graph_components(const lcp_graph *g, int *comp, int *size);
/* The same components straight from the problem (A's entries and blcp's
 * findex links, union-find), without building the graph: comp has
 * p->n / block entries (block 3 for the friction kinds). */
int lcp_problem_components(const lcp_problem *p, int *comp, int *size);

/* Colourings: colour[v] in 0..k-1 with no edge inside a class; returns k,
 * or -1 on no memory.  greedy: first fit in node order, then classes
 * balanced by moving nodes from the largest classes into smaller ones that
 * fit; dsatur: Brelaz's largest-saturation-first (usually fewer colours). */
enum { LCP_COLOUR_GREEDY = 0, LCP_COLOUR_DSATUR = 1 };
int lcp_graph_colour(const lcp_graph *g, int method, int *colour);

/* A sweep order over the nodes: perm[k] = the node visited k-th; for
 * colourings ncolours > 0 and the nodes of colour c are perm[cptr[c] ..
 * cptr[c+1]-1] (ascending within a class). */
typedef enum {
    LCP_ORDER_NATURAL = 0,
    LCP_ORDER_RCM,    /* reverse Cuthill-McKee */
    LCP_ORDER_AMD,    /* approximate minimum degree (SuiteSparse AMD) */
    LCP_ORDER_ND,     /* nested dissection (METIS through CHOLMOD) */
    LCP_ORDER_COLOUR, /* greedy balanced colour classes: parallel sweeps */
    LCP_ORDER_DSATUR, /* DSATUR colour classes: parallel sweeps */
} lcp_order_method;

typedef struct lcp_order {
    lcp_order_method method;
    int n, block;
    int *perm;
    int ncolours;
    int *cptr;
} lcp_order;

const char *lcp_order_name(lcp_order_method m);
int lcp_order_parse(const char *s, lcp_order_method *m); /* 0 if known */
int lcp_order_build(const lcp_problem *p, lcp_order_method m, lcp_order *o, lcp_err *err);
void lcp_order_free(lcp_order *o);

/* Facts for `lcpsolve info`. */
typedef struct {
    int nodes, components, largest;
    long edges;
    int deg_min, deg_max, deg_median;
    double deg_mean;
    long deg_hist[8]; /* degree 0, 1, 2-3, 4-7, 8-15, 16-31, 32-63, 64+ */
    int colours_greedy, colours_dsatur;
    double lap_lmax, lap_fiedler, lap_cond; /* Laplacian of the largest component (Lanczos estimates) */
    int lap_steps;
} lcp_graph_facts;

int lcp_graph_analyse(const lcp_graph *g, lcp_graph_facts *f);

/* Graphviz: one node a contact, filled by colour class (colour may be NULL). */
int lcp_graph_write_dot(const lcp_graph *g, const int *colour, const char *path, lcp_err *err);

#endif
