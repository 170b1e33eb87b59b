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
