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
/* LD_PRELOAD shim: starts one idle thread (blocked in pause()) before main, so a C program runs as a multi-threaded
 * process, as it would inside a JVM: glibc (2.35+) then takes an uncontended mutex with an atomic instruction where a
 * single-threaded process gets a plain store, and wraps every cancellable system call (poll, read, ...) in
 * pthread_enable/disable_asynccancel (docs/PERFORMANCE.md, "Where a round trip's time goes").
 *   gcc -O2 -shared -fPIC -pthread -o /tmp/one-thread.so ofi-provider/bench/one-thread.c
 *   LD_PRELOAD=/tmp/one-thread.so fi_pingpong ...      (ofi-provider/bench/vs-c.sh does this with C_THREADS=1) */
#include <pthread.h>
#include <unistd.h>
static void *idle(void *arg) { (void)arg; for (;;) pause(); return 0; }
__attribute__((constructor)) static void start(void) { pthread_t t; pthread_create(&t, 0, idle, 0); pthread_detach(t); }
