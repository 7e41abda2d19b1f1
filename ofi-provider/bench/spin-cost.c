/*
 * Copyright 2026 the jfabric authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 * https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
/*
 * What one turn of a busy-polling wait costs in libc, in a single-threaded process (C fi_pingpong, ofi_bw.c) and in a
 * multi-threaded one (any JVM): pthread_mutex_lock/unlock pairs (libfabric's progress and CQ locks) and poll() of two
 * idle sockets with a zero timeout (tcp;ofi_rxm's progress), and a 4 KiB memcpy to a page-aligned and to a 16-byte
 * aligned destination (rxm's eager copy into the user's buffer). Thread CPU time, so a loaded host slows it little.
 *   gcc -O2 -pthread -o /tmp/spin-cost ofi-provider/bench/spin-cost.c && /tmp/spin-cost [threads]
 * threads = 0: the process stays single-threaded; 1: one idle extra thread (blocked in pause()) is started first.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static void *idle(void *arg)
{
    (void)arg;
    for (;;)
        pause();
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 0;
    pthread_t t;
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    int sv[2], sw[2];
    struct pollfd fds[2];
    const int n = 2000000, np = 200000, nc = 200000;
    char *src, *dst;
    volatile long sink = 0;
    double a, b;

    if (threads)
        pthread_create(&t, NULL, idle, NULL);
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    socketpair(AF_UNIX, SOCK_STREAM, 0, sw);
    fds[0].fd = sv[0]; fds[0].events = POLLIN;
    fds[1].fd = sw[0]; fds[1].events = POLLIN;
    posix_memalign((void **)&src, 4096, 1 << 16);
    posix_memalign((void **)&dst, 4096, 1 << 16);
    memset(src, 1, 1 << 16);
    memset(dst, 2, 1 << 16);

    for (int round = 0; round < 3; round++) {
        a = cpu_ns();
        for (int i = 0; i < n; i++) {
            pthread_mutex_lock(&m);
            sink++;
            pthread_mutex_unlock(&m);
        }
        b = cpu_ns();
        printf("threads %d: mutex lock+unlock %.1f ns", threads, (b - a) / n);
        a = cpu_ns();
        for (int i = 0; i < np; i++)
            sink += poll(fds, 2, 0);
        b = cpu_ns();
        printf(", poll(2 fds, 0) %.0f ns", (b - a) / np);
        for (int off = 0; off <= 16; off += 16) {
            a = cpu_ns();
            for (int i = 0; i < nc; i++) {
                memcpy(dst + off + 4096 * (i & 7), src + 16 + 4096 * ((i + 3) & 7), 4096);
                sink += dst[off];
            }
            b = cpu_ns();
            printf(", 4 KiB memcpy to dst%%4096=%d %.0f ns", off, (b - a) / nc);
        }
        printf("\n");
    }
    return (int)(sink & 0);
}
