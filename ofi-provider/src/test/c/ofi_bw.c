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
 * The C side of `jfabric bw -p <native provider>` (io.jfabric.tools.fipp.FiBandwidth): the same control channel
 * (fi_pingpong's: names as a 4-byte big-endian length, the address format and the bytes; "q"/"a" sync; a 10-byte
 * count answered "cnt ok") and the same credit-windowed stream, written with libfabric's C API, so that the Java
 * client's 1 MiB bandwidth can be compared with C's over the same provider, and either side can face the other.
 *
 *   ofi_bw -p tcp -d lo -B 9500 -S 1048576 -I 2000 -w 16 [-W warmup]            server
 *   ofi_bw -p tcp -d lo -P 9500 -S 1048576 -I 2000 -w 16 [-W warmup] 127.0.0.1  client
 *
 * The client prints fi_pingpong's header and result line (one transfer per message).
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>

#define CHECK(call) do { int rc_ = (int)(call); if (rc_) { fprintf(stderr, "%s: %d (%s)\n", #call, rc_, \
    fi_strerror(-rc_)); exit(1); } } while (0)
#define ACK 4

static int ctrl = -1;
static struct fid_ep *ep;
static struct fid_cq *txcq, *rxcq;
static fi_addr_t peer;
static char *txbuf, *rxbuf;
static void *txdesc, *rxdesc;

static void readn(void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = recv(ctrl, (char *)buf + got, n - got, 0);
        if (r <= 0) { perror("control recv"); exit(1); }
        got += (size_t)r;
    }
}

static void writen(const void *buf, size_t n)
{
    if (send(ctrl, buf, n, 0) != (ssize_t)n) { perror("control send"); exit(1); }
}

static void ctrl_open(const char *server, int port)
{
    int one = 1;
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    if (server) {
        if (inet_pton(AF_INET, server, &a.sin_addr) != 1) { fprintf(stderr, "bad address %s\n", server); exit(1); }
        for (int tries = 0; ; tries++) {
            ctrl = socket(AF_INET, SOCK_STREAM, 0);
            if (connect(ctrl, (struct sockaddr *)&a, sizeof(a)) == 0)
                break;
            close(ctrl);
            if (tries > 1200) { perror("connect"); exit(1); }
            usleep(50000);
        }
    } else {
        int l = socket(AF_INET, SOCK_STREAM, 0);
        setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
        a.sin_addr.s_addr = htonl(INADDR_ANY);
        if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 10)) { perror("listen"); exit(1); }
        ctrl = accept(l, NULL, NULL);
        close(l);
    }
    setsockopt(ctrl, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static void send_name(struct fi_info *fi)
{
    char name[256];
    size_t len = sizeof(name);
    uint32_t nlen;
    CHECK(fi_getname(&ep->fid, name, &len));
    nlen = htonl((uint32_t)len);
    writen(&nlen, 4);
    writen(&fi->addr_format, 4);
    writen(name, len);
}

static size_t recv_name(char *name, uint32_t *format)
{
    uint32_t nlen;
    readn(&nlen, 4);
    nlen = ntohl(nlen);
    if (nlen == 0 || nlen > 1024) { fprintf(stderr, "bad name length %u\n", nlen); exit(1); }
    readn(format, 4);
    readn(name, nlen);
    return nlen;
}

static void sync_sides(int client)
{
    char b[2];
    if (client) { writen("q", 2); readn(b, 2); } else { readn(b, 2); writen("a", 2); }
}

static void exchange_count(int client, long count)
{
    char b[12] = {0};
    char ok[7];
    if (client) { snprintf(b, sizeof(b), "%ld", count); writen(b, 10); readn(ok, 7); }
    else { readn(b, 10); writen("cnt ok", 7); }
}

static void await_cq(struct fid_cq *cq, int n)
{
    struct fi_cq_entry e[16];
    while (n > 0) {
        ssize_t r = fi_cq_read(cq, e, n < 16 ? n : 16);
        if (r > 0) {
            n -= (int)r;
        } else if (r == -FI_EAVAIL) {
            struct fi_cq_err_entry err = {0};
            fi_cq_readerr(cq, &err, 0);
            fprintf(stderr, "completion error: %s\n", fi_strerror(err.err));
            exit(1);
        } else if (r != -FI_EAGAIN) {
            fprintf(stderr, "fi_cq_read: %zd\n", r);
            exit(1);
        }
    }
}

static void post_recv(size_t offset, size_t len)
{
    ssize_t r;
    while ((r = fi_recv(ep, rxbuf + offset, len, rxdesc, FI_ADDR_UNSPEC, NULL)) == -FI_EAGAIN)
        fi_cq_read(rxcq, NULL, 0);
    CHECK(r);
}

static void post_send(size_t len)
{
    ssize_t r;
    while ((r = fi_send(ep, txbuf, len, txdesc, peer, NULL)) == -FI_EAGAIN)
        fi_cq_read(txcq, NULL, 0);
    CHECK(r);
}

static uint64_t now_us(void)
{
    struct timeval t;
    gettimeofday(&t, NULL);
    return (uint64_t)t.tv_sec * 1000000 + (uint64_t)t.tv_usec;
}

static uint64_t stream(int client, size_t size, int count, int window)
{
    uint64_t start;
    if (client)
        post_recv(0, ACK);
    sync_sides(client);
    start = now_us();
    for (int done = 0; done < count; ) {
        int n = window < count - done ? window : count - done;
        if (client) {
            await_cq(rxcq, 1);
            post_recv(0, ACK);
            for (int i = 0; i < n; i++)
                post_send(size);
            await_cq(txcq, n);
        } else {
            for (int i = 0; i < n; i++)
                post_recv((size_t)i * size, size);
            post_send(ACK);
            await_cq(txcq, 1);
            await_cq(rxcq, n);
        }
        done += n;
    }
    if (client) {
        await_cq(rxcq, 1);
    } else {
        post_send(ACK);
        await_cq(txcq, 1);
    }
    return now_us() - start;
}

static void size_str(char *s, uint64_t v)
{
    uint64_t base = v >= (1ULL << 30) ? 1ULL << 30 : v >= (1 << 20) ? 1 << 20 : v >= 1024 ? 1024 : 1;
    const char *mag = base == (1ULL << 30) ? "g" : base == (1 << 20) ? "m" : base == 1024 ? "k" : "";
    uint64_t frac = v / base < 10 ? (v % base) * 10 / base : 0;
    if (frac) sprintf(s, "%lu.%lu%s", (unsigned long)(v / base), (unsigned long)frac, mag);
    else sprintf(s, "%lu%s", (unsigned long)(v / base), mag);
}

static void cnt_str(char *s, uint64_t c)
{
    if (c >= 1000000000) sprintf(s, "%lub", (unsigned long)(c / 1000000000));
    else if (c >= 1000000) sprintf(s, "%lum", (unsigned long)(c / 1000000));
    else if (c >= 1000) sprintf(s, "%luk", (unsigned long)(c / 1000));
    else sprintf(s, "%lu", (unsigned long)c);
}

int main(int argc, char **argv)
{
    const char *prov = "tcp", *domain = NULL, *server = NULL;
    int port = 47592, count = 1000, window = 16, warmup = 0, op;
    size_t size = 1 << 20;
    struct fi_info *hints, *fi, *list;
    struct fid_fabric *fabric;
    struct fid_domain *dom;
    struct fid_av *av;
    struct fid_mr *txmr = NULL, *rxmr = NULL;
    struct fi_av_attr av_attr = {0};
    struct fi_cq_attr cq_attr = {0};
    char name[1024];
    uint32_t format = 0;
    size_t name_len = 0;

    while ((op = getopt(argc, argv, "p:d:B:P:S:I:w:W:")) != -1) {
        switch (op) {
        case 'p': prov = optarg; break;
        case 'd': domain = optarg; break;
        case 'B': case 'P': port = atoi(optarg); break;
        case 'S': size = (size_t)atol(optarg); break;
        case 'I': count = atoi(optarg); break;
        case 'w': window = atoi(optarg); break;
        case 'W': warmup = atoi(optarg); break;
        default: fprintf(stderr, "usage: ofi_bw -p prov -d dom -B|-P port -S size -I n -w w [-W n] [server]\n");
            return 1;
        }
    }
    if (optind < argc)
        server = argv[optind];

    ctrl_open(server, port);
    hints = fi_allocinfo();
    hints->caps = FI_MSG;
    hints->mode = FI_CONTEXT | FI_CONTEXT2;
    hints->ep_attr->type = FI_EP_RDM;
    hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_VIRT_ADDR;
    hints->fabric_attr->prov_name = strdup(prov);
    if (domain)
        hints->domain_attr->name = strdup(domain);
    if (server) {
        name_len = recv_name(name, &format);
        hints->addr_format = format;
        hints->dest_addr = malloc(name_len);
        memcpy(hints->dest_addr, name, name_len);
        hints->dest_addrlen = name_len;
    }
    CHECK(fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &list));
    /* tcp;ofi_rxm 1.17 does not filter by the hints' domain name: take the named domain's first info ourselves, or
     * -d lo would run over the first interface's (eth0's) address */
    for (fi = list; domain && fi && strcmp(fi->domain_attr->name, domain); fi = fi->next)
        ;
    if (!fi) {
        fprintf(stderr, "provider %s offers no domain %s\n", prov, domain);
        return 1;
    }
    CHECK(fi_fabric(fi->fabric_attr, &fabric, NULL));
    CHECK(fi_domain(fabric, fi, &dom, NULL));
    av_attr.type = fi->domain_attr->av_type;
    CHECK(fi_av_open(dom, &av_attr, &av, NULL));
    cq_attr.format = FI_CQ_FORMAT_CONTEXT;
    cq_attr.size = fi->tx_attr->size;
    CHECK(fi_cq_open(dom, &cq_attr, &txcq, NULL));
    cq_attr.size = fi->rx_attr->size;
    CHECK(fi_cq_open(dom, &cq_attr, &rxcq, NULL));
    CHECK(fi_endpoint(dom, fi, &ep, NULL));
    CHECK(fi_ep_bind(ep, &av->fid, 0));
    CHECK(fi_ep_bind(ep, &txcq->fid, FI_TRANSMIT));
    CHECK(fi_ep_bind(ep, &rxcq->fid, FI_RECV));
    CHECK(fi_enable(ep));
    if (posix_memalign((void **)&txbuf, 4096, size < ACK ? ACK : size) ||
        posix_memalign((void **)&rxbuf, 4096, (server ? ACK : size * (size_t)window) + ACK)) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
#ifndef UNTOUCHED
    /* as fi_pingpong (pp_alloc_msgs) and as a Java direct buffer: written once, so the stream is sent from real pages;
     * an untouched buffer is the kernel's one zero page, which the sender's copy reads from cache */
    memset(txbuf, 0, size < ACK ? ACK : size);
    memset(rxbuf, 0, (server ? ACK : size * (size_t)window) + ACK);
#endif
    if (fi->domain_attr->mr_mode & FI_MR_LOCAL) {
        CHECK(fi_mr_reg(dom, txbuf, size < ACK ? ACK : size, FI_SEND, 0, 0xC0DE, 0, &txmr, NULL));
        CHECK(fi_mr_reg(dom, rxbuf, (server ? ACK : size * (size_t)window) + ACK, FI_RECV, 0, 0xC0DF, 0, &rxmr,
            NULL));
        txdesc = fi_mr_desc(txmr);
        rxdesc = fi_mr_desc(rxmr);
    }
    send_name(fi);
    if (!server)
        name_len = recv_name(name, &format);
    if (fi_av_insert(av, name, 1, &peer, 0, NULL) != 1) {
        fprintf(stderr, "fi_av_insert failed\n");
        return 1;
    }
    if (warmup > 0)
        stream(server != NULL, size, warmup, window);
    {
        uint64_t us = stream(server != NULL, size, count, window);
        exchange_count(server != NULL, count);
        if (server) {
            char a[32], b[32], c[32];
            uint64_t bytes = (uint64_t)count * size;
            float per = (float)us / count;
            size_str(a, size);
            cnt_str(b, (uint64_t)count);
            size_str(c, bytes);
            printf("%-8s%-8s%-9s%-8s%8s %10s%13s%13s\n", "bytes", "#sent", "#ack", "total", "time", "MB/sec",
                "usec/xfer", "Mxfers/sec");
            printf("%-8s%-8s=%-8s%-8s%8.2fs%10.2f%11.2f%11.2f\n", a, b, b, c, us / 1000000.0,
                bytes / (1.0 * us), per, 1.0 / per);
        }
    }
    fi_close(&ep->fid);
    if (txmr) { fi_close(&txmr->fid); fi_close(&rxmr->fid); }
    fi_close(&av->fid);
    fi_close(&txcq->fid);
    fi_close(&rxcq->fid);
    fi_close(&dom->fid);
    fi_close(&fabric->fid);
    fi_freeinfo(list);
    fi_freeinfo(hints);
    close(ctrl);
    return 0;
}
