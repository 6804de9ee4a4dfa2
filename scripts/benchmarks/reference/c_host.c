/* Reference host (the floor): reads one frame, writes one fixed reply, loops
 * until EOF. The reply is built in, or the bytes of the file named by
 * BENCH_REPLY_FILE (read once at start) so that it is the same size as the
 * host it is compared with. Protocol: 32-bit native-order length + body. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_exact(int fd, void *p, size_t n) {
    unsigned char *c = p;
    while (n > 0) {
        ssize_t r = read(fd, c, n);
        if (r <= 0) return -1;
        c += r; n -= r;
    }
    return 0;
}

static int write_all(int fd, const void *p, size_t n) {
    const unsigned char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w <= 0) return -1;
        c += w; n -= w;
    }
    return 0;
}

int main(void) {
    static const char fixed[] = "{\"status\":\"success\",\"settings\":{\"enabled\":true,\"theme\":\"auto\"}}";
    unsigned char *reply = (unsigned char *)fixed;
    uint32_t rlen = sizeof fixed - 1;
    const char *path = getenv("BENCH_REPLY_FILE");
    if (path && *path) {
        int fd = open(path, O_RDONLY);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0) return 1;
        reply = malloc(st.st_size);
        if (read_exact(fd, reply, st.st_size)) return 1;
        rlen = (uint32_t)st.st_size;
        close(fd);
    }
    unsigned char *out = malloc(rlen + 4);
    memcpy(out, &rlen, 4);
    memcpy(out + 4, reply, rlen);
    for (;;) {
        uint32_t len;
        if (read_exact(0, &len, 4)) return 0;
        unsigned char *body = malloc(len ? len : 1);
        if (!body || read_exact(0, body, len)) return 1;
        free(body);
        if (write_all(1, out, rlen + 4)) return 0;
    }
}
