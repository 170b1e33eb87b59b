/* Fake NCCL: one POSIX shared-memory segment per published contribution (a rank's send data
 * of one operation), named /fkn-<id>-<tag>. The segment is a snapshot taken when the operation
 * runs on the rank's stream; peers map it, read it and the last expected reader unlinks the
 * name, so nothing is left in /dev/shm once every reader has been there. */
#define _GNU_SOURCE
#include "fake_nccl.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SEG_MAGIC 0x5345474du

struct seg_header {
    uint32_t magic;
    int readers; /* expected */
    int opened;  /* so far */
    int pad;
    uint64_t bytes;
};

static void seg_name(char *out, size_t n, struct ncclComm *c, const char *tag) {
    snprintf(out, n, "/fkn-%s-%s", c->id_hex, tag);
}

void *fake_seg_create(struct ncclComm *c, const char *tag, const void *data, size_t bytes, int readers) {
    char name[128];
    seg_name(name, sizeof name, c, tag);
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) return NULL;
    size_t total = sizeof(struct seg_header) + bytes;
    if (ftruncate(fd, (off_t)total) != 0) {
        close(fd);
        shm_unlink(name);
        return NULL;
    }
    void *map = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        shm_unlink(name);
        return NULL;
    }
    struct seg_header *h = map;
    h->readers = readers;
    h->bytes = bytes;
    if (bytes) memcpy(h + 1, data, bytes);
    __atomic_store_n(&h->magic, SEG_MAGIC, __ATOMIC_RELEASE);
    munmap(map, total);
    return (void *)1;
}

const void *fake_seg_open(struct ncclComm *c, const char *tag, size_t bytes, void **map, size_t *map_bytes) {
    char name[128];
    seg_name(name, sizeof name, c, tag);
    int fd = shm_open(name, O_RDWR, 0);
    if (fd < 0) return NULL;
    size_t total = sizeof(struct seg_header) + bytes;
    off_t actual = lseek(fd, 0, SEEK_END);
    if (actual < (off_t)sizeof(struct seg_header)) {
        close(fd);
        return NULL;
    }
    void *m = mmap(NULL, (size_t)actual, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return NULL;
    struct seg_header *h = m;
    if (__atomic_load_n(&h->magic, __ATOMIC_ACQUIRE) != SEG_MAGIC) {
        munmap(m, (size_t)actual);
        return NULL;
    }
    if (__atomic_add_fetch(&h->opened, 1, __ATOMIC_ACQ_REL) == h->readers) shm_unlink(name);
    *map = m;
    *map_bytes = (size_t)actual;
    /* A size other than expected (a send/recv count mismatch) is the caller's to report. */
    if (h->bytes != bytes || (size_t)actual < total) return (const void *)-1;
    return h + 1;
}

void fake_seg_close(void *map, size_t map_bytes) {
    if (map) munmap(map, map_bytes);
}
