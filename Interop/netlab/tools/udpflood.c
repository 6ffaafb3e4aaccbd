/*
 * udpflood — paced UDP sender and counting receiver for the netlab self-test.
 *
 *   udpflood recv PORT SECONDS            counts for SECONDS after the first packet, then prints
 *   udpflood send HOST PORT PPS SECONDS [SIZE]
 *
 * Each datagram carries a sequence number and its CLOCK_MONOTONIC send time. All lab
 * namespaces share one kernel and so one monotonic clock: the receiver gets exact one-way
 * delays. The receiver prints one line of key=value:
 *   received, pps, mbit (payload), lost (sequence gaps), reordered (arrived after a later
 *   one), delay_min/p50/p99/max_ms.
 * A test tool of Interop/netlab (not part of the library). Build: cc -O2 -o udpflood udpflood.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int do_recv(int port, double seconds) {
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    int buf = 32 << 20;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof buf);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0) { perror("bind"); return 1; }
    size_t cap = 1 << 20, n = 0;
    uint32_t *delays_us = malloc(cap * sizeof *delays_us);
    uint64_t received = 0, bytes = 0, max_seq = 0, reordered = 0, first = 0, last = 0;
    int any = 0;
    char pkt[65536];
    struct mmsghdr msgs[64];
    struct iovec iov[64];
    static char bufs[64][2048];
    for (int i = 0; i < 64; i++) {
        iov[i] = (struct iovec){ bufs[i], sizeof bufs[i] };
        msgs[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov[i], .msg_iovlen = 1 } };
    }
    (void)pkt;
    uint64_t deadline = UINT64_MAX, give_up = now_ns() + (uint64_t)(seconds * 1e9) + 10000000000ull;
    for (;;) {
        uint64_t t = now_ns();
        if (t >= deadline || (!any && t >= give_up)) break;
        struct pollfd p = { fd, POLLIN, 0 };
        uint64_t until = any ? deadline : give_up;
        int ms = (int)((until - t) / 1000000) + 1;
        if (poll(&p, 1, ms) <= 0) continue;
        int got = recvmmsg(fd, msgs, 64, MSG_DONTWAIT, NULL);
        if (got <= 0) continue;
        t = now_ns();
        for (int i = 0; i < got; i++) {
            if (msgs[i].msg_len < 16) continue;
            uint64_t seq, sent;
            memcpy(&seq, bufs[i], 8);
            memcpy(&sent, bufs[i] + 8, 8);
            if (!any) { any = 1; first = t; deadline = t + (uint64_t)(seconds * 1e9); }
            last = t;
            received++;
            bytes += msgs[i].msg_len;
            if (received > 1 && seq < max_seq) reordered++;
            if (seq > max_seq || received == 1) max_seq = seq;
            if (n == cap) { cap *= 2; delays_us = realloc(delays_us, cap * sizeof *delays_us); }
            delays_us[n++] = (uint32_t)((t - sent) / 1000);
        }
    }
    double span = any && last > first ? (last - first) / 1e9 : 0;
    uint64_t expected = any ? max_seq + 1 : 0;
    qsort(delays_us, n, sizeof *delays_us, cmp_u32);
    double p = n ? 1e-3 : 0;
    printf("received=%" PRIu64 " expected=%" PRIu64 " lost=%" PRIu64 " reordered=%" PRIu64
           " seconds=%.3f pps=%.0f mbit=%.2f delay_min_ms=%.3f delay_p50_ms=%.3f delay_p99_ms=%.3f delay_max_ms=%.3f\n",
           received, expected, expected > received ? expected - received : 0, reordered, span,
           span > 0 ? received / span : 0, span > 0 ? bytes * 8 / span / 1e6 : 0,
           n ? delays_us[0] * p : 0, n ? delays_us[n / 2] * p : 0, n ? delays_us[n * 99 / 100] * p : 0,
           n ? delays_us[n - 1] * p : 0);
    return 0;
}

static int do_send(const char *host, int port, double pps, double seconds, int size) {
    if (size < 16 || size > 2048) { fprintf(stderr, "size 16..2048\n"); return 64; }
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    int buf = 8 << 20;
    setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &buf, sizeof buf);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    if (inet_pton(AF_INET, host, &a.sin_addr) != 1) { fprintf(stderr, "bad address %s\n", host); return 64; }
    if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) { perror("connect"); return 1; }
    enum { BATCH = 64 };
    static char bufs[BATCH][2048];
    struct mmsghdr msgs[BATCH];
    struct iovec iov[BATCH];
    for (int i = 0; i < BATCH; i++) {
        iov[i] = (struct iovec){ bufs[i], (size_t)size };
        msgs[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov[i], .msg_iovlen = 1 } };
    }
    uint64_t start = now_ns(), total = (uint64_t)(pps * seconds), seq = 0, errors = 0;
    while (seq < total) {
        uint64_t t = now_ns();
        uint64_t due = (uint64_t)((t - start) / 1e9 * pps) + 1;   /* packets due by now */
        if (due > total) due = total;
        if (seq >= due) {
            struct timespec ts = { 0, 200000 };  /* 0.2 ms pacing step */
            nanosleep(&ts, NULL);
            continue;
        }
        int k = (int)((due - seq) < BATCH ? (due - seq) : BATCH);
        uint64_t sent = now_ns();
        for (int i = 0; i < k; i++) {
            uint64_t s = seq + (uint64_t)i;
            memcpy(bufs[i], &s, 8);
            memcpy(bufs[i] + 8, &sent, 8);
        }
        int r = sendmmsg(fd, msgs, (unsigned)k, 0);
        if (r < 0) {
            if (errno == ENOBUFS || errno == EAGAIN || errno == ECONNREFUSED) { errors++; continue; }
            perror("sendmmsg");
            return 1;
        }
        seq += (uint64_t)r;
    }
    double span = (now_ns() - start) / 1e9;
    printf("sent=%" PRIu64 " seconds=%.3f pps=%.0f send_errors=%" PRIu64 "\n", seq, span, seq / span, errors);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 4 && !strcmp(argv[1], "recv")) return do_recv(atoi(argv[2]), atof(argv[3]));
    if (argc >= 6 && !strcmp(argv[1], "send"))
        return do_send(argv[2], atoi(argv[3]), atof(argv[4]), atof(argv[5]), argc > 6 ? atoi(argv[6]) : 1200);
    fprintf(stderr, "usage: udpflood recv PORT SECONDS | udpflood send HOST PORT PPS SECONDS [SIZE]\n");
    return 64;
}
