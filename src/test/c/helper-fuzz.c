// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * helper-fuzz: a libFuzzer harness for runaway-helper's request parser.
 *
 * Each input is one request line as the helper reads it (any bytes, the newline already cut).
 * Only parse_request runs: nothing is ever executed, so the harness needs no privilege and
 * touches no process, cgroup or file. Besides memory errors (ASan) and undefined behaviour
 * (UBSan), it aborts when an accepted request breaks a rule the executor relies on.
 *
 * Built and run by src/test/sh/fuzz-helper:
 *   clang -fsanitize=fuzzer,address,undefined -DRUNAWAY_HELPER_NO_MAIN src/test/c/helper-fuzz.c
 */
#ifndef RUNAWAY_HELPER_NO_MAIN
#define RUNAWAY_HELPER_NO_MAIN 1
#endif
#include "../../main/c/runaway-helper.c"

#include <stdint.h>

static void require(int condition) {
    if (!condition) abort();
}

/* Text reaches paths and replies: printable, no space (words split at spaces), bounded. */
static void check_text(const char *text) {
    size_t n = strnlen(text, LINE_BYTES);
    require(n > 0 && n < LINE_BYTES);
    for (size_t i = 0; i < n; i++) require(text[i] > 0x20 && text[i] <= 0x7e);
}

/* A pid fits a pid_t (0, 1 and negatives are the executor's to refuse); ticks are >= 0. */
static int valid_target(const struct request *q) {
    return q->pid >= INT_MIN && q->pid <= INT_MAX && q->ticks >= 0;
}

static void check_invariants(const struct request *q) {
    switch (q->verb) {
    case VERB_HELLO:
        break;
    case VERB_SIGNAL:
        require(valid_target(q) && allowed_signal(q->value));
        break;
    case VERB_OOMADJ:
        require(valid_target(q) && q->value >= -1000 && q->value <= 1000);
        break;
    case VERB_MOVE:
        require(valid_target(q));
        check_text(q->text);
        break;
    case VERB_PIDSMAX:
        require(q->value >= -1 && q->value <= PIDS_LIMIT);
        check_text(q->text);
        break;
    case VERB_RESTORE:
        require(q->value >= 0 && q->value <= 07777);
        check_text(q->text);
        break;
    case VERB_QUARANTINE:
        require(valid_name(q->text));
        break;
    case VERB_FREEZE: case VERB_THAW: case VERB_KILLCG: case VERB_MEMBERS: case VERB_RELEASE: case VERB_REVOKE:
        check_text(q->text);
        break;
    default:
        abort(); /* a verb the table does not have */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static struct request req;
    const char *why = NULL;
    if (parse_request((const char *)data, size, &req, &why) == 0) {
        require(size < LINE_BYTES && why == NULL);
        check_invariants(&req);
    } else {
        require(why != NULL && why[0] != '\0'); /* every refusal of a line says why */
    }
    return 0;
}
