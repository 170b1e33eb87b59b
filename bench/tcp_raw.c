/* Raw loopback TCP bandwidth: the ceiling for the fabric's TCP transport, measured the same way
 * as the OSU-style 'bw' test (a window of messages, then a 4-byte acknowledgement), with plain
 * blocking sockets and TCP_NODELAY, between a parent and a forked child on 127.0.0.1.
 *
 *   tcp_raw [maxBytes [minBytes [polling]]]
 *       prints "RESULT bw raw <bytes> <MB/s>" for minBytes (1) .. maxBytes; with "polling", the
 *       sockets are non-blocking and both sides retry at once when a call would block, as the
 *       fabric's TCP transport and Open MPI's TCP BTL poll ("RESULT bw raw-polling ..."). On a
 *       guest whose two vCPUs sometimes sit in different core complexes, polling and blocking
 *       alike lose about half their bandwidth there (docs/performance.md, thirty-ninth session).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WINDOW 64

static void die(const char *what) {
    perror(what);
    exit(1);
}

static int polling;

static void full_write(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && polling && errno == EAGAIN) continue;
        if (k <= 0) die("write");
        p += k;
        n -= (size_t)k;
    }
}

static void full_read(int fd, char *p, size_t n) {
    while (n > 0) {
        ssize_t k = read(fd, p, n);
        if (k < 0 && polling && errno == EAGAIN) continue;
        if (k <= 0) die("read");
        p += k;
        n -= (size_t)k;
    }
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static long iterations(long size) {
    long n = (256L << 20) / (size * WINDOW);
    return n < 10 ? 10 : n > 2000 ? 2000 : n;
}

/* One side of the test for every size; the sender reports. Each message of a window has a
 * buffer of its own, as in the MPI tests (Osu.java, osu_c.c): one buffer written 64 times stays
 * in the cache at 128 KiB - 1 MiB where 64 buffers do not, which made this ceiling up to 1.6x
 * higher than the same bytes sent the way the MPI tests send them. */
static void run(int fd, int sender, long min, long max) {
    int ack = 0;
    for (long size = min; size <= max; size *= 2) {
        char *bufs[WINDOW];
        for (int w = 0; w < WINDOW; w++) {
            bufs[w] = malloc((size_t)size);
            if (!bufs[w]) die("malloc");
            memset(bufs[w], 1, (size_t)size);
        }
        long iters = iterations(size);
        double mbps = 0;
        for (int phase = 0; phase < 2; phase++) {
            long n = phase == 0 ? (iters / 4 > 10 ? iters / 4 : 10) : iters;
            double t0 = now();
            for (long i = 0; i < n; i++) {
                for (int w = 0; w < WINDOW; w++) {
                    if (sender) full_write(fd, bufs[w], (size_t)size);
                    else full_read(fd, bufs[w], (size_t)size);
                }
                if (sender) full_read(fd, (char *)&ack, sizeof ack);
                else full_write(fd, (char *)&ack, sizeof ack);
            }
            mbps = (double)size * WINDOW * n / (now() - t0) / 1e6;
        }
        if (sender) printf("RESULT bw %s %ld %.4f\n", polling ? "raw-polling" : "raw", size, mbps);
        fflush(stdout);
        for (int w = 0; w < WINDOW; w++) free(bufs[w]);
    }
}

int main(int argc, char **argv) {
    long max = argc > 1 ? atol(argv[1]) : 16L << 20;
    long min = argc > 2 ? atol(argv[2]) : 1; /* one size alone: tcp_raw S S (bench/run.sh tcp-pairs) */
    if (min < 1) min = 1;
    polling = argc > 3 && strcmp(argv[3], "polling") == 0;
    int one = 1;
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr;
    socklen_t len = sizeof addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (listener < 0 || bind(listener, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(listener, 1) < 0 ||
        getsockname(listener, (struct sockaddr *)&addr, &len) < 0)
        die("listen");
    pid_t child = fork();
    if (child < 0) die("fork");
    if (child == 0) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) die("connect");
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (polling) fcntl(fd, F_SETFL, O_NONBLOCK);
        run(fd, 0, min, max);
        _exit(0);
    }
    int fd = accept(listener, NULL, NULL);
    if (fd < 0) die("accept");
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (polling) fcntl(fd, F_SETFL, O_NONBLOCK);
    run(fd, 1, min, max);
    int status;
    waitpid(child, &status, 0);
    return 0;
}
