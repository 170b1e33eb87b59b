/* The environment: predefined attributes of MPI_COMM_WORLD (MPI_HOST, MPI_IO, ...), read with
 * MPI_Comm_get_attr and translated to mpi4j's numbering of special ranks. */
#include "mpi4j_mpi.h"

#include "io_github_mpi4j_backend_mpi_MpiEnvNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiEnvNative_##name

/* Keys as io.github.mpi4j.spi.PredefinedAttribute numbers them. */
enum { K_TAG_UB, K_HOST, K_IO, K_WTIME_IS_GLOBAL, K_APPNUM, K_LASTUSEDCODE, K_UNIVERSE_SIZE };

JNIEXPORT jlong JNICALL JNI_FN(worldAttr0)(JNIEnv *env, jclass cls, jint key) {
    (void)cls;
    int keyval;
    switch (key) {
        case K_TAG_UB: keyval = MPI_TAG_UB; break;
        case K_HOST: keyval = MPI_HOST; break;
        case K_IO: keyval = MPI_IO; break;
        case K_WTIME_IS_GLOBAL: keyval = MPI_WTIME_IS_GLOBAL; break;
        case K_APPNUM: keyval = MPI_APPNUM; break;
        case K_LASTUSEDCODE: keyval = MPI_LASTUSEDCODE; break;
        case K_UNIVERSE_SIZE: keyval = MPI_UNIVERSE_SIZE; break;
        default:
            throw_other(env, "worldAttr0: unknown predefined attribute key");
            return 0;
    }
    int *value = NULL, flag = 0;
    if (mpi_failed(env, MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &value, &flag), "MPI_Comm_get_attr")) return 0;
    if (!flag || value == NULL) return (jlong)INT64_MIN; /* MpiEnvNative.ABSENT (Long.MIN_VALUE) */
    int v = *value;
    if ((key == K_HOST || key == K_IO) && v == MPI_PROC_NULL) return J_PROC_NULL;
    if ((key == K_HOST || key == K_IO) && v == MPI_ANY_SOURCE) return J_ANY_SOURCE;
    return v;
}
