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
 * libfabric-rma.c: RMA and atomic figures of libfabric's own C shm provider on this host, to set beside jfabric's
 * (fabtests' fi_rma_bw is not installable here). Written from the man pages (fi_getinfo, fi_av, fi_mr, fi_rma,
 * fi_atomic, fi_cq) and the rdma/ headers only. Two processes, started by tools/bench/libfabric-rma.sh:
 *
 *   libfabric-rma server INFOFILE MAXSIZE [TIMEOUT_S]
 *       opens an shm RDM endpoint, registers MAXSIZE bytes (a known pattern) plus one 8-byte counter (0) for remote
 *       read, write and atomics, writes "name-in-hex key addr maxsize" to INFOFILE (via a rename), then polls its CQ
 *       (the shm provider's target-side progress) until the client's one closing message arrives; checks that its
 *       memory and counter hold what the client says it left there; exit 0 when they do, 2 when not.
 *
 *   libfabric-rma client INFOFILE OPS SIZES ITERS WARMUP WINDOW ATOMIC_ITERS ATOMIC_WARMUP
 *       OPS: comma list of write, read, atomic. For write and read, per size: WARMUP then ITERS transfers, posted
 *       WINDOW at a time and then all reaped (fabtests' bw pattern), and a single-threaded memcpy of the same size
 *       and count in the same process as the reference. For atomic: ATOMIC_WARMUP then ATOMIC_ITERS 8-byte
 *       fi_fetch_atomic(FI_UINT64, FI_SUM, 1), one in flight, each timed with CLOCK_MONOTONIC.
 *       Checks: every fetch returns the previous count; after each write size the region is read back and compared;
 *       each read's data is compared; the final counter is read back; the server checks its side at the end.
 *
 * Columns as fi_pingpong prints them: MB/sec is 10^6 bytes per second, usec/xfer the mean time per transfer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_rma.h>

#define CTRL_MAGIC 0x6a66616272696321ULL /* "jfabric!" */
#define MAX_NAME 256
#define MAX_SIZES 32
#define COUNTER_PAD 4096 /* the counter lives in its own page after the data region */

struct ctrl {
    uint64_t magic;
    uint64_t checksum; /* FNV-1a 64 of the server's data region as the client expects it */
    uint64_t counter;  /* the counter's expected final value */
    uint64_t adds;     /* fetch-adds the client performed */
};

static struct fi_info *info;
static struct fid_fabric *fabric;
static struct fid_domain *domain;
static struct fid_av *av;
static struct fid_cq *cq;
static struct fid_ep *ep;
static const char *role = "libfabric-rma";

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", role);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

#define CHECK(call)                                                                                                   \
    do {                                                                                                              \
        int rc_ = (int)(call);                                                                                        \
        if (rc_ < 0)                                                                                                  \
            die("%s failed: %d (%s)", #call, rc_, fi_strerror(-rc_));                                                 \
    } while (0)

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static uint8_t server_pattern(size_t i) { return (uint8_t)(i * 7 + 3); }
static uint8_t write_pattern(size_t i, size_t size) { return (uint8_t)(i * 13 + size / 4096 * 29 + 1); }

static void *alloc_pages(size_t n)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, n) != 0)
        die("cannot allocate %zu bytes", n);
    memset(p, 0, n);
    return p;
}

static char *mr_mode_str(int mode, char *buf, size_t len)
{
    static const struct { int bit; const char *name; } bits[] = {
        {FI_MR_LOCAL, "FI_MR_LOCAL"}, {FI_MR_RAW, "FI_MR_RAW"}, {FI_MR_VIRT_ADDR, "FI_MR_VIRT_ADDR"},
        {FI_MR_ALLOCATED, "FI_MR_ALLOCATED"}, {FI_MR_PROV_KEY, "FI_MR_PROV_KEY"},
        {FI_MR_MMU_NOTIFY, "FI_MR_MMU_NOTIFY"},
        {FI_MR_RMA_EVENT, "FI_MR_RMA_EVENT"}, {FI_MR_ENDPOINT, "FI_MR_ENDPOINT"}, {FI_MR_HMEM, "FI_MR_HMEM"},
    };
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++)
        if (mode & bits[i].bit)
            snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "|" : "", bits[i].name);
    if (!buf[0])
        snprintf(buf, len, "none");
    return buf;
}

/* fi_getinfo for shm RDM with RMA, atomics and messages (the client's closing message), then the objects */
static void open_endpoint(void)
{
    struct fi_info *hints = fi_allocinfo();
    if (!hints)
        die("fi_allocinfo failed");
    hints->caps = FI_MSG | FI_SEND | FI_RECV | FI_RMA | FI_ATOMIC | FI_READ | FI_WRITE | FI_REMOTE_READ |
                  FI_REMOTE_WRITE;
    hints->ep_attr->type = FI_EP_RDM;
    hints->fabric_attr->prov_name = strdup("shm");
    /* the modes this program can honour; the provider keeps those it needs (shm 1.17: FI_MR_VIRT_ADDR) */
    hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY;
    hints->domain_attr->threading = FI_THREAD_DOMAIN;
    hints->mode = FI_CONTEXT;
    int rc = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &info);
    if (rc)
        die("fi_getinfo(prov shm, FI_EP_RDM, caps MSG|RMA|ATOMIC|READ|WRITE|REMOTE_READ|REMOTE_WRITE): %d (%s)", rc,
            fi_strerror(-rc));
    fi_freeinfo(hints);

    CHECK(fi_fabric(info->fabric_attr, &fabric, NULL));
    CHECK(fi_domain(fabric, info, &domain, NULL));
    struct fi_av_attr av_attr = {.type = FI_AV_TABLE, .count = 4};
    CHECK(fi_av_open(domain, &av_attr, &av, NULL));
    struct fi_cq_attr cq_attr = {.format = FI_CQ_FORMAT_CONTEXT, .wait_obj = FI_WAIT_NONE, .size = 1024};
    CHECK(fi_cq_open(domain, &cq_attr, &cq, NULL));
    CHECK(fi_endpoint(domain, info, &ep, NULL));
    CHECK(fi_ep_bind(ep, &av->fid, 0));
    CHECK(fi_ep_bind(ep, &cq->fid, FI_TRANSMIT | FI_RECV));
    CHECK(fi_enable(ep));
}

static struct fid_mr *register_mem(void *buf, size_t len, uint64_t access, uint64_t key)
{
    struct fid_mr *mr;
    CHECK(fi_mr_reg(domain, buf, len, access, 0, key, 0, &mr, NULL));
    if (info->domain_attr->mr_mode & FI_MR_ENDPOINT) {
        CHECK(fi_mr_bind(mr, &ep->fid, 0));
        CHECK(fi_mr_enable(mr));
    }
    return mr;
}

/* reads completions; returns how many (0 when none), dies on an error completion */
static int reap(struct fi_cq_entry *entries, size_t max)
{
    ssize_t n = fi_cq_read(cq, entries, max);
    if (n > 0)
        return (int)n;
    if (n == -FI_EAGAIN)
        return 0;
    if (n == -FI_EAVAIL) {
        struct fi_cq_err_entry err = {0};
        char buf[256];
        fi_cq_readerr(cq, &err, 0);
        die("completion error: %d (%s), provider: %s", err.err, fi_strerror(err.err),
            fi_cq_strerror(cq, err.prov_errno, err.err_data, buf, sizeof buf));
    }
    die("fi_cq_read: %zd (%s)", n, fi_strerror((int)-n));
    return 0;
}

/* ---------------------------------------------------------------------------------------------------------------- */

static int run_server(const char *infofile, size_t maxsize, int timeout_s)
{
    role = "libfabric-rma server";
    open_endpoint();
    size_t len = maxsize + COUNTER_PAD;
    uint8_t *buf = alloc_pages(len);
    for (size_t i = 0; i < maxsize; i++)
        buf[i] = server_pattern(i);
    volatile uint64_t *counter = (volatile uint64_t *)(buf + maxsize);
    *counter = 0;
    struct fid_mr *mr = register_mem(buf, len, FI_REMOTE_READ | FI_REMOTE_WRITE, 0x6a66);
    uint64_t key = fi_mr_key(mr);
    uint64_t addr = (info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) ? (uint64_t)(uintptr_t)buf : 0;

    struct ctrl ctrl = {0};
    struct fid_mr *ctrl_mr = NULL;
    if (info->domain_attr->mr_mode & FI_MR_LOCAL)
        ctrl_mr = register_mem(&ctrl, sizeof ctrl, FI_RECV, 0x6a67);
    struct fi_context recv_ctx;
    CHECK(fi_recv(ep, &ctrl, sizeof ctrl, ctrl_mr ? fi_mr_desc(ctrl_mr) : NULL, FI_ADDR_UNSPEC, &recv_ctx));

    uint8_t name[MAX_NAME];
    size_t namelen = sizeof name;
    CHECK(fi_getname(&ep->fid, name, &namelen));
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", infofile);
    FILE *f = fopen(tmp, "w");
    if (!f)
        die("cannot write %s: %s", tmp, strerror(errno));
    for (size_t i = 0; i < namelen; i++)
        fprintf(f, "%02x", name[i]);
    fprintf(f, " %" PRIu64 " %" PRIu64 " %zu\n", key, addr, maxsize);
    if (fclose(f) != 0 || rename(tmp, infofile) != 0)
        die("cannot publish %s: %s", infofile, strerror(errno));

    /* target-side progress: poll until the closing message, or give up after timeout_s */
    uint64_t deadline = now_ns() + (uint64_t)timeout_s * 1000000000ULL;
    struct fi_cq_entry entries[16];
    int done = 0;
    for (uint64_t polls = 0; !done; polls++) {
        int n = reap(entries, 16);
        for (int i = 0; i < n; i++)
            if (entries[i].op_context == &recv_ctx)
                done = 1;
        if ((polls & 4095) == 0 && now_ns() > deadline)
            die("no closing message from the client within %d s", timeout_s);
    }
    int status = 0;
    uint64_t sum = fnv1a(buf, maxsize);
    if (ctrl.magic != CTRL_MAGIC) {
        fprintf(stderr, "%s: closing message has a bad magic %#" PRIx64 "\n", role, ctrl.magic);
        status = 2;
    } else {
        if (sum != ctrl.checksum) {
            fprintf(stderr, "%s: data region checksum %#" PRIx64 ", the client expects %#" PRIx64 "\n", role, sum,
                    ctrl.checksum);
            status = 2;
        }
        if (*counter != ctrl.counter) {
            fprintf(stderr, "%s: counter %" PRIu64 ", the client expects %" PRIu64 "\n", role, *counter,
                    ctrl.counter);
            status = 2;
        }
    }
    if (status == 0)
        printf("server check ok: data region %zu B checksum %#" PRIx64 ", counter %" PRIu64 " = %" PRIu64
               " fetch-adds of 1\n", maxsize, sum, (uint64_t)*counter, ctrl.adds);
    fflush(stdout);
    fi_close(&ep->fid);
    if (ctrl_mr)
        fi_close(&ctrl_mr->fid);
    fi_close(&mr->fid);
    fi_close(&cq->fid);
    fi_close(&av->fid);
    fi_close(&domain->fid);
    fi_close(&fabric->fid);
    fi_freeinfo(info);
    free(buf);
    return status;
}

/* ---------------------------------------------------------------------------------------------------------------- */

static fi_addr_t peer;
static uint64_t peer_key, peer_addr;
static size_t peer_maxsize;

/* 1k, 64k, 1m: powers of 1024 for byte counts, as fi_pingpong prints sizes and totals */
static const char *bytes_str(char *buf, double v)
{
    static const char suffix[] = " kmgt";
    int i = 0;
    while (v >= 1024 && i < 4) {
        v /= 1024;
        i++;
    }
    if (i == 0)
        snprintf(buf, 16, "%.0f", v);
    else if (v == (double)(uint64_t)v)
        snprintf(buf, 16, "%.0f%c", v, suffix[i]);
    else
        snprintf(buf, 16, "%.1f%c", v, suffix[i]);
    return buf;
}

/* 10k, 1m: powers of 1000 for counts */
static const char *count_str(char *buf, double v)
{
    static const char suffix[] = " kmgt";
    int i = 0;
    while (v >= 1000 && i < 4) {
        v /= 1000;
        i++;
    }
    if (i == 0)
        snprintf(buf, 16, "%.0f", v);
    else if (v == (double)(uint64_t)v)
        snprintf(buf, 16, "%.0f%c", v, suffix[i]);
    else
        snprintf(buf, 16, "%.1f%c", v, suffix[i]);
    return buf;
}

static void print_header(void)
{
    printf("%-7s %-7s %-7s %-9s %-9s %10s %11s %11s\n", "op", "bytes", "iters", "total", "time", "MB/sec",
           "usec/xfer", "Mxfers/sec");
}

static double print_row(const char *op, size_t size, long iters, uint64_t ns)
{
    char s1[16], s2[16], s3[16], t[32];
    double usec = (double)ns / 1000.0;
    double mbps = (double)size * (double)iters / usec;
    snprintf(t, sizeof t, "%.2fs", usec / 1e6);
    printf("%-7s %-7s %-7s %-9s %-9s %10.2f %11.2f %11.2f\n", op, bytes_str(s1, (double)size),
           count_str(s2, (double)iters), bytes_str(s3, (double)size * (double)iters), t, mbps, usec / (double)iters,
           (double)iters / usec);
    return mbps;
}

/* posts one write or read of size bytes at offset 0 of the peer's region; retries while the queue is full */
static long post_rma(int is_read, void *buf, size_t size, void *desc, void *ctx, long *completed)
{
    struct fi_cq_entry entries[64];
    for (;;) {
        ssize_t rc = is_read ? fi_read(ep, buf, size, desc, peer, peer_addr, peer_key, ctx)
                             : fi_write(ep, buf, size, desc, peer, peer_addr, peer_key, ctx);
        if (rc == 0)
            return 0;
        if (rc != -FI_EAGAIN)
            die("%s(%zu B): %zd (%s)", is_read ? "fi_read" : "fi_write", size, rc, fi_strerror((int)-rc));
        *completed += reap(entries, 64);
    }
}

/* count transfers, window at a time: post them, then reap all of their completions */
static uint64_t rma_batch(int is_read, void *buf, size_t size, void *desc, long count, int window)
{
    static struct fi_context ctxs[1024];
    struct fi_cq_entry entries[64];
    uint64_t t0 = now_ns();
    for (long done = 0; done < count;) {
        long n = count - done < window ? count - done : window;
        long completed = 0;
        for (long i = 0; i < n; i++)
            post_rma(is_read, buf, size, desc, &ctxs[i], &completed);
        while (completed < n)
            completed += reap(entries, 64);
        done += n;
    }
    return now_ns() - t0;
}

static void wait_one(void)
{
    struct fi_cq_entry e;
    while (reap(&e, 1) == 0)
        ;
}

/* one fi_read of len bytes at offset off of the peer's region, waited for */
static void read_back(void *buf, size_t len, void *desc, uint64_t off)
{
    struct fi_context ctx;
    ssize_t rc;
    while ((rc = fi_read(ep, buf, len, desc, peer, peer_addr + off, peer_key, &ctx)) == -FI_EAGAIN) {
        struct fi_cq_entry e;
        reap(&e, 1);
    }
    if (rc)
        die("fi_read(%zu B) for the check: %zd (%s)", len, rc, fi_strerror((int)-rc));
    wait_one();
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t pct(const uint64_t *sorted, long n, double p)
{
    long i = (long)(p / 100.0 * (double)n + 0.999999) - 1; /* nearest rank */
    if (i < 0)
        i = 0;
    if (i >= n)
        i = n - 1;
    return sorted[i];
}

struct result { char op[8]; size_t size; double mbps; };

static int run_client(char **argv)
{
    role = "libfabric-rma client";
    const char *infofile = argv[0], *ops = argv[1];
    long iters = atol(argv[3]), warmup = atol(argv[4]), atomic_iters = atol(argv[6]), atomic_warmup = atol(argv[7]);
    int window = atoi(argv[5]);
    if (iters <= 0 || warmup < 0 || window <= 0 || window > 1024 || atomic_iters <= 0 || atomic_warmup < 0)
        die("bad ITERS/WARMUP/WINDOW/ATOMIC_ITERS/ATOMIC_WARMUP (window 1..1024)");
    size_t sizes[MAX_SIZES];
    int nsizes = 0;
    char *list = strdup(argv[2]);
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        if (nsizes == MAX_SIZES)
            die("at most %d sizes", MAX_SIZES);
        sizes[nsizes++] = (size_t)strtoull(tok, NULL, 10);
    }
    int do_write = strstr(ops, "write") != NULL, do_read = strstr(ops, "read") != NULL,
        do_atomic = strstr(ops, "atomic") != NULL;

    /* the server's endpoint name, key, address and size */
    char line[2 * MAX_NAME + 128], hex[2 * MAX_NAME + 1];
    FILE *f = NULL;
    for (int i = 0; i < 3000 && !(f = fopen(infofile, "r")); i++)
        usleep(10000);
    if (!f)
        die("no %s after 30 s: did the server start?", infofile);
    if (!fgets(line, sizeof line, f) ||
        sscanf(line, "%512s %" SCNu64 " %" SCNu64 " %zu", hex, &peer_key, &peer_addr, &peer_maxsize) != 4)
        die("cannot parse %s", infofile);
    fclose(f);
    uint8_t name[MAX_NAME];
    size_t namelen = strlen(hex) / 2;
    for (size_t i = 0; i < namelen; i++)
        sscanf(hex + 2 * i, "%2hhx", &name[i]);
    size_t maxsize = 0;
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] > maxsize)
            maxsize = sizes[i];
    if (maxsize > peer_maxsize)
        die("size %zu is larger than the server's region (%zu)", maxsize, peer_maxsize);

    open_endpoint();
    char modes[256];
    printf("# provider %s %u.%u (api %u.%u), domain %s, mr_mode %s, inject_size %zu, tx size %zu, window %d\n",
           info->fabric_attr->prov_name, FI_MAJOR(info->fabric_attr->prov_version),
           FI_MINOR(info->fabric_attr->prov_version), FI_MAJOR(info->fabric_attr->api_version),
           FI_MINOR(info->fabric_attr->api_version), info->domain_attr->name,
           mr_mode_str(info->domain_attr->mr_mode, modes, sizeof modes), info->tx_attr->inject_size,
           info->tx_attr->size, window);
    if (fi_av_insert(av, name, 1, &peer, 0, NULL) != 1)
        die("fi_av_insert of the server's name failed");

    /* local buffers: source/destination, check, shadow of the server's region, atomic operands */
    uint8_t *src = alloc_pages(peer_maxsize), *dst = alloc_pages(peer_maxsize), *chk = alloc_pages(peer_maxsize);
    uint8_t *shadow = alloc_pages(peer_maxsize);
    for (size_t i = 0; i < peer_maxsize; i++)
        shadow[i] = server_pattern(i);
    uint64_t *ops_buf = alloc_pages(4096); /* [0] operand, [1] result, [2] read-back */
    struct ctrl *ctrl = alloc_pages(4096);
    int local = (info->domain_attr->mr_mode & FI_MR_LOCAL) != 0;
    struct fid_mr *mrs[5] = {0};
    void *dsrc = NULL, *ddst = NULL, *dchk = NULL, *dops = NULL, *dctrl = NULL;
    if (local) {
        uint64_t acc = FI_READ | FI_WRITE | FI_SEND | FI_RECV;
        mrs[0] = register_mem(src, peer_maxsize, acc, 1), dsrc = fi_mr_desc(mrs[0]);
        mrs[1] = register_mem(dst, peer_maxsize, acc, 2), ddst = fi_mr_desc(mrs[1]);
        mrs[2] = register_mem(chk, peer_maxsize, acc, 3), dchk = fi_mr_desc(mrs[2]);
        mrs[3] = register_mem(ops_buf, 4096, acc, 4), dops = fi_mr_desc(mrs[3]);
        mrs[4] = register_mem(ctrl, 4096, acc, 5), dctrl = fi_mr_desc(mrs[4]);
    }

    struct result results[2 * MAX_SIZES], memcpys[MAX_SIZES];
    int nresults = 0, nmemcpy = 0, failures = 0;
    if (do_write || do_read) {
        print_header();
        for (int s = 0; s < nsizes; s++) {
            size_t size = sizes[s];
            if (do_write) {
                for (size_t i = 0; i < size; i++)
                    src[i] = write_pattern(i, size);
                rma_batch(0, src, size, dsrc, warmup, window);
                uint64_t ns = rma_batch(0, src, size, dsrc, iters, window);
                struct result *r = &results[nresults++];
                snprintf(r->op, sizeof r->op, "write");
                r->size = size;
                r->mbps = print_row("write", size, iters, ns);
                memcpy(shadow, src, size);
                memset(chk, 0, size);
                read_back(chk, size, dchk, 0);
                if (memcmp(chk, shadow, size) != 0) {
                    fprintf(stderr, "%s: write %zu B: the region read back differs from what was written\n", role,
                            size);
                    failures++;
                }
            }
            if (do_read) {
                memset(dst, 0, size);
                rma_batch(1, dst, size, ddst, warmup, window);
                uint64_t ns = rma_batch(1, dst, size, ddst, iters, window);
                struct result *r = &results[nresults++];
                snprintf(r->op, sizeof r->op, "read");
                r->size = size;
                r->mbps = print_row("read", size, iters, ns);
                if (memcmp(dst, shadow, size) != 0) {
                    fprintf(stderr, "%s: read %zu B: the data read differs from the server's region\n", role, size);
                    failures++;
                }
            }
            /* the reference: a single-threaded memcpy of the same size and count, same process, same run */
            for (long i = 0; i < warmup; i++) {
                memcpy(dst, src, size);
                __asm__ __volatile__("" ::: "memory");
            }
            uint64_t t0 = now_ns();
            for (long i = 0; i < iters; i++) {
                memcpy(dst, src, size);
                __asm__ __volatile__("" ::: "memory");
            }
            uint64_t ns = now_ns() - t0;
            struct result *m = &memcpys[nmemcpy++];
            snprintf(m->op, sizeof m->op, "memcpy");
            m->size = size;
            m->mbps = print_row("memcpy", size, iters, ns);
            if (memcmp(dst, src, size) != 0)
                die("memcpy reference produced wrong data");
        }
    }

    uint64_t expected = 0, adds = 0;
    if (do_atomic) {
        size_t count = 0;
        int rc = fi_fetch_atomicvalid(ep, FI_UINT64, FI_SUM, &count);
        if (rc) {
            printf("atomic fetch_add_u64 unsupported: fi_fetch_atomicvalid(FI_UINT64, FI_SUM) = %d (%s)\n", rc,
                   fi_strerror(-rc));
        } else {
            uint64_t *lat = malloc(sizeof(uint64_t) * (size_t)atomic_iters);
            if (!lat)
                die("cannot allocate %ld latencies", atomic_iters);
            struct fi_context ctx;
            uint64_t caddr = peer_addr + peer_maxsize;
            long total = atomic_warmup + atomic_iters, bad = 0;
            uint64_t sum_ns = 0;
            for (long i = 0; i < total; i++) {
                ops_buf[0] = 1;
                ops_buf[1] = UINT64_MAX;
                uint64_t t0 = now_ns();
                ssize_t prc;
                while ((prc = fi_fetch_atomic(ep, &ops_buf[0], 1, dops, &ops_buf[1], dops, peer, caddr, peer_key,
                                              FI_UINT64, FI_SUM, &ctx)) == -FI_EAGAIN) {
                    struct fi_cq_entry e;
                    reap(&e, 1);
                }
                if (prc)
                    die("fi_fetch_atomic: %zd (%s)", prc, fi_strerror((int)-prc));
                wait_one();
                uint64_t dt = now_ns() - t0;
                if (ops_buf[1] != expected && bad++ < 5)
                    fprintf(stderr, "%s: fetch-add %ld returned %" PRIu64 ", expected %" PRIu64 "\n", role, i,
                            ops_buf[1], expected);
                expected++;
                adds++;
                if (i >= atomic_warmup) {
                    lat[i - atomic_warmup] = dt;
                    sum_ns += dt;
                }
            }
            failures += bad > 0;
            qsort(lat, (size_t)atomic_iters, sizeof lat[0], cmp_u64);
            char s1[16];
            printf("atomic fetch_add_u64 8 B latency_ns mean=%.1f p50=%" PRIu64 " p90=%" PRIu64 " p99=%" PRIu64
                   " p99.9=%" PRIu64 " min=%" PRIu64 " max=%" PRIu64 " ops=%s\n",
                   (double)sum_ns / (double)atomic_iters, pct(lat, atomic_iters, 50), pct(lat, atomic_iters, 90),
                   pct(lat, atomic_iters, 99), pct(lat, atomic_iters, 99.9), lat[0], lat[atomic_iters - 1],
                   count_str(s1, (double)atomic_iters));
            free(lat);
            ops_buf[2] = UINT64_MAX;
            read_back(&ops_buf[2], 8, dops, peer_maxsize);
            if (ops_buf[2] != expected) {
                fprintf(stderr, "%s: final counter %" PRIu64 ", expected %" PRIu64 "\n", role, ops_buf[2], expected);
                failures++;
            } else {
                printf("atomic check ok: %" PRIu64 " fetch-adds, each fetched the previous count, final counter %"
                       PRIu64 "\n", adds, ops_buf[2]);
            }
        }
    }

    /* ratios against the memcpy of the same size, this run */
    for (int i = 0; i < nresults; i++)
        for (int j = 0; j < nmemcpy; j++)
            if (memcpys[j].size == results[i].size) {
                char s1[16];
                printf("ratio %s/memcpy %s = %.3f  (%.2f / %.2f MB/sec)\n", results[i].op,
                       bytes_str(s1, (double)results[i].size), results[i].mbps / memcpys[j].mbps, results[i].mbps,
                       memcpys[j].mbps);
            }
    if ((do_write || do_read) && failures == 0)
        printf("rma check ok: every write size read back equal, every read equal to the server's region\n");

    /* the closing message: what the server's memory and counter must hold */
    ctrl->magic = CTRL_MAGIC;
    ctrl->checksum = fnv1a(shadow, peer_maxsize);
    ctrl->counter = expected;
    ctrl->adds = adds;
    struct fi_context sctx;
    ssize_t rc;
    while ((rc = fi_send(ep, ctrl, sizeof *ctrl, dctrl, peer, &sctx)) == -FI_EAGAIN) {
        struct fi_cq_entry e;
        reap(&e, 1);
    }
    if (rc)
        die("fi_send of the closing message: %zd (%s)", rc, fi_strerror((int)-rc));
    wait_one();
    fflush(stdout);

    fi_close(&ep->fid);
    for (int i = 0; i < 5; i++)
        if (mrs[i])
            fi_close(&mrs[i]->fid);
    fi_close(&cq->fid);
    fi_close(&av->fid);
    fi_close(&domain->fid);
    fi_close(&fabric->fid);
    fi_freeinfo(info);
    return failures ? 2 : 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 4 && strcmp(argv[1], "server") == 0)
        return run_server(argv[2], (size_t)strtoull(argv[3], NULL, 10), argc > 4 ? atoi(argv[4]) : 600);
    if (argc == 10 && strcmp(argv[1], "client") == 0)
        return run_client(argv + 2);
    fprintf(stderr, "usage: %s server INFOFILE MAXSIZE [TIMEOUT_S]\n"
                    "       %s client INFOFILE OPS SIZES ITERS WARMUP WINDOW ATOMIC_ITERS ATOMIC_WARMUP\n",
            argv[0], argv[0]);
    return 1;
}
