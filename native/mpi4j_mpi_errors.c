/* MPI errors as Java sees them: the MPIException of a failed call, and error classes. mpi.MPI
 * numbers the classes as Open MPI does; other implementations number them differently (MPICH's
 * MPI_ERR_TRUNCATE is 14, Open MPI's 15), so every class leaving the bridge goes through this
 * table, built from the family's own mpi.h. */
#include "mpi4j_mpi.h"

#include <stdio.h>

#include "io_github_mpi4j_backend_mpi_MpiNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiNative_##name

int errors_on_load(JNIEnv *env) {
    (void)env; /* nothing cached: the MPIException class is jni_util's */
    return 0;
}

void errors_on_unload(JNIEnv *env) {
    (void)env;
}

#define J_ERR_OTHER 16 /* mpi.MPI.ERR_OTHER */

int java_error_class(int klass) {
    switch (klass) {
        case MPI_SUCCESS: return 0;
        case MPI_ERR_BUFFER: return 1;
        case MPI_ERR_COUNT: return 2;
        case MPI_ERR_TYPE: return 3;
        case MPI_ERR_TAG: return 4;
        case MPI_ERR_COMM: return 5;
        case MPI_ERR_RANK: return 6;
        case MPI_ERR_REQUEST: return 7;
        case MPI_ERR_ROOT: return 8;
        case MPI_ERR_GROUP: return 9;
        case MPI_ERR_OP: return 10;
        case MPI_ERR_TOPOLOGY: return 11;
        case MPI_ERR_DIMS: return 12;
        case MPI_ERR_ARG: return 13;
        case MPI_ERR_UNKNOWN: return 14;
        case MPI_ERR_TRUNCATE: return 15;
        case MPI_ERR_OTHER: return 16;
        case MPI_ERR_INTERN: return 17;
        case MPI_ERR_IN_STATUS: return 18;
        case MPI_ERR_PENDING: return 19;
        case MPI_ERR_ACCESS: return 20;
        case MPI_ERR_AMODE: return 21;
        case MPI_ERR_ASSERT: return 22;
        case MPI_ERR_BAD_FILE: return 23;
        case MPI_ERR_BASE: return 24;
        case MPI_ERR_CONVERSION: return 25;
        case MPI_ERR_DISP: return 26;
        case MPI_ERR_DUP_DATAREP: return 27;
        case MPI_ERR_FILE_EXISTS: return 28;
        case MPI_ERR_FILE_IN_USE: return 29;
        case MPI_ERR_FILE: return 30;
        case MPI_ERR_INFO_KEY: return 31;
        case MPI_ERR_INFO_NOKEY: return 32;
        case MPI_ERR_INFO_VALUE: return 33;
        case MPI_ERR_INFO: return 34;
        case MPI_ERR_IO: return 35;
        case MPI_ERR_KEYVAL: return 36;
        case MPI_ERR_LOCKTYPE: return 37;
        case MPI_ERR_NAME: return 38;
        case MPI_ERR_NO_MEM: return 39;
        case MPI_ERR_NOT_SAME: return 40;
        case MPI_ERR_NO_SPACE: return 41;
        case MPI_ERR_NO_SUCH_FILE: return 42;
        case MPI_ERR_PORT: return 43;
        case MPI_ERR_QUOTA: return 44;
        case MPI_ERR_READ_ONLY: return 45;
        case MPI_ERR_RMA_CONFLICT: return 46;
        case MPI_ERR_RMA_SYNC: return 47;
        case MPI_ERR_SERVICE: return 48;
        case MPI_ERR_SIZE: return 49;
        case MPI_ERR_SPAWN: return 50;
        case MPI_ERR_UNSUPPORTED_DATAREP: return 51;
        case MPI_ERR_UNSUPPORTED_OPERATION: return 52;
        case MPI_ERR_WIN: return 53;
#ifdef MPI_ERR_PROC_ABORTED
        case MPI_ERR_PROC_ABORTED: return 74;
#endif
        default:
            /* Open MPI's own further classes are already Java's numbers; another
             * implementation's extensions have no Java name. */
            return MPI4J_FAMILY_IS_OMPI ? klass : J_ERR_OTHER;
    }
}

int mpi_failed(JNIEnv *env, int rc, const char *call) {
    if (rc == MPI_SUCCESS) return 0;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0, klass = MPI_ERR_UNKNOWN;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) snprintf(text, sizeof text, "error code %d", rc);
    MPI_Error_class(rc, &klass);
    char msg[MPI_MAX_ERROR_STRING + 128];
    snprintf(msg, sizeof msg, "%s: %s", call, text);
    throw_mpi(env, rc, java_error_class(klass), msg);
    return 1;
}

JNIEXPORT jstring JNICALL JNI_FN(errorString0)(JNIEnv *env, jclass cls, jint code) {
    (void)cls;
    char text[MPI_MAX_ERROR_STRING + 1];
    int len = 0;
    if (mpi_failed(env, MPI_Error_string((int)code, text, &len), "MPI_Error_string")) return NULL;
    text[len] = '\0';
    return (*env)->NewStringUTF(env, text);
}

JNIEXPORT jint JNICALL JNI_FN(errorClass0)(JNIEnv *env, jclass cls, jint code) {
    (void)cls;
    int klass = 0;
    if (mpi_failed(env, MPI_Error_class((int)code, &klass), "MPI_Error_class")) return 0;
    return java_error_class(klass);
}
