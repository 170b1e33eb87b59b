/* Scheduling policy of a helper thread (ThreadPolicy): SCHED_BATCH for the progress thread. A
 * batch thread is scheduled as fairly as any other, but its wake-ups never preempt the thread
 * running on the core; it runs on an idle core at once, or on a busy one when the running
 * thread's slice ends. Without it, a non-blocking collective that woke the progress thread on
 * a full node stopped the caller on the spot, for the length of the call's first copy (1-2 ms
 * for 16 MiB), before the caller could go back to its work. Part of libmpi4j_dl: no MPI needed. */
#define _GNU_SOURCE
#include <errno.h>
#include <jni.h>
#include <sched.h>

#include "io_github_mpi4j_runtime_ThreadPolicy.h"

JNIEXPORT jint JNICALL Java_io_github_mpi4j_runtime_ThreadPolicy_batch0(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    struct sched_param p = {0};
    /* pid 0: the calling thread (Linux applies the policy per thread). */
    return sched_setscheduler(0, SCHED_BATCH, &p) == 0 ? 0 : errno;
}

/* Moves the calling thread to the index-th CPU (modulo their number) that it may run on, and
 * gives it back the whole set at once (ThreadPolicy.moveThisThread). The move happens inside
 * the first sched_setaffinity; the second only widens the set again, and the kernel has no
 * reason to move a lone running thread off its CPU. Returns the CPU, MOVE_NOT_NEEDED (the
 * Java constant, through javac's header) when the thread may run on one CPU only, or -errno. */
#define MOVE_NOT_NEEDED ((jint)io_github_mpi4j_runtime_ThreadPolicy_MOVE_NOT_NEEDED)

JNIEXPORT jint JNICALL Java_io_github_mpi4j_runtime_ThreadPolicy_moveTo0(JNIEnv *env, jclass cls, jint index) {
    (void)env;
    (void)cls;
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -errno;
    int n = CPU_COUNT(&allowed);
    if (n < 2 || index < 0) return MOVE_NOT_NEEDED;
    int want = index % n, cpu = -1;
    for (int c = 0, seen = 0; c < CPU_SETSIZE; c++) {
        if (CPU_ISSET(c, &allowed) && seen++ == want) {
            cpu = c;
            break;
        }
    }
    if (cpu < 0) return MOVE_NOT_NEEDED;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) return -errno;
    if (sched_setaffinity(0, sizeof allowed, &allowed) != 0) return -errno;
    return cpu;
}
