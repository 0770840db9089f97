// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * runaway-stat-reader: the reference for the scan bench. Lists /proc once, then opens, reads
 * and closes /proc/PID/stat for every pid, ROUNDS times, and prints one line per round:
 * "<processes read> <nanoseconds>". Nothing is parsed: this is the floor a reader can reach.
 *
 *   runaway-stat-reader [ROUNDS]
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv) {
    char *end = NULL;
    long rounds = argc > 1 ? strtol(argv[1], &end, 10) : 1;
    if (argc > 2 || (argc > 1 && (*end != '\0' || rounds < 1 || rounds > 1000))) {
        fprintf(stderr, "usage: runaway-stat-reader [ROUNDS 1-1000]\n");
        return 2;
    }
    char path[300], buf[4096];
    for (long r = 0; r < rounds; r++) {
        long long start = now_ns();
        DIR *proc = opendir("/proc");
        if (!proc) { perror("/proc"); return 1; }
        long read_count = 0;
        struct dirent *e;
        while ((e = readdir(proc)) != NULL) {
            if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
            snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
            int fd = open(path, O_RDONLY | O_CLOEXEC);
            if (fd < 0) continue;
            if (read(fd, buf, sizeof buf) > 0) read_count++;
            close(fd);
        }
        closedir(proc);
        printf("%ld %lld\n", read_count, now_ns() - start);
    }
    return 0;
}
