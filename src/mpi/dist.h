/* src/mpi/dist.h: one problem over MPI processes (make MPI=1 only).
 *
 * Every process reads the whole problem (the files are read alike on each);
 * the contact graph (src/graph) is partitioned over the processes by METIS
 * (k-way, fixed seed; computed on process 0 and broadcast), and each
 * process owns the rows of its contacts: it updates only those, and
 * receives the values of the others' rows that its rows read (the halo).
 *
 * The sweep of the colour-parallel solvers visits the greedy colour classes
 * of `--order colour` (src/graph/graph.h) in order; after a class each
 * process sends the new values of its rows of that class to the processes
 * whose rows read them.  Rows of a class share no entry of A, so the sweep
 * is the sequential colour-ordered sweep: the same bits for any number of
 * processes (and of threads).  Phase `ncolours` exchanges every boundary
 * row at once (the Jacobi and gradient solvers).
 *
 * The stopping test is the common one (src/solvers/monitor.c): each
 * process computes the residual's terms of its rows (src/core/verify.h,
 * lcp_verify_nodes), they are reduced over the processes with the clock
 * and the interrupt flag, and every process records the same metrics, so
 * all stop together.  At the end the owned parts of x (and of the best
 * iterate) are gathered on every process, and the run's verification runs
 * on the whole solution as for any solver. */
#ifndef LCPSOLVE_DIST_H
#define LCPSOLVE_DIST_H

#include <mpi.h>

#include "../solvers/solver.h"

typedef struct {
    MPI_Comm comm;
    int rank, size;
    int nodes, block;   /* contacts, rows a contact */
    int *part;          /* contact -> owning process */
    int nown, *own;     /* owned contacts, ascending */
    int ncolours;       /* colour classes; phase ncolours = all boundary rows */
    int *cptr, *cnodes; /* owned contacts of class c: cnodes[cptr[c] .. cptr[c+1]-1], ascending */
    int nnbr, *nbr;     /* neighbouring processes */
    /* phase f, neighbour k: send snodes[sptr[f*nnbr+k] ..], receive rnodes[rptr[f*nnbr+k] ..] (contacts) */
    int *sptr, *snodes, *rptr, *rnodes;
    double *sbuf, *rbuf;
    MPI_Request *req;
    int *counts, *displs; /* gather: rows a process, offsets */
    int *order;           /* gather: contacts in process order */
    double *gbuf;
    long bytes_sweep;     /* bytes all processes send in one colour sweep (all phases 0..ncolours-1) */
    long bytes_all;       /* ... in one exchange of phase ncolours */
} lcp_dist;

/* Partition, colouring and exchange lists; collective.  colours: build the
 * per-class lists (colour-parallel sweeps) besides phase ncolours. */
int lcp_dist_init(lcp_dist *d, const lcp_problem *p, int colours, lcp_err *err);
void lcp_dist_free(lcp_dist *d);

/* Sends the owned values of phase f's lists and receives the neighbours'
 * into x (rows of block contacts). */
void lcp_dist_exchange(lcp_dist *d, int f, double *x);

/* w = A x + b on the owned rows (x current on owned and halo rows), the
 * residual's terms reduced over the processes, and the common decision:
 * lcp_monitor_record on every process.  Returns its verdict. */
int lcp_dist_monitor(lcp_dist *d, lcp_monitor *mon, int iter, const double *x, const double *extra);

/* x whole on every process from the owned parts. */
void lcp_dist_gather(lcp_dist *d, double *x);

/* a + b over the processes (dot products) */
double lcp_dist_sum(lcp_dist *d, double v);

#endif
