/* Communicator management: rank, size, the tag bound, world ranks, dup, split, create, free.
 * Every communicator made here returns errors (MPI_ERRORS_RETURN) instead of aborting. */
#include "mpi4j_mpi.h"

#include <stdlib.h>

#include "io_github_mpi4j_backend_mpi_MpiNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiNative_##name

int comm_on_load(JNIEnv *env) {
    (void)env; /* nothing cached */
    return 0;
}

void comm_on_unload(JNIEnv *env) {
    (void)env;
}

JNIEXPORT jint JNICALL JNI_FN(rank0)(JNIEnv *env, jclass cls, jlong comm) {
    (void)cls;
    int r = 0;
    mpi_failed(env, MPI_Comm_rank(TO_COMM(comm), &r), "MPI_Comm_rank");
    return r;
}

JNIEXPORT jint JNICALL JNI_FN(size0)(JNIEnv *env, jclass cls, jlong comm) {
    (void)cls;
    int n = 0;
    mpi_failed(env, MPI_Comm_size(TO_COMM(comm), &n), "MPI_Comm_size");
    return n;
}

JNIEXPORT jint JNICALL JNI_FN(tagUb0)(JNIEnv *env, jclass cls, jlong comm) {
    (void)cls;
    int *value = NULL, flag = 0;
    if (mpi_failed(env, MPI_Comm_get_attr(TO_COMM(comm), MPI_TAG_UB, &value, &flag), "MPI_Comm_get_attr")) return 0;
    return flag && value != NULL ? *value : 32767;
}

JNIEXPORT jintArray JNICALL JNI_FN(worldRanks0)(JNIEnv *env, jclass cls, jlong comm) {
    (void)cls;
    MPI_Group group, world;
    int n = 0;
    if (mpi_failed(env, MPI_Comm_size(TO_COMM(comm), &n), "MPI_Comm_size")) return NULL;
    if (mpi_failed(env, MPI_Comm_group(TO_COMM(comm), &group), "MPI_Comm_group")) return NULL;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int *in = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    int *out = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    jintArray result = NULL;
    if (in != NULL && out != NULL) {
        for (int i = 0; i < n; i++) in[i] = i;
        int rc = MPI_Group_translate_ranks(group, n, in, world, out);
        if (!mpi_failed(env, rc, "MPI_Group_translate_ranks")) {
            result = (*env)->NewIntArray(env, n);
            if (result != NULL) (*env)->SetIntArrayRegion(env, result, 0, n, out);
        }
    } else {
        throw_other(env, "worldRanks: out of memory");
    }
    free(in);
    free(out);
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    return result;
}

static jlong finish_new_comm(JNIEnv *env, int rc, MPI_Comm c, const char *call) {
    if (mpi_failed(env, rc, call)) return 0;
    if (c == MPI_COMM_NULL) return 0;
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    return FROM_HANDLE(c);
}

JNIEXPORT jlong JNICALL JNI_FN(dup0)(JNIEnv *env, jclass cls, jlong comm) {
    (void)cls;
    MPI_Comm c = MPI_COMM_NULL;
    int rc = MPI_Comm_dup(TO_COMM(comm), &c);
    return finish_new_comm(env, rc, c, "MPI_Comm_dup");
}

JNIEXPORT jlong JNICALL JNI_FN(split0)(JNIEnv *env, jclass cls, jlong comm, jint color, jint key) {
    (void)cls;
    MPI_Comm c = MPI_COMM_NULL;
    int rc = MPI_Comm_split(TO_COMM(comm), color < 0 ? MPI_UNDEFINED : (int)color, (int)key, &c);
    return finish_new_comm(env, rc, c, "MPI_Comm_split");
}

JNIEXPORT jlong JNICALL JNI_FN(splitShared0)(JNIEnv *env, jclass cls, jlong comm, jboolean undefined, jint key) {
    (void)cls;
    MPI_Comm c = MPI_COMM_NULL;
    int rc = MPI_Comm_split_type(TO_COMM(comm), undefined ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, (int)key,
                                 MPI_INFO_NULL, &c);
    return finish_new_comm(env, rc, c, "MPI_Comm_split_type");
}

JNIEXPORT jlong JNICALL JNI_FN(create0)(JNIEnv *env, jclass cls, jlong comm, jintArray ranks) {
    (void)cls;
    jsize n = (*env)->GetArrayLength(env, ranks);
    int *r = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (r == NULL) {
        throw_other(env, "MPI_Comm_create: out of memory");
        return 0;
    }
    (*env)->GetIntArrayRegion(env, ranks, 0, n, (jint *)r);
    MPI_Group group, sub;
    MPI_Comm c = MPI_COMM_NULL;
    int rc = MPI_Comm_group(TO_COMM(comm), &group);
    if (rc == MPI_SUCCESS) {
        rc = MPI_Group_incl(group, (int)n, r, &sub);
        if (rc == MPI_SUCCESS) {
            rc = MPI_Comm_create(TO_COMM(comm), sub, &c);
            MPI_Group_free(&sub);
        }
        MPI_Group_free(&group);
    }
    free(r);
    return finish_new_comm(env, rc, c, "MPI_Comm_create");
}

JNIEXPORT void JNICALL JNI_FN(free0)(JNIEnv *env, jclass cls, jlong comm) {
    (void)cls;
    MPI_Comm c = TO_COMM(comm);
    mpi_failed(env, MPI_Comm_free(&c), "MPI_Comm_free");
}
