/* Derived datatypes (issue 10): an MPI datatype made from the compiled type map Java built
 * (io.github.mpi4j.spi.TypeMap): its blocks as one MPI_Type_create_struct over predefined
 * leaves, resized to the bounds Java computed, so that Java and MPI agree on every extent.
 * Java validated everything; these calls only build and free. Nothing is cached at load. */
#include "mpi4j_mpi.h"

#include <stdlib.h>

#include "io_github_mpi4j_backend_mpi_MpiTypeNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiTypeNative_##name

JNIEXPORT jlong JNICALL JNI_FN(create0)(JNIEnv *env, jclass cls, jintArray counts, jlongArray displs,
                                        jlongArray leaves, jlong lb, jlong extent) {
    (void)cls;
    jsize n = (*env)->GetArrayLength(env, counts);
    int *c = malloc(sizeof(int) * (size_t)(n + 1));
    MPI_Aint *d = malloc(sizeof(MPI_Aint) * (size_t)(n + 1));
    MPI_Datatype *t = malloc(sizeof(MPI_Datatype) * (size_t)(n + 1));
    jlong *tmp = malloc(sizeof(jlong) * (size_t)(n + 1));
    if (c == NULL || d == NULL || t == NULL || tmp == NULL) {
        free(c);
        free(d);
        free(t);
        free(tmp);
        throw_mpi(env, 0, J_ERR_NO_MEM, "MPI_Type_create_struct: out of memory for the type map's blocks");
        return 0;
    }
    (*env)->GetIntArrayRegion(env, counts, 0, n, (jint *)c);
    (*env)->GetLongArrayRegion(env, displs, 0, n, tmp);
    for (jsize i = 0; i < n; i++) d[i] = (MPI_Aint)tmp[i];
    (*env)->GetLongArrayRegion(env, leaves, 0, n, tmp);
    for (jsize i = 0; i < n; i++) t[i] = TO_TYPE(tmp[i]);
    free(tmp);
    MPI_Datatype blocks = MPI_DATATYPE_NULL, type = MPI_DATATYPE_NULL;
    int rc = MPI_Type_create_struct((int)n, c, d, t, &blocks);
    free(c);
    free(d);
    free(t);
    if (mpi_failed(env, rc, "MPI_Type_create_struct")) return 0;
    rc = MPI_Type_create_resized(blocks, (MPI_Aint)lb, (MPI_Aint)extent, &type);
    MPI_Type_free(&blocks);
    if (mpi_failed(env, rc, "MPI_Type_create_resized")) return 0;
    rc = MPI_Type_commit(&type);
    if (rc != MPI_SUCCESS) {
        MPI_Type_free(&type);
        mpi_failed(env, rc, "MPI_Type_commit");
        return 0;
    }
    return FROM_HANDLE(type);
}

JNIEXPORT void JNICALL JNI_FN(free0)(JNIEnv *env, jclass cls, jlong handle) {
    (void)cls;
    MPI_Datatype type = TO_TYPE(handle);
    mpi_failed(env, MPI_Type_free(&type), "MPI_Type_free");
}

JNIEXPORT jlongArray JNICALL JNI_FN(bounds0)(JNIEnv *env, jclass cls, jlong handle) {
    (void)cls;
    MPI_Aint lb = 0, extent = 0, tlb = 0, textent = 0;
    int size = 0;
    int rc = MPI_Type_get_extent(TO_TYPE(handle), &lb, &extent);
    if (rc == MPI_SUCCESS) rc = MPI_Type_get_true_extent(TO_TYPE(handle), &tlb, &textent);
    if (rc == MPI_SUCCESS) rc = MPI_Type_size(TO_TYPE(handle), &size);
    if (mpi_failed(env, rc, "MPI_Type_get_extent")) return NULL;
    jlong v[5] = {(jlong)lb, (jlong)extent, (jlong)tlb, (jlong)textent, (jlong)size};
    jlongArray out = (*env)->NewLongArray(env, 5);
    if (out != NULL) (*env)->SetLongArrayRegion(env, out, 0, 5, v);
    return out;
}
