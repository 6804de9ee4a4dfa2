/* Timing harness for scripts/bench: spawns hosts with posix_spawn, talks
 * native-messaging frames over pipes, times with CLOCK_MONOTONIC and reads
 * peak RSS with wait4. Compiled by scripts/bench with `cc -O2`.
 *
 *   harness oneshot N REQFILE|- OUTFILE|- -- PROG ARGS...
 *       N times: spawn, write one frame (REQFILE's bytes; "-" = close stdin
 *       without a frame), read stdout to EOF, wait4. One line per run:
 *       "ns maxrss_kb reply_bytes exit_status". The last reply is written to
 *       OUTFILE unless "-".
 *   harness port N REQFILE -- PROG ARGS...
 *       one process, N sequential round trips of the same frame. Prints
 *       "ns_total p50_ns p90_ns p99_ns reply_bytes maxrss_kb exit_status".
 *   harness concurrent WORKERS PER_WORKER -- PROG ARGS...
 *       WORKERS forked workers each run PER_WORKER one-shot saveContent
 *       requests (content "w<W>-i<I>") in sequence. Prints
 *       "ns_total ok failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void die(const char *what) { perror(what); exit(2); }

static unsigned char *read_file(const char *path, size_t *len) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) die(path);
    struct stat st;
    if (fstat(fd, &st) != 0) die("fstat");
    unsigned char *buf = malloc(st.st_size + 4);
    size_t got = 0;
    while (got < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + 4 + got, st.st_size - got);
        if (n <= 0) die("read");
        got += n;
    }
    close(fd);
    uint32_t l = (uint32_t)st.st_size;
    memcpy(buf, &l, 4); /* native byte order */
    *len = st.st_size + 4;
    return buf;
}

static int write_all(int fd, const unsigned char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) { if (errno == EINTR) continue; return -1; }
        p += w; n -= w;
    }
    return 0;
}

static int read_exact(int fd, unsigned char *p, size_t n) {
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0) { if (errno == EINTR) continue; return -1; }
        if (r == 0) return -1;
        p += r; n -= r;
    }
    return 0;
}

static pid_t spawn(char **argv, int *in_w, int *out_r) {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) die("pipe");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    if (rc != 0) { errno = rc; die("posix_spawn"); }
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    *in_w = in[1];
    *out_r = out[0];
    return pid;
}

static unsigned char *reply_buf;
static size_t reply_cap;

/* Reads stdout to EOF into reply_buf; returns bytes. */
static size_t drain(int fd) {
    size_t len = 0;
    for (;;) {
        if (len == reply_cap) {
            reply_cap = reply_cap ? reply_cap * 2 : (1 << 16);
            reply_buf = realloc(reply_buf, reply_cap);
        }
        ssize_t r = read(fd, reply_buf + len, reply_cap - len);
        if (r < 0) { if (errno == EINTR) continue; die("read reply"); }
        if (r == 0) break;
        len += r;
    }
    return len;
}

static int cmp64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static int oneshot(int n, const char *reqpath, const char *outpath, char **argv) {
    size_t reqlen = 0;
    unsigned char *req = strcmp(reqpath, "-") ? read_file(reqpath, &reqlen) : NULL;
    size_t last = 0;
    for (int i = 0; i < n; i++) {
        int64_t t0 = now_ns();
        int w, r;
        pid_t pid = spawn(argv, &w, &r);
        if (req) write_all(w, req, reqlen);
        close(w);
        last = drain(r);
        close(r);
        int status;
        struct rusage ru;
        if (wait4(pid, &status, 0, &ru) < 0) die("wait4");
        int64_t t1 = now_ns();
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        printf("%lld %ld %zu %d\n", (long long)(t1 - t0), ru.ru_maxrss, last, code);
    }
    if (strcmp(outpath, "-")) {
        FILE *f = fopen(outpath, "wb");
        if (!f) die(outpath);
        fwrite(reply_buf, 1, last, f);
        fclose(f);
    }
    return 0;
}

static int port(int n, const char *reqpath, char **argv) {
    size_t reqlen;
    unsigned char *req = read_file(reqpath, &reqlen);
    int64_t *lat = malloc(sizeof(int64_t) * n);
    int w, r;
    pid_t pid = spawn(argv, &w, &r);
    unsigned char *body = malloc(1 << 21);
    uint32_t blen = 0;
    int64_t start = now_ns();
    for (int i = 0; i < n; i++) {
        int64_t t0 = now_ns();
        if (write_all(w, req, reqlen)) die("write request");
        unsigned char hdr[4];
        if (read_exact(r, hdr, 4)) die("read header");
        memcpy(&blen, hdr, 4);
        if (blen > (1 << 21)) { fprintf(stderr, "reply too big\n"); exit(2); }
        if (read_exact(r, body, blen)) die("read body");
        lat[i] = now_ns() - t0;
    }
    int64_t total = now_ns() - start;
    close(w);
    drain(r);
    close(r);
    int status;
    struct rusage ru;
    wait4(pid, &status, 0, &ru);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    qsort(lat, n, sizeof(int64_t), cmp64);
    printf("%lld %lld %lld %lld %u %ld %d\n", (long long)total, (long long)lat[n / 2],
           (long long)lat[(int)(n * 0.9)], (long long)lat[(int)(n * 0.99)], blen, ru.ru_maxrss, code);
    return 0;
}

static int concurrent(int workers, int per, char **argv) {
    int64_t t0 = now_ns();
    int fds[64][2];
    for (int wk = 0; wk < workers; wk++) {
        if (pipe(fds[wk])) die("pipe");
        pid_t p = fork();
        if (p == 0) {
            close(fds[wk][0]);
            int ok = 0;
            for (int i = 0; i < per; i++) {
                char body[256];
                int bl = snprintf(body, sizeof body,
                    "{\"action\":\"saveContent\",\"url\":\"https://bench.invalid/w%d\",\"title\":\"w%d-i%d\",\"content\":\"w%d-i%d\"}",
                    wk, wk, i, wk, i);
                unsigned char frame[300];
                uint32_t l = bl;
                memcpy(frame, &l, 4);
                memcpy(frame + 4, body, bl);
                int w, r;
                pid_t pid = spawn(argv, &w, &r);
                write_all(w, frame, bl + 4);
                close(w);
                size_t got = drain(r);
                close(r);
                int status;
                waitpid(pid, &status, 0);
                if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && got > 4 &&
                    memmem(reply_buf, got, "\"success\"", 9))
                    ok++;
            }
            if (write(fds[wk][1], &ok, sizeof ok) != sizeof ok) _exit(3);
            _exit(0);
        }
        close(fds[wk][1]);
    }
    int ok = 0;
    for (int wk = 0; wk < workers; wk++) {
        int k = 0;
        if (read(fds[wk][0], &k, sizeof k) == sizeof k) ok += k;
        close(fds[wk][0]);
    }
    while (wait(NULL) > 0) {}
    int64_t t1 = now_ns();
    printf("%lld %d %d\n", (long long)(t1 - t0), ok, workers * per - ok);
    return 0;
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    int sep = 0;
    for (int i = 1; i < argc; i++) if (!strcmp(argv[i], "--")) { sep = i; break; }
    if (argc < 3 || !sep || sep + 1 >= argc) {
        fprintf(stderr, "usage: see the comment at the top of harness.c\n");
        return 64;
    }
    char **prog = argv + sep + 1;
    if (!strcmp(argv[1], "oneshot") && sep == 5) return oneshot(atoi(argv[2]), argv[3], argv[4], prog);
    if (!strcmp(argv[1], "port") && sep == 4) return port(atoi(argv[2]), argv[3], prog);
    if (!strcmp(argv[1], "concurrent") && sep == 4) return concurrent(atoi(argv[2]), atoi(argv[3]), prog);
    fprintf(stderr, "harness: bad arguments\n");
    return 64;
}
