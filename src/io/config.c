/* src/io/config.c: YAML solver configurations through libyaml: one flat
 * mapping of scalar keys to scalar values (see src/io/config.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

int lcp_config_read(const char *path, int (*set)(void *ctx, const char *key, const char *value, long line),
                    void *ctx, lcp_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return lcp_fail(err, LCP_INPUT_ERROR, path, 0, "cannot open: %s", strerror(errno));
    yaml_parser_t parser;
    yaml_event_t ev;
    if (!yaml_parser_initialize(&parser)) {
        fclose(f);
        return lcp_fail(err, LCP_ERROR, path, 0, "cannot start the YAML parser");
    }
    yaml_parser_set_input_file(&parser, f);
    int rc = 0, depth = 0, done = 0, seen_map = 0;
    char key[256] = "";
    int have_key = 0;
    while (!rc && !done) {
        if (!yaml_parser_parse(&parser, &ev)) {
            long eline = (long)parser.problem_mark.line + 1;
            if (parser.error == YAML_READER_ERROR) { /* only a byte offset: count the lines before it */
                eline = 1;
                rewind(f);
                for (size_t k = 0; k < parser.problem_offset; k++) {
                    int ch = fgetc(f);
                    if (ch == EOF) break;
                    eline += ch == '\n';
                }
            }
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, eline, "YAML: %s",
                          parser.problem ? parser.problem : "syntax error");
            break;
        }
        long line = (long)ev.start_mark.line + 1;
        switch (ev.type) {
        case YAML_STREAM_END_EVENT: done = 1; break;
        case YAML_MAPPING_START_EVENT:
            if (depth++ > 0 || seen_map)
                rc = lcp_fail(err, LCP_INPUT_ERROR, path, line, "a configuration is one flat mapping of options");
            seen_map = 1;
            break;
        case YAML_MAPPING_END_EVENT: depth--; break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_ALIAS_EVENT:
            rc = lcp_fail(err, LCP_INPUT_ERROR, path, line, "values must be scalars (no lists or aliases)");
            break;
        case YAML_SCALAR_EVENT: {
            const char *s = (const char *)ev.data.scalar.value;
            if (depth != 1) {
                rc = lcp_fail(err, LCP_INPUT_ERROR, path, line, "expected a mapping of options");
            } else if (!have_key) {
                if (strlen(s) >= sizeof key) rc = lcp_fail(err, LCP_INPUT_ERROR, path, line, "key too long");
                else {
                    strcpy(key, s);
                    have_key = 1;
                }
            } else {
                have_key = 0;
                if (set(ctx, key, s, line)) rc = LCP_INPUT_ERROR;
            }
            break;
        }
        default: break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    fclose(f);
    return rc;
}
