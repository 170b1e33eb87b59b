/* Spawning processes (issue 11 item 3): the natives of MpiSpawnNative. MPI_Comm_spawn,
 * MPI_Comm_spawn_multiple and MPI_Comm_get_parent; every communicator made here returns errors
 * (MPI_ERRORS_RETURN). The command arguments matter at the root only: elsewhere they are null. */
#include "mpi4j_mpi.h"

#include <stdlib.h>
#include <string.h>

#include "io_github_mpi4j_backend_mpi_MpiSpawnNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiSpawnNative_##name

/* A copy of a Java string (malloc'ed), or NULL with an exception pending. */
static char *copy_string(JNIEnv *env, jstring s) {
    if (s == NULL) {
        throw_other(env, "spawn: a null string reached the native layer");
        return NULL;
    }
    const char *c = (*env)->GetStringUTFChars(env, s, NULL);
    if (c == NULL) return NULL;
    char *out = strdup(c);
    (*env)->ReleaseStringUTFChars(env, s, c);
    if (out == NULL) throw_other(env, "spawn: out of memory");
    return out;
}

static void free_strings(char **a) {
    if (a == NULL) return;
    for (char **p = a; *p != NULL; p++) free(*p);
    free(a);
}

/* A NULL-terminated copy of a String[] (an empty one for null), or NULL with an exception pending. */
static char **copy_strings(JNIEnv *env, jobjectArray arr) {
    jsize n = arr == NULL ? 0 : (*env)->GetArrayLength(env, arr);
    char **out = calloc((size_t)n + 1, sizeof(char *));
    if (out == NULL) {
        throw_other(env, "spawn: out of memory");
        return NULL;
    }
    for (jsize i = 0; i < n; i++) {
        jstring s = (jstring)(*env)->GetObjectArrayElement(env, arr, i);
        if (s == NULL && (*env)->ExceptionCheck(env)) {
            free_strings(out);
            return NULL;
        }
        out[i] = copy_string(env, s);
        (*env)->DeleteLocalRef(env, s);
        if (out[i] == NULL) {
            free_strings(out);
            return NULL;
        }
    }
    return out;
}

/* Element i of a String[][] as a NULL-terminated copy, or NULL with an exception pending. */
static char **copy_row(JNIEnv *env, jobjectArray rows, jsize i) {
    jobjectArray row = rows == NULL ? NULL : (jobjectArray)(*env)->GetObjectArrayElement(env, rows, i);
    if (row == NULL && (*env)->ExceptionCheck(env)) return NULL;
    char **out = copy_strings(env, row);
    if (row != NULL) (*env)->DeleteLocalRef(env, row);
    return out;
}

/* The spawn's arrays at the root, all of count entries. */
typedef struct {
    int count;
    char **programs;   /* count entries, NULL-terminated */
    char ***argv;      /* count NULL-terminated lists */
    int *maxprocs;
    MPI_Info *info;
} spawn_args;

static void free_args(spawn_args *a) {
    if (a->argv != NULL) {
        for (int i = 0; i < a->count; i++) free_strings(a->argv[i]);
        free(a->argv);
    }
    if (a->info != NULL) {
        for (int i = 0; i < a->count; i++) {
            if (a->info[i] != MPI_INFO_NULL) MPI_Info_free(&a->info[i]);
        }
        free(a->info);
    }
    free_strings(a->programs);
    free(a->maxprocs);
}

/* Fills a from the Java arrays; returns 0, or -1 with an exception pending (a then freed by the caller). */
static int load_args(JNIEnv *env, spawn_args *a, jobjectArray programs, jobjectArray argv, jintArray maxprocs,
                     jobjectArray keys, jobjectArray values) {
    a->count = (int)(*env)->GetArrayLength(env, programs);
    a->programs = copy_strings(env, programs);
    if (a->programs == NULL) return -1;
    a->argv = calloc((size_t)a->count, sizeof(char **));
    a->maxprocs = calloc((size_t)a->count, sizeof(int));
    a->info = calloc((size_t)a->count, sizeof(MPI_Info));
    if (a->argv == NULL || a->maxprocs == NULL || a->info == NULL) {
        throw_other(env, "spawn: out of memory");
        return -1;
    }
    for (int i = 0; i < a->count; i++) a->info[i] = MPI_INFO_NULL;
    (*env)->GetIntArrayRegion(env, maxprocs, 0, a->count, a->maxprocs);
    for (int i = 0; i < a->count; i++) {
        a->argv[i] = copy_row(env, argv, i);
        if (a->argv[i] == NULL) return -1;
        char **k = copy_row(env, keys, i);
        if (k == NULL) return -1;
        char **v = copy_row(env, values, i);
        if (v == NULL) {
            free_strings(k);
            return -1;
        }
        int rc = MPI_SUCCESS;
        if (k[0] != NULL) {
            rc = MPI_Info_create(&a->info[i]);
            for (int j = 0; rc == MPI_SUCCESS && k[j] != NULL && v[j] != NULL; j++) rc = MPI_Info_set(a->info[i], k[j], v[j]);
        }
        free_strings(k);
        free_strings(v);
        if (mpi_failed(env, rc, "MPI_Info_set")) return -1;
    }
    return 0;
}

JNIEXPORT jlong JNICALL JNI_FN(spawn0)(JNIEnv *env, jclass cls, jlong comm, jint root, jboolean multiple,
                                       jobjectArray programs, jobjectArray argv, jintArray maxprocs,
                                       jobjectArray keys, jobjectArray values, jintArray errcodes) {
    (void)cls;
    spawn_args a;
    memset(&a, 0, sizeof a);
    if (programs != NULL && load_args(env, &a, programs, argv, maxprocs, keys, values) != 0) {
        free_args(&a);
        return 0;
    }
    jsize ncodes = errcodes == NULL ? 0 : (*env)->GetArrayLength(env, errcodes);
    int *codes = malloc(sizeof(int) * (size_t)(ncodes > 0 ? ncodes : 1));
    if (codes == NULL) {
        free_args(&a);
        throw_other(env, "spawn: out of memory");
        return 0;
    }
    for (jsize i = 0; i < ncodes; i++) codes[i] = MPI_SUCCESS;
    MPI_Comm inter = MPI_COMM_NULL;
    int rc;
    if (multiple) {
        rc = MPI_Comm_spawn_multiple(a.count, a.programs, a.argv, a.maxprocs, a.info, root, TO_COMM(comm), &inter,
                                     ncodes > 0 ? codes : MPI_ERRCODES_IGNORE);
    } else {
        rc = MPI_Comm_spawn(a.programs != NULL ? a.programs[0] : NULL, a.argv != NULL ? a.argv[0] : MPI_ARGV_NULL,
                            a.maxprocs != NULL ? a.maxprocs[0] : 0, a.info != NULL ? a.info[0] : MPI_INFO_NULL, root,
                            TO_COMM(comm), &inter, ncodes > 0 ? codes : MPI_ERRCODES_IGNORE);
    }
    free_args(&a);
    /* A failed call whose library left the codes alone (MPICH) reports the call's error for each. */
    for (jsize i = 0; rc != MPI_SUCCESS && i < ncodes; i++) {
        if (codes[i] == MPI_SUCCESS) codes[i] = rc;
    }
    for (jsize i = 0; i < ncodes; i++) {
        int klass = codes[i];
        if (klass != MPI_SUCCESS) MPI_Error_class(codes[i], &klass);
        codes[i] = java_error_class(klass);
    }
    if (ncodes > 0) (*env)->SetIntArrayRegion(env, errcodes, 0, ncodes, codes);
    free(codes);
    if (mpi_failed(env, rc, multiple ? "MPI_Comm_spawn_multiple" : "MPI_Comm_spawn")) return 0;
    if (inter == MPI_COMM_NULL) return 0;
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    return FROM_HANDLE(inter);
}

JNIEXPORT jlong JNICALL JNI_FN(parent0)(JNIEnv *env, jclass cls) {
    (void)cls;
    MPI_Comm parent = MPI_COMM_NULL;
    if (mpi_failed(env, MPI_Comm_get_parent(&parent), "MPI_Comm_get_parent")) return 0;
    if (parent == MPI_COMM_NULL) return 0;
    MPI_Comm_set_errhandler(parent, MPI_ERRORS_RETURN);
    return FROM_HANDLE(parent);
}
