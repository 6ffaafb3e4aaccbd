/*
 * delayer — hold every packet of one NFQUEUE for D ± J milliseconds, then accept it.
 *
 * A test tool of the Tern network lab (Interop/netlab, Docs/NETLAB.md), not part of the
 * library: the lab kernel has no netem, so delay, jitter and reordering are done here.
 *
 *   iptables-legacy -A FORWARD -j NFQUEUE --queue-num 0 --queue-bypass   (last rule!)
 *   delayer --queue 0 --delay 25 [--jitter 5] [--reorder] [--maxlen N] [--fail-open]
 *           [--tick MS] [--seed S] [--stats FILE] [--pidfile FILE]
 *
 * How it works
 * - Packets arrive as metadata only (NFQNL_COPY_META): the kernel keeps the packet and
 *   we keep its id, so a held packet costs 16 bytes here whatever its size.
 * - Each packet gets a due time = arrival + D + uniform(-J, +J) (never before arrival).
 *   Without --reorder the due time is also never before the previous packet's, so the
 *   order is kept; with --reorder a packet may overtake an earlier one when its jitter
 *   makes it due first.
 * - Held packets sit in a min-heap keyed by (due, arrival sequence): no head-of-line
 *   blocking, whichever packet is due next is released next. NFQUEUE accepts verdicts in
 *   any order.
 * - Verdicts are batched. In order-keeping mode the due packets are always a prefix of the
 *   ids, so one NFQNL_MSG_VERDICT_BATCH (accept every id <= N) releases all of them. With
 *   --reorder, one NFQNL_MSG_VERDICT per packet, many packed into one sendto().
 * - Wake-ups are coalesced on a tick T (--tick, default 0.5 ms; 0 = exact): wake-ups are
 *   at least T/2 apart and each takes every packet due within T/4 of it, so a packet leaves
 *   within about T/4 of its due time, early or late; while packets keep arriving the socket
 *   is read every T instead of on each arrival (an arrival read that way is dated at the
 *   middle of the interval it came in). Waking once per packet cost ~60 % of a core in
 *   scheduling alone at ~20,000 packets/s.
 * - Overflow: the kernel queue holds up to --maxlen packets (default 200000); the netlink
 *   socket gets a 64 MiB receive buffer and NETLINK_NO_ENOBUFS. With --fail-open the kernel
 *   accepts (undelayed) what does not fit instead of dropping it. Either way the kernel
 *   counts it in /proc/net/netfilter/nfnetlink_queue (queue_dropped / user_dropped).
 * - SIGTERM / SIGINT: every held packet is accepted at once, the queue is unbound, exit 0.
 *   (Closing the socket with packets still queued would make the kernel drop them.)
 *
 * Build: cc -O2 -Wall -o delayer delayer.c -lnetfilter_queue -lmnl
 *        (Debian: libnetfilter-queue-dev libmnl-dev)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_queue.h>
#include <libnetfilter_queue/libnetfilter_queue.h>

#ifndef NETLINK_NO_ENOBUFS
#define NETLINK_NO_ENOBUFS 5
#endif

struct held {
    uint64_t due;   /* CLOCK_MONOTONIC ns */
    uint64_t seq;   /* arrival order, ties broken by it */
    uint32_t id;    /* NFQUEUE packet id */
};

static struct held *heap;
static size_t heap_len, heap_cap;

static struct {
    unsigned queue;
    uint64_t delay_ns, jitter_ns, tick_ns;
    int reorder, fail_open;
    uint32_t maxlen;
    uint64_t seed;
    const char *stats_path, *pid_path;
} cfg = { .queue = 0, .maxlen = 200000, .tick_ns = 500000, .seed = 0x9E3779B97F4A7C15ull };

static struct {
    uint64_t received, released, max_held, verdict_msgs, sends, errors, recv_overruns;
    uint64_t late_sum_ns, late_max_ns;  /* how long after its due time each packet was released */
    uint64_t early_sum_ns, early_max_ns; /* how long before it (at most the slack) */
    uint64_t wakeups;
} st;

static volatile sig_atomic_t stop_requested;
static struct mnl_socket *nl;
static uint64_t last_due;
static uint64_t next_seq;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* xorshift64*: good enough for jitter, reproducible with --seed. */
static uint64_t rng_state;
static uint64_t rng_next(void) {
    uint64_t x = rng_state;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    rng_state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static int before(const struct held *a, const struct held *b) {
    return a->due < b->due || (a->due == b->due && a->seq < b->seq);
}

static int heap_push(struct held h) {
    if (heap_len == heap_cap) {
        size_t cap = heap_cap ? heap_cap * 2 : 4096;
        struct held *n = realloc(heap, cap * sizeof *n);
        if (!n) return -1;
        heap = n; heap_cap = cap;
    }
    size_t i = heap_len++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!before(&h, &heap[p])) break;
        heap[i] = heap[p];
        i = p;
    }
    heap[i] = h;
    return 0;
}

static struct held heap_pop(void) {
    struct held top = heap[0];
    struct held last = heap[--heap_len];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        const struct held *mv = &last;
        if (l < heap_len && before(&heap[l], mv)) { m = l; mv = &heap[l]; }
        if (r < heap_len && before(&heap[r], mv)) { m = r; }
        if (m == i) break;
        heap[i] = heap[m];
        i = m;
    }
    if (heap_len) heap[i] = last;
    return top;
}

/* ---- verdicts, packed into one buffer and sent with one sendto() ---- */

static char out_buf[1 << 16];
static size_t out_len;

static void flush_out(void) {
    if (!out_len) return;
    if (mnl_socket_sendto(nl, out_buf, out_len) < 0) st.errors++;
    st.sends++;
    out_len = 0;
}

static void put_verdict(int type, uint32_t id) {
    if (out_len + 64 > sizeof out_buf) flush_out();
    struct nlmsghdr *nlh = nfq_nlmsg_put(out_buf + out_len, type, cfg.queue);
    nfq_nlmsg_verdict_put(nlh, (int)id, NF_ACCEPT);
    out_len += NLMSG_ALIGN(nlh->nlmsg_len);
    st.verdict_msgs++;
}

/* How far ahead of its due time a packet may leave: a quarter tick. */
static uint64_t release_slack(void) { return cfg.tick_ns / 4; }

/* Release every packet due at or before `now` + the slack (everything when `all`). */
static void release_due(uint64_t now, int all) {
    uint32_t batch_id = 0;
    int have_batch = 0;
    uint64_t horizon = now + release_slack();
    while (heap_len && (all || heap[0].due <= horizon)) {
        struct held h = heap_pop();
        st.released++;
        if (!all && now > h.due) {
            uint64_t late = now - h.due;
            st.late_sum_ns += late;
            if (late > st.late_max_ns) st.late_max_ns = late;
        } else if (!all) {
            uint64_t early = h.due - now;
            st.early_sum_ns += early;
            if (early > st.early_max_ns) st.early_max_ns = early;
        }
        if (!cfg.reorder && !all) {
            /* Order kept: due packets are a prefix of the ids; one batch verdict. */
            if (!have_batch || (int32_t)(h.id - batch_id) > 0) batch_id = h.id;
            have_batch = 1;
        } else {
            put_verdict(NFQNL_MSG_VERDICT, h.id);
        }
    }
    if (have_batch) put_verdict(NFQNL_MSG_VERDICT_BATCH, batch_id);
    flush_out();
}

/* ---- receiving ---- */

static void on_packet(const struct nlmsghdr *nlh, uint64_t now) {
    struct nlattr *attr[NFQA_MAX + 1] = {0};
    if (nfq_nlmsg_parse(nlh, attr) < 0 || !attr[NFQA_PACKET_HDR]) { st.errors++; return; }
    struct nfqnl_msg_packet_hdr *ph = mnl_attr_get_payload(attr[NFQA_PACKET_HDR]);
    uint32_t id = ntohl(ph->packet_id);
    st.received++;

    int64_t d = (int64_t)cfg.delay_ns;
    if (cfg.jitter_ns) {
        uint64_t span = 2 * cfg.jitter_ns + 1;
        d += (int64_t)(rng_next() % span) - (int64_t)cfg.jitter_ns;
        if (d < 0) d = 0;
    }
    uint64_t due = now + (uint64_t)d;
    if (!cfg.reorder && due < last_due) due = last_due;
    last_due = due;

    if (heap_push((struct held){ .due = due, .seq = next_seq++, .id = id }) < 0) {
        /* Out of memory: let it through now rather than lose it. */
        put_verdict(NFQNL_MSG_VERDICT, id);
        st.errors++;
        return;
    }
    if (heap_len > st.max_held) st.max_held = heap_len;
}

/* Netlink hands over one queued packet per datagram; recvmmsg takes up to RX_BATCH per call.
 * Meta-only packet messages are a few hundred bytes. */
enum { RX_BATCH = 64, RX_SIZE = 4096 };
static char rx_buf[RX_BATCH][RX_SIZE];
static struct mmsghdr rx_msgs[RX_BATCH];
static struct iovec rx_iov[RX_BATCH];

static void rx_init(void) {
    for (int i = 0; i < RX_BATCH; i++) {
        rx_iov[i] = (struct iovec){ rx_buf[i], RX_SIZE };
        rx_msgs[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &rx_iov[i], .msg_iovlen = 1 } };
    }
}

/* Reads what is waiting (bounded, so due packets are never starved), dating each arrival
 * `arrived` (or the time of the read when 0); returns how many netlink messages it read. */
static int read_some(uint64_t arrived) {
    int total = 0;
    for (int round = 0; round < 16; round++) {
        int got = recvmmsg(mnl_socket_get_fd(nl), rx_msgs, RX_BATCH, MSG_DONTWAIT, NULL);
        if (got < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return total;
            if (errno == ENOBUFS) { st.recv_overruns++; continue; }
            st.errors++;
            return total;
        }
        total += got;
        uint64_t now = now_ns();
        uint64_t stamp = arrived ? arrived : now;
        for (int i = 0; i < got; i++) {
            const struct nlmsghdr *nlh = (const struct nlmsghdr *)rx_buf[i];
            int len = (int)rx_msgs[i].msg_len;
            if (rx_msgs[i].msg_hdr.msg_flags & MSG_TRUNC) { st.errors++; continue; }
            while (mnl_nlmsg_ok(nlh, len)) {
                uint16_t type = nlh->nlmsg_type;
                if ((type >> 8) == NFNL_SUBSYS_QUEUE && (type & 0xff) == NFQNL_MSG_PACKET)
                    on_packet(nlh, stamp);
                else if (type == NLMSG_ERROR) {
                    const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
                    if (e->error) st.errors++;
                }
                nlh = mnl_nlmsg_next(nlh, &len);
            }
        }
        /* Release what fell due while we were reading. */
        if (heap_len && heap[0].due <= now) release_due(now, 0);
        if (got < RX_BATCH) return total;
    }
    return total;
}

/* ---- set-up ---- */

/* Sends one config message with NLM_F_ACK and waits for the kernel's answer, so a queue
 * already bound by another process (EBUSY) or a kernel without NFQUEUE is reported here. */
static int send_config(struct nlmsghdr *nlh) {
    nlh->nlmsg_flags |= NLM_F_ACK;
    nlh->nlmsg_seq = (uint32_t)time(NULL);
    if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) return -1;
    char buf[MNL_SOCKET_BUFFER_SIZE];
    for (;;) {
        ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof buf);
        if (n < 0) return -1;
        const struct nlmsghdr *r = (const struct nlmsghdr *)buf;
        int len = (int)n;
        while (mnl_nlmsg_ok(r, len)) {
            uint16_t type = r->nlmsg_type;
            if ((type >> 8) == NFNL_SUBSYS_QUEUE && (type & 0xff) == NFQNL_MSG_PACKET) {
                /* Only while unbinding: a packet that came in after the final release goes
                 * through at once (the kernel drops what is still queued at unbind). */
                struct nlattr *attr[NFQA_MAX + 1] = {0};
                if (nfq_nlmsg_parse(r, attr) >= 0 && attr[NFQA_PACKET_HDR]) {
                    struct nfqnl_msg_packet_hdr *ph = mnl_attr_get_payload(attr[NFQA_PACKET_HDR]);
                    st.received++; st.released++;
                    put_verdict(NFQNL_MSG_VERDICT, ntohl(ph->packet_id));
                    flush_out();
                }
            } else if (r->nlmsg_type == NLMSG_ERROR) {
                const struct nlmsgerr *e = mnl_nlmsg_get_payload(r);
                if (e->error) { errno = -e->error; return -1; }
                return 0;
            }
            r = mnl_nlmsg_next(r, &len);
        }
    }
}

static void write_stats(uint64_t started) {
    if (!cfg.stats_path) return;
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", cfg.stats_path);
    FILE *f = fopen(tmp, "w");
    if (!f) return;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6, sys = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    fprintf(f, "uptime_s=%.3f received=%" PRIu64 " released=%" PRIu64 " held=%zu max_held=%" PRIu64
               " verdict_msgs=%" PRIu64 " sends=%" PRIu64 " errors=%" PRIu64 " recv_overruns=%" PRIu64
               " late_avg_ms=%.3f late_max_ms=%.3f early_avg_ms=%.3f early_max_ms=%.3f wakeups=%" PRIu64
               " tick_ms=%.3f cpu_user_s=%.3f cpu_sys_s=%.3f delay_ms=%.3f jitter_ms=%.3f reorder=%d\n",
            (now_ns() - started) / 1e9, st.received, st.released, heap_len, st.max_held,
            st.verdict_msgs, st.sends, st.errors, st.recv_overruns,
            st.released ? st.late_sum_ns / 1e6 / st.released : 0.0, st.late_max_ns / 1e6,
            st.released ? st.early_sum_ns / 1e6 / st.released : 0.0, st.early_max_ns / 1e6, st.wakeups,
            cfg.tick_ns / 1e6, user, sys,
            cfg.delay_ns / 1e6, cfg.jitter_ns / 1e6, cfg.reorder);
    fclose(f);
    rename(tmp, cfg.stats_path);
}

static void on_signal(int sig) { (void)sig; stop_requested = 1; }

static void usage(FILE *f) {
    fprintf(f,
        "usage: delayer [--queue N] --delay MS [--jitter MS] [--reorder] [--maxlen N]\n"
        "               [--fail-open] [--tick MS] [--seed S] [--stats FILE] [--pidfile FILE]\n"
        "Holds each packet of NFQUEUE N for MS +- jitter milliseconds (uniform), then accepts it.\n"
        "Releases and reads are coalesced on a tick (default 0.5 ms, 0 = exact): each packet\n"
        "leaves within about a quarter tick of its due time.\n"
        "Order is kept unless --reorder. SIGTERM releases every held packet and exits.\n");
}

static uint64_t parse_ms(const char *s, const char *what) {
    char *end;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || v < 0 || v > 60000) {
        fprintf(stderr, "delayer: bad %s '%s' (milliseconds, 0..60000)\n", what, s);
        exit(64);
    }
    return (uint64_t)(v * 1e6);
}

int main(int argc, char **argv) {
    static const struct option opts[] = {
        { "queue", required_argument, 0, 'q' }, { "delay", required_argument, 0, 'd' },
        { "jitter", required_argument, 0, 'j' }, { "reorder", no_argument, 0, 'r' },
        { "maxlen", required_argument, 0, 'm' }, { "fail-open", no_argument, 0, 'f' },
        { "seed", required_argument, 0, 's' }, { "stats", required_argument, 0, 'S' },
        { "pidfile", required_argument, 0, 'p' }, { "tick", required_argument, 0, 't' },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
    };
    int c;
    while ((c = getopt_long(argc, argv, "q:d:j:rm:fs:S:p:t:h", opts, NULL)) != -1) {
        switch (c) {
        case 'q': cfg.queue = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'd': cfg.delay_ns = parse_ms(optarg, "delay"); break;
        case 'j': cfg.jitter_ns = parse_ms(optarg, "jitter"); break;
        case 'r': cfg.reorder = 1; break;
        case 'm': cfg.maxlen = (uint32_t)strtoul(optarg, NULL, 10); break;
        case 'f': cfg.fail_open = 1; break;
        case 's': cfg.seed = strtoull(optarg, NULL, 0); break;
        case 'S': cfg.stats_path = optarg; break;
        case 'p': cfg.pid_path = optarg; break;
        case 't': cfg.tick_ns = parse_ms(optarg, "tick"); break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 64;
        }
    }
    if (optind != argc) { usage(stderr); return 64; }
    rng_state = cfg.seed ? cfg.seed : 1;

    sigset_t block, orig;
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    sigprocmask(SIG_BLOCK, &block, &orig);
    struct sigaction sa = { .sa_handler = on_signal };
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    nl = mnl_socket_open(NETLINK_NETFILTER);
    if (!nl) { perror("delayer: mnl_socket_open"); return 1; }
    if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) { perror("delayer: mnl_socket_bind"); return 1; }
    int one = 1, rcvbuf = 64 << 20;
    mnl_socket_setsockopt(nl, NETLINK_NO_ENOBUFS, &one, sizeof one);
    if (setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof rcvbuf) < 0)
        setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);

    char buf[MNL_SOCKET_BUFFER_SIZE];
    struct nlmsghdr *nlh = nfq_nlmsg_put(buf, NFQNL_MSG_CONFIG, cfg.queue);
    nfq_nlmsg_cfg_put_cmd(nlh, AF_INET, NFQNL_CFG_CMD_BIND);
    if (send_config(nlh) < 0) {
        fprintf(stderr, "delayer: cannot bind queue %u: %s%s\n", cfg.queue, strerror(errno),
                errno == EBUSY ? " (another process holds it)" : "");
        return 1;
    }

    nlh = nfq_nlmsg_put(buf, NFQNL_MSG_CONFIG, cfg.queue);
    nfq_nlmsg_cfg_put_params(nlh, NFQNL_COPY_META, 0);
    nfq_nlmsg_cfg_put_qmaxlen(nlh, cfg.maxlen);
    uint32_t flags = NFQA_CFG_F_GSO | (cfg.fail_open ? NFQA_CFG_F_FAIL_OPEN : 0);
    mnl_attr_put_u32(nlh, NFQA_CFG_FLAGS, htonl(flags));
    mnl_attr_put_u32(nlh, NFQA_CFG_MASK, htonl(NFQA_CFG_F_GSO | NFQA_CFG_F_FAIL_OPEN));
    if (send_config(nlh) < 0) { perror("delayer: configure queue"); return 1; }

    if (cfg.pid_path) {
        FILE *pf = fopen(cfg.pid_path, "w");
        if (!pf) { perror("delayer: pidfile"); return 1; }
        fprintf(pf, "%d\n", (int)getpid());
        fclose(pf);
    }
    fprintf(stderr, "delayer: queue %u, delay %.3f ms, jitter %.3f ms, tick %.3f ms, %s, maxlen %u%s\n",
            cfg.queue, cfg.delay_ns / 1e6, cfg.jitter_ns / 1e6, cfg.tick_ns / 1e6,
            cfg.reorder ? "reordering allowed" : "order kept", cfg.maxlen,
            cfg.fail_open ? ", fail-open" : "");

    rx_init();
    uint64_t started = now_ns(), next_stats = started;
    struct pollfd pfd = { .fd = mnl_socket_get_fd(nl), .events = POLLIN };
    /* Busy: the last read found packets, so more are on their way; the socket is read again
     * a tick later rather than on each arrival. */
    int busy = 0;
    uint64_t last_read = started;
    while (!stop_requested) {
        uint64_t now = now_ns();
        if (now >= next_stats) { write_stats(started); next_stats = now + 1000000000ull; }
        uint64_t wake = next_stats;
        if (heap_len) {
            /* Wake the slack before the next due time (release_due takes it then), but
             * never sooner than half a tick from now. */
            uint64_t due = heap[0].due > release_slack() ? heap[0].due - release_slack() : 0;
            if (due < now + cfg.tick_ns / 2) due = now + cfg.tick_ns / 2;
            if (due < wake) wake = due;
        }
        if (busy && now + cfg.tick_ns < wake) wake = now + cfg.tick_ns;
        struct timespec ts = { 0, 0 };
        if (wake > now) {
            uint64_t w = wake - now;
            ts.tv_sec = (time_t)(w / 1000000000ull);
            ts.tv_nsec = (long)(w % 1000000000ull);
        }
        /* Signals are only delivered inside ppoll: no race. */
        int r = busy ? ppoll(NULL, 0, &ts, &orig) : ppoll(&pfd, 1, &ts, &orig);
        if (r < 0 && errno != EINTR) { perror("delayer: ppoll"); break; }
        st.wakeups++;
        if (busy) {
            /* What came in since the last read is dated at the middle of that interval. */
            uint64_t t = now_ns();
            busy = read_some(last_read + (t - last_read) / 2) > 0;
            last_read = t;
        } else if (r > 0) {
            if (pfd.revents & (POLLERR | POLLNVAL)) {
                /* ENOBUFS shows up as POLLERR; reading clears it. */
                st.recv_overruns++;
            }
            busy = read_some(0) > 0 && cfg.tick_ns > 0;
            last_read = now_ns();
        }
        release_due(now_ns(), 0);
    }

    /* Clean exit: take in what is already queued to us, let every held packet go now, then
     * unbind. (netlab removes the NFQUEUE rule first, so nothing new arrives meanwhile; what
     * still slips in before the unbind is accepted in send_config.) */
    for (int i = 0; i < 1000 && read_some(0) > 0; i++) {}
    release_due(now_ns(), 1);
    nlh = nfq_nlmsg_put(buf, NFQNL_MSG_CONFIG, cfg.queue);
    nfq_nlmsg_cfg_put_cmd(nlh, AF_INET, NFQNL_CFG_CMD_UNBIND);
    send_config(nlh);
    write_stats(started);
    fprintf(stderr, "delayer: exit: received %" PRIu64 " released %" PRIu64 " max held %" PRIu64
                    " errors %" PRIu64 "\n", st.received, st.released, st.max_held, st.errors);
    mnl_socket_close(nl);
    free(heap);
    if (cfg.pid_path) unlink(cfg.pid_path);
    return 0;
}
