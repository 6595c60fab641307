/* src/precond/registry.c: the only file that lists the preconditioners.  To
 * add one: write one file in src/precond/ exporting a `const
 * lcp_precond_type`, and add one line below. */
#include "precond.h"

#include <stdlib.h>
#include <string.h>

extern const lcp_precond_type lcp_precond_diag, lcp_precond_ichol, lcp_precond_spai, lcp_precond_mg;

static const lcp_precond_type *const preconds[] = {
    &lcp_precond_diag,  /* src/precond/diag.c */
    &lcp_precond_ichol, /* src/precond/ichol.c */
    &lcp_precond_spai,  /* src/precond/spai.c */
    &lcp_precond_mg,    /* src/precond/mg.c */
    NULL,
};

const lcp_precond_type *const *lcp_precond_list(void) { return preconds; }

const lcp_precond_type *lcp_precond_find(const char *name)
{
    for (int i = 0; preconds[i]; i++)
        if (!strcmp(preconds[i]->name, name)) return preconds[i];
    return NULL;
}

const char *lcp_precond_names(void)
{
    static _Thread_local char names[256];
    if (!*names) {
        strcpy(names, "none");
        for (int i = 0; preconds[i]; i++)
            if (strlen(names) + strlen(preconds[i]->name) + 3 < sizeof names) {
                strcat(names, ", ");
                strcat(names, preconds[i]->name);
            }
    }
    return names;
}

int lcp_precond_setup(lcp_precond *P, const lcp_precond_type *t, const lcp_csr *A,
                      const struct lcp_settings_s *s, lcp_err *err)
{
    P->type = t;
    P->n = A->n;
    P->state = NULL;
    if (!t) return 0;
    int rc = t->setup(A, s, &P->state, err);
    if (rc) P->type = NULL;
    return rc;
}

void lcp_precond_apply(const lcp_precond *P, const double *r, double *y)
{
    if (P->type) P->type->apply(P->state, r, y);
    else memcpy(y, r, (size_t)P->n * sizeof(double));
}

void lcp_precond_free(lcp_precond *P)
{
    if (P && P->type && P->state) P->type->free(P->state);
    if (P) {
        P->type = NULL;
        P->state = NULL;
    }
}
