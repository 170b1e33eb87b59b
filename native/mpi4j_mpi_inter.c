/* Intercommunicators, MPI_Comm_create_group, ports and names (issue 10): the natives of
 * MpiInterNative. Every communicator made here returns errors (MPI_ERRORS_RETURN). */
#include "mpi4j_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_github_mpi4j_backend_mpi_MpiInterNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiInterNative_##name

int inter_on_load(JNIEnv *env) {
    (void)env; /* nothing cached */
    return 0;
}

void inter_on_unload(JNIEnv *env) {
    (void)env;
}

static jlong new_comm(JNIEnv *env, int rc, MPI_Comm c, const char *call) {
    if (mpi_failed(env, rc, call)) return 0;
    if (c == MPI_COMM_NULL) return 0;
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    return FROM_HANDLE(c);
}

JNIEXPORT jboolean JNICALL JNI_FN(isInter0)(JNIEnv *env, jclass cls, jlong comm) {
    (void)cls;
    int flag = 0;
    mpi_failed(env, MPI_Comm_test_inter(TO_COMM(comm), &flag), "MPI_Comm_test_inter");
    return flag ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jint JNICALL JNI_FN(remoteSize0)(JNIEnv *env, jclass cls, jlong comm) {
    (void)cls;
    int n = 0;
    mpi_failed(env, MPI_Comm_remote_size(TO_COMM(comm), &n), "MPI_Comm_remote_size");
    return n;
}

/* The remote group as ranks of MPI_COMM_WORLD (-1 for a process outside it). */
JNIEXPORT jintArray JNICALL JNI_FN(remoteWorldRanks0)(JNIEnv *env, jclass cls, jlong comm) {
    (void)cls;
    MPI_Group remote, world;
    int n = 0;
    if (mpi_failed(env, MPI_Comm_remote_group(TO_COMM(comm), &remote), "MPI_Comm_remote_group")) return NULL;
    MPI_Group_size(remote, &n);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int *in = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    int *out = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    jintArray result = NULL;
    if (in != NULL && out != NULL) {
        for (int i = 0; i < n; i++) in[i] = i;
        if (!mpi_failed(env, MPI_Group_translate_ranks(remote, n, in, world, out), "MPI_Group_translate_ranks")) {
            for (int i = 0; i < n; i++) if (out[i] == MPI_UNDEFINED) out[i] = -1;
            result = (*env)->NewIntArray(env, n);
            if (result != NULL) (*env)->SetIntArrayRegion(env, result, 0, n, out);
        }
    } else {
        throw_other(env, "getRemoteGroup: out of memory");
    }
    free(in);
    free(out);
    MPI_Group_free(&remote);
    MPI_Group_free(&world);
    return result;
}

JNIEXPORT jlong JNICALL JNI_FN(create0)(JNIEnv *env, jclass cls, jlong local, jint localLeader, jlong peer,
                                        jint remoteLeader, jint tag) {
    (void)cls;
    MPI_Comm c = MPI_COMM_NULL;
    int rc = MPI_Intercomm_create(TO_COMM(local), localLeader, TO_COMM(peer), remoteLeader, tag, &c);
    return new_comm(env, rc, c, "MPI_Intercomm_create");
}

JNIEXPORT jlong JNICALL JNI_FN(merge0)(JNIEnv *env, jclass cls, jlong inter, jboolean high) {
    (void)cls;
    MPI_Comm c = MPI_COMM_NULL;
    int rc = MPI_Intercomm_merge(TO_COMM(inter), high ? 1 : 0, &c);
    return new_comm(env, rc, c, "MPI_Intercomm_merge");
}

JNIEXPORT jlong JNICALL JNI_FN(createGroup0)(JNIEnv *env, jclass cls, jlong comm, jintArray ranks, jint tag) {
    (void)cls;
    jsize n = (*env)->GetArrayLength(env, ranks);
    int *r = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (r == NULL) {
        throw_other(env, "MPI_Comm_create_group: out of memory");
        return 0;
    }
    (*env)->GetIntArrayRegion(env, ranks, 0, n, (jint *)r);
    MPI_Group group, sub;
    MPI_Comm c = MPI_COMM_NULL;
    int rc = MPI_Comm_group(TO_COMM(comm), &group);
    if (rc == MPI_SUCCESS) {
        rc = MPI_Group_incl(group, (int)n, r, &sub);
        if (rc == MPI_SUCCESS) {
            rc = MPI_Comm_create_group(TO_COMM(comm), sub, tag, &c);
            MPI_Group_free(&sub);
        }
        MPI_Group_free(&group);
    }
    free(r);
    return new_comm(env, rc, c, "MPI_Comm_create_group");
}

/* ---- ports and names ---- */

/* Copies a Java string into buf (at most cap-1 bytes); returns 0, or -1 with an exception. */
static int get_string(JNIEnv *env, jstring s, char *buf, size_t cap, const char *what) {
    const char *c = (*env)->GetStringUTFChars(env, s, NULL);
    if (c == NULL) return -1;
    size_t n = strlen(c);
    if (n >= cap) {
        (*env)->ReleaseStringUTFChars(env, s, c);
        char msg[160];
        snprintf(msg, sizeof msg, "%s is %zu bytes, longer than this MPI's limit of %zu", what, n, cap - 1);
        throw_other(env, msg);
        return -1;
    }
    memcpy(buf, c, n + 1);
    (*env)->ReleaseStringUTFChars(env, s, c);
    return 0;
}

JNIEXPORT jstring JNICALL JNI_FN(openPort0)(JNIEnv *env, jclass cls) {
    (void)cls;
    char port[MPI_MAX_PORT_NAME + 1];
    memset(port, 0, sizeof port);
    if (mpi_failed(env, MPI_Open_port(MPI_INFO_NULL, port), "MPI_Open_port")) return NULL;
    return (*env)->NewStringUTF(env, port);
}

JNIEXPORT void JNICALL JNI_FN(closePort0)(JNIEnv *env, jclass cls, jstring jport) {
    (void)cls;
    char port[MPI_MAX_PORT_NAME + 1];
    if (get_string(env, jport, port, sizeof port, "the port name") != 0) return;
    mpi_failed(env, MPI_Close_port(port), "MPI_Close_port");
}

/* accept (accepting) or connect; the port name matters at the root only (may be null elsewhere). */
JNIEXPORT jlong JNICALL JNI_FN(acceptOrConnect0)(JNIEnv *env, jclass cls, jstring jport, jint root, jlong comm,
                                                 jboolean accepting) {
    (void)cls;
    char port[MPI_MAX_PORT_NAME + 1];
    port[0] = '\0';
    if (jport != NULL && get_string(env, jport, port, sizeof port, "the port name") != 0) return 0;
    MPI_Comm c = MPI_COMM_NULL;
    int rc = accepting ? MPI_Comm_accept(port, MPI_INFO_NULL, root, TO_COMM(comm), &c)
                       : MPI_Comm_connect(port, MPI_INFO_NULL, root, TO_COMM(comm), &c);
    return new_comm(env, rc, c, accepting ? "MPI_Comm_accept" : "MPI_Comm_connect");
}

JNIEXPORT void JNICALL JNI_FN(disconnect0)(JNIEnv *env, jclass cls, jlong comm) {
    (void)cls;
    MPI_Comm c = TO_COMM(comm);
    mpi_failed(env, MPI_Comm_disconnect(&c), "MPI_Comm_disconnect");
}

JNIEXPORT void JNICALL JNI_FN(publish0)(JNIEnv *env, jclass cls, jstring jservice, jstring jport,
                                        jboolean publish) {
    (void)cls;
    char port[MPI_MAX_PORT_NAME + 1];
    const char *service = (*env)->GetStringUTFChars(env, jservice, NULL);
    if (service == NULL) return;
    if (get_string(env, jport, port, sizeof port, "the port name") == 0) {
        int rc = publish ? MPI_Publish_name(service, MPI_INFO_NULL, port)
                         : MPI_Unpublish_name(service, MPI_INFO_NULL, port);
        (*env)->ReleaseStringUTFChars(env, jservice, service);
        mpi_failed(env, rc, publish ? "MPI_Publish_name" : "MPI_Unpublish_name");
        return;
    }
    (*env)->ReleaseStringUTFChars(env, jservice, service);
}

JNIEXPORT jstring JNICALL JNI_FN(lookup0)(JNIEnv *env, jclass cls, jstring jservice) {
    (void)cls;
    char port[MPI_MAX_PORT_NAME + 1];
    memset(port, 0, sizeof port);
    const char *service = (*env)->GetStringUTFChars(env, jservice, NULL);
    if (service == NULL) return NULL;
    int rc = MPI_Lookup_name(service, MPI_INFO_NULL, port);
    (*env)->ReleaseStringUTFChars(env, jservice, service);
    if (mpi_failed(env, rc, "MPI_Lookup_name")) return NULL;
    return (*env)->NewStringUTF(env, port);
}
