/* bench/mpi/pingpong.c: latency and bandwidth between two MPI processes
 * (the model inputs of scripts/bench-mpi).  Prints
 *   latency_s L  bandwidth_Bps B
 * from the median of repeated round trips of 8 bytes and of 8 MB. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double roundtrip(char *buf, int bytes, int rank, int reps)
{
    double *t = malloc((size_t)reps * sizeof *t);
    for (int r = 0; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
        }
        t[r] = (MPI_Wtime() - t0) / 2.0; /* one way */
    }
    qsort(t, (size_t)reps, sizeof *t, cmp);
    double m = t[reps / 2];
    free(t);
    return m;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0) fprintf(stderr, "pingpong: needs 2 processes\n");
        MPI_Finalize();
        return 2;
    }
    int big = 8 << 20;
    char *buf = calloc((size_t)big, 1);
    double lat = roundtrip(buf, 8, rank, 2001);
    double tb = roundtrip(buf, big, rank, 21);
    if (rank == 0) printf("latency_s %.3e bandwidth_Bps %.3e\n", lat, big / (tb - lat));
    free(buf);
    MPI_Finalize();
    return 0;
}
