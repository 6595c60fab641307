/* src/io/plan.c: experiment plans (see src/io/plan.h), YAML through libyaml's
 * document loader (every node carries its line). */
#include "plan.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <yaml.h>

typedef struct {
    const char *file;
    yaml_document_t *doc;
    lcp_plan *plan;
    lcp_plan_check_fn check;
    void *ctx;
    lcp_err *err;
} reader;

static long line_of(const yaml_node_t *n) { return (long)n->start_mark.line + 1; }

static int fail(reader *r, const yaml_node_t *n, const char *fmt, const char *a, const char *b)
{
    char msg[700];
    snprintf(msg, sizeof msg, fmt, a, b);
    return lcp_fail(r->err, LCP_INPUT_ERROR, r->file, n ? line_of(n) : 0, "%s", msg);
}

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* the plan-level keys that are not options */
static const char *const plan_keys[] = {"problems", "configs", "repeats", "grace", "output", "traces", NULL};

static int is_plan_key(const char *k)
{
    for (int i = 0; plan_keys[i]; i++)
        if (!strcmp(plan_keys[i], k)) return 1;
    return 0;
}

int lcp_plan_bool(const char *v)
{
    static const char *const yes[] = {"true", "yes", "on", "1", NULL}, *const no[] = {"false", "no", "off", "0", NULL};
    for (int i = 0; yes[i]; i++)
        if (!strcasecmp(v, yes[i])) return 1;
    for (int i = 0; no[i]; i++)
        if (!strcasecmp(v, no[i])) return 0;
    return -1;
}

static char *join(const char *dir, const char *path)
{
    if (path[0] == '/' || !strcmp(dir, ".")) return lcp_strdup(path);
    size_t len = strlen(dir) + strlen(path) + 2;
    char *s = malloc(len);
    if (s) snprintf(s, len, "%s/%s", dir, path);
    return s;
}

/* One option (a default or a configuration's): checked, appended to *v. */
static int add_option(reader *r, const yaml_node_t *kn, const yaml_node_t *vn, lcp_plan_opt **v, int *nv)
{
    const char *k = scalar(kn), *val = scalar(vn);
    if (!val) return fail(r, vn, "'%s': the value must be a scalar (a number, a name)%s", k, "");
    for (int i = 0; i < *nv; i++)
        if (!strcmp((*v)[i].key, k)) {
            char first[32];
            snprintf(first, sizeof first, "%ld", (*v)[i].line);
            return fail(r, kn, "'%s' given twice (first on line %s)", k, first);
        }
    int flag = 0;
    if (r->check) {
        char msg[600] = "";
        if (r->check(r->ctx, k, val, &flag, msg, sizeof msg)) return fail(r, kn, "%s%s", msg, "");
    }
    lcp_plan_opt *nvp = realloc(*v, (size_t)(*nv + 1) * sizeof **v);
    if (!nvp) return lcp_fail(r->err, LCP_ERROR, r->file, 0, "out of memory");
    *v = nvp;
    lcp_plan_opt *o = &(*v)[(*nv)++];
    o->key = lcp_strdup(k);
    o->value = lcp_strdup(val);
    o->line = line_of(kn);
    o->flag = flag;
    if (!o->key || !o->value) return lcp_fail(r->err, LCP_ERROR, r->file, 0, "out of memory");
    return 0;
}

static int name_ok(const char *s)
{
    if (!*s || strstr(s, "__") || s[0] == '.') return 0;
    for (const char *c = s; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("._+-", *c)))
            return 0;
    return 1;
}

static int read_config(reader *r, const yaml_node_t *n, int k)
{
    lcp_plan *p = r->plan;
    lcp_plan_config *c = &p->configs[k];
    c->line = line_of(n);
    if (n->type != YAML_MAPPING_NODE)
        return fail(r, n, "a configuration is a mapping of options, e.g. {name: pgs, solver: pgs}%s%s", "", "");
    for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
        yaml_node_t *kn = yaml_document_get_node(r->doc, pr->key), *vn = yaml_document_get_node(r->doc, pr->value);
        const char *key = scalar(kn);
        if (!key) return fail(r, kn, "configuration keys must be names%s%s", "", "");
        if (!strcmp(key, "name")) {
            const char *v = scalar(vn);
            if (c->name) return fail(r, kn, "'name' given twice%s%s", "", "");
            if (!v || !name_ok(v))
                return fail(r, vn, "name '%s': use letters, digits and . _ + - (no '__', it separates "
                                   "CONFIG__PROBLEM in trace names)%s", v ? v : "", "");
            if (!(c->name = lcp_strdup(v))) return lcp_fail(r->err, LCP_ERROR, r->file, 0, "out of memory");
            continue;
        }
        if (is_plan_key(key))
            return fail(r, kn, "'%s' is a plan key: it belongs at the top level, not in a configuration%s", key, "");
        int rc = add_option(r, kn, vn, &c->opt, &c->nopt);
        if (rc) return rc;
    }
    if (!c->name) { /* solver[-precond], or config-K */
        const char *s = NULL, *pc = NULL;
        for (int i = 0; i < c->nopt; i++) {
            if (!strcmp(c->opt[i].key, "solver")) s = c->opt[i].value;
            if (!strcmp(c->opt[i].key, "precond")) pc = c->opt[i].value;
        }
        char buf[128];
        if (s && pc && strcmp(pc, "none")) snprintf(buf, sizeof buf, "%s-%s", s, pc);
        else if (s) snprintf(buf, sizeof buf, "%s", s);
        else snprintf(buf, sizeof buf, "config-%d", k + 1);
        if (!(c->name = lcp_strdup(buf))) return lcp_fail(r->err, LCP_ERROR, r->file, 0, "out of memory");
    }
    for (int j = 0; j < k; j++)
        if (!strcmp(p->configs[j].name, c->name)) {
            char other[32];
            snprintf(other, sizeof other, "%ld", p->configs[j].line);
            return fail(r, n, "configuration name '%s' used twice (also on line %s): give each its own name:", c->name,
                        other);
        }
    return 0;
}

static int is_problem_entry(const char *path, const struct stat *st)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (base[0] == '.') return 0;
    if (S_ISDIR(st->st_mode)) return 1;
    static const char *const ext[] = {".json", ".dat", ".hdf5", ".h5", NULL};
    size_t n = strlen(base);
    for (int i = 0; ext[i]; i++) {
        size_t e = strlen(ext[i]);
        if (n > e && !strcasecmp(base + n - e, ext[i])) return 1;
    }
    return 0;
}

static int add_problem(reader *r, const char *path, long line)
{
    lcp_plan *p = r->plan;
    for (int i = 0; i < p->nproblems; i++)
        if (!strcmp(p->problems[i].path, path)) return 0; /* matched by two patterns */
    lcp_plan_problem *np = realloc(p->problems, (size_t)(p->nproblems + 1) * sizeof *np);
    if (!np) return lcp_fail(r->err, LCP_ERROR, r->file, 0, "out of memory");
    p->problems = np;
    lcp_plan_problem *e = &p->problems[p->nproblems];
    memset(e, 0, sizeof *e);
    e->line = line;
    if (!(e->path = lcp_strdup(path))) return lcp_fail(r->err, LCP_ERROR, r->file, 0, "out of memory");
    p->nproblems++;
    /* the short name: basename without trailing '/' and one known extension, safe characters */
    char base[256];
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/') len--;
    size_t start = len;
    while (start > 0 && path[start - 1] != '/') start--;
    size_t bl = len - start < sizeof base - 8 ? len - start : sizeof base - 8;
    memcpy(base, path + start, bl);
    base[bl] = '\0';
    static const char *const ext[] = {".json", ".dat", ".hdf5", ".h5", NULL};
    for (int i = 0; ext[i]; i++) {
        size_t el = strlen(ext[i]);
        if (bl > el && !strcasecmp(base + bl - el, ext[i])) {
            base[bl - el] = '\0';
            break;
        }
    }
    for (char *c = base; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("._+-", *c)))
            *c = '_';
    if (!*base) strcpy(base, "problem");
    char name[272];
    snprintf(name, sizeof name, "%s", base);
    for (int k = 2;; k++) {
        int clash = 0;
        for (int i = 0; i < p->nproblems - 1 && !clash; i++) clash = !strcmp(p->problems[i].name, name);
        if (!clash) break;
        snprintf(name, sizeof name, "%s-%d", base, k);
    }
    if (!(e->name = lcp_strdup(name))) return lcp_fail(r->err, LCP_ERROR, r->file, 0, "out of memory");
    return 0;
}

static int read_pattern(reader *r, const yaml_node_t *n)
{
    const char *pat = scalar(n);
    if (!pat || !*pat) return fail(r, n, "a problem is a path or a glob (a string)%s%s", "", "");
    char *full = join(r->plan->dir, pat);
    if (!full) return lcp_fail(r->err, LCP_ERROR, r->file, 0, "out of memory");
    int rc = 0;
    struct stat st;
    if (!strpbrk(pat, "*?[")) {
        if (stat(full, &st) != 0) rc = fail(r, n, "problem '%s': %s", full, strerror(errno));
        else rc = add_problem(r, full, line_of(n));
        free(full);
        return rc;
    }
    glob_t g;
    int grc = glob(full, 0, NULL, &g);
    int found = 0;
    if (grc == 0)
        for (size_t i = 0; i < g.gl_pathc && !rc; i++)
            if (stat(g.gl_pathv[i], &st) == 0 && is_problem_entry(g.gl_pathv[i], &st)) {
                rc = add_problem(r, g.gl_pathv[i], line_of(n));
                found++;
            }
    if (!rc && !found)
        rc = fail(r, n, "'%s' matches no problem (a folder, .json, .dat, .hdf5 or .h5 file; looked for %s)", pat, full);
    if (grc == 0 || grc == GLOB_NOMATCH) globfree(&g);
    free(full);
    return rc;
}

static int read_root(reader *r, yaml_node_t *root)
{
    lcp_plan *p = r->plan;
    if (root->type != YAML_MAPPING_NODE)
        return fail(r, root, "a plan is a mapping (problems:, configs:, repeats:, output:, ...)%s%s", "", "");
    const yaml_node_t *problems = NULL, *configs = NULL;
    /* first pass: plan keys and repeated keys */
    for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
        yaml_node_t *kn = yaml_document_get_node(r->doc, pr->key), *vn = yaml_document_get_node(r->doc, pr->value);
        const char *key = scalar(kn);
        if (!key) return fail(r, kn, "plan keys must be names%s%s", "", "");
        for (yaml_node_pair_t *q = root->data.mapping.pairs.start; q < pr; q++)
            if (scalar(yaml_document_get_node(r->doc, q->key)) &&
                !strcmp(scalar(yaml_document_get_node(r->doc, q->key)), key)) {
                char first[32];
                snprintf(first, sizeof first, "%ld", line_of(yaml_document_get_node(r->doc, q->key)));
                return fail(r, kn, "'%s' given twice (first on line %s)", key, first);
            }
        const char *v = scalar(vn);
        if (!strcmp(key, "problems")) problems = vn;
        else if (!strcmp(key, "configs")) configs = vn;
        else if (!strcmp(key, "repeats")) {
            char *end;
            errno = 0;
            long k = v ? strtol(v, &end, 10) : 0;
            if (!v || end == v || *end || errno || k < 1 || k > 10000)
                return fail(r, vn, "repeats: '%s' is not an integer from 1 to 10000%s", v ? v : "", "");
            p->repeats = (int)k;
        } else if (!strcmp(key, "grace")) {
            char *end;
            errno = 0;
            double x = v ? strtod(v, &end) : -1;
            if (!v || end == v || *end || errno || !(x >= 0 && x <= 1e6))
                return fail(r, vn, "grace: '%s' is not a number of seconds >= 0%s", v ? v : "", "");
            p->grace = x;
        } else if (!strcmp(key, "output") || !strcmp(key, "traces")) {
            if (!v || !*v) return fail(r, vn, "%s: needs a path%s", key, "");
            char *s = join(p->dir, v);
            if (!s) return lcp_fail(r->err, LCP_ERROR, r->file, 0, "out of memory");
            if (!strcmp(key, "output")) p->output = s;
            else p->traces = s;
        } else {
            int rc = add_option(r, kn, vn, &p->defaults, &p->ndefaults);
            if (rc) return rc;
        }
    }
    if (!configs) return fail(r, root, "no 'configs:' list (the solver configurations to run)%s%s", "", "");
    if (!problems) return fail(r, root, "no 'problems:' list (paths and globs)%s%s", "", "");
    /* configurations */
    if (configs->type != YAML_SEQUENCE_NODE || configs->data.sequence.items.top == configs->data.sequence.items.start)
        return fail(r, configs, "configs: a non-empty list of configurations ({name: ..., solver: ...})%s%s", "", "");
    int nc = (int)(configs->data.sequence.items.top - configs->data.sequence.items.start);
    if (!(p->configs = lcp_calloc((size_t)nc, sizeof *p->configs)))
        return lcp_fail(r->err, LCP_ERROR, r->file, 0, "out of memory");
    for (int k = 0; k < nc; k++) {
        p->nconfigs = k + 1;
        int rc = read_config(r, yaml_document_get_node(r->doc, configs->data.sequence.items.start[k]), k);
        if (rc) return rc;
    }
    /* problems: a list of paths/globs, or one */
    if (problems->type == YAML_SCALAR_NODE) return read_pattern(r, problems);
    if (problems->type != YAML_SEQUENCE_NODE || problems->data.sequence.items.top == problems->data.sequence.items.start)
        return fail(r, problems, "problems: a non-empty list of paths and globs%s%s", "", "");
    for (yaml_node_item_t *it = problems->data.sequence.items.start; it < problems->data.sequence.items.top; it++) {
        int rc = read_pattern(r, yaml_document_get_node(r->doc, *it));
        if (rc) return rc;
    }
    return 0;
}

/* the line of a reader error (libyaml gives only a byte offset there) */
static long reader_error_line(FILE *f, size_t offset)
{
    long line = 1;
    rewind(f);
    for (size_t k = 0; k < offset; k++) {
        int ch = fgetc(f);
        if (ch == EOF) break;
        line += ch == '\n';
    }
    return line;
}

int lcp_plan_read(const char *path, lcp_plan_check_fn check, void *ctx, lcp_plan *plan, lcp_err *err)
{
    memset(plan, 0, sizeof *plan);
    plan->repeats = 1;
    plan->grace = 10;
    FILE *f = fopen(path, "rb");
    if (!f) return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "cannot open: %s", strerror(errno));
    plan->file = lcp_strdup(path);
    const char *slash = strrchr(path, '/');
    if (!slash) plan->dir = lcp_strdup(".");
    else if (slash == path) plan->dir = lcp_strdup("/");
    else if ((plan->dir = malloc((size_t)(slash - path) + 1))) {
        memcpy(plan->dir, path, (size_t)(slash - path));
        plan->dir[slash - path] = '\0';
    }
    if (!plan->file || !plan->dir) {
        fclose(f);
        return lcp_fail(err, LCP_ERROR, path, 0, "out of memory");
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser)) {
        fclose(f);
        return lcp_fail(err, LCP_ERROR, path, 0, "cannot start the YAML parser");
    }
    yaml_parser_set_input_file(&parser, f);
    int rc = 0;
    if (!yaml_parser_load(&parser, &doc)) {
        long line = parser.error == YAML_READER_ERROR ? reader_error_line(f, parser.problem_offset)
                                                      : (long)parser.problem_mark.line + 1;
        rc = lcp_fail(err, LCP_INPUT_ERROR, path, line, "YAML: %s%s%s", parser.problem ? parser.problem : "syntax error",
                      parser.context ? " " : "", parser.context ? parser.context : "");
    } else {
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        reader r = {path, &doc, plan, check, ctx, err};
        if (!root) rc = lcp_fail(err, LCP_INPUT_ERROR, path, 1, "empty plan (expected problems:, configs:, ...)");
        else rc = read_root(&r, root);
        if (!rc) { /* one document only */
            yaml_document_t more;
            if (!yaml_parser_load(&parser, &more)) {
                rc = lcp_fail(err, LCP_INPUT_ERROR, path, (long)parser.problem_mark.line + 1, "YAML: %s",
                              parser.problem ? parser.problem : "syntax error");
            } else {
                yaml_node_t *m = yaml_document_get_root_node(&more);
                if (m) rc = lcp_fail(err, LCP_INPUT_ERROR, path, line_of(m), "a plan is one YAML document");
                yaml_document_delete(&more);
            }
        }
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    fclose(f);
    if (!rc && !plan->output && !(plan->output = join(plan->dir, "results.csv")))
        rc = lcp_fail(err, LCP_ERROR, path, 0, "out of memory");
    if (rc) lcp_plan_free(plan);
    return rc;
}

const char *lcp_plan_value(const lcp_plan *plan, int k, const char *key)
{
    const lcp_plan_config *c = &plan->configs[k];
    for (int i = 0; i < c->nopt; i++)
        if (!strcmp(c->opt[i].key, key)) return c->opt[i].value;
    for (int i = 0; i < plan->ndefaults; i++)
        if (!strcmp(plan->defaults[i].key, key)) return plan->defaults[i].value;
    return NULL;
}

static void free_opts(lcp_plan_opt *o, int n)
{
    for (int i = 0; i < n; i++) {
        free(o[i].key);
        free(o[i].value);
    }
    free(o);
}

void lcp_plan_free(lcp_plan *plan)
{
    if (!plan) return;
    for (int i = 0; i < plan->nproblems; i++) {
        free(plan->problems[i].path);
        free(plan->problems[i].name);
    }
    free(plan->problems);
    for (int k = 0; k < plan->nconfigs; k++) {
        free(plan->configs[k].name);
        free_opts(plan->configs[k].opt, plan->configs[k].nopt);
    }
    free(plan->configs);
    free_opts(plan->defaults, plan->ndefaults);
    free(plan->file);
    free(plan->dir);
    free(plan->output);
    free(plan->traces);
    memset(plan, 0, sizeof *plan);
}
