#include "jni_util.h"

#include <stddef.h>

static jclass g_mpiException;
static jmethodID g_mpiExceptionInit; /* (IILjava/lang/String;)V */

int jni_util_on_load(JNIEnv *env) {
    jclass local = (*env)->FindClass(env, "mpi/MPIException");
    if (local == NULL) return -1;
    g_mpiException = (jclass)(*env)->NewGlobalRef(env, local);
    (*env)->DeleteLocalRef(env, local);
    if (g_mpiException == NULL) return -1;
    g_mpiExceptionInit = (*env)->GetMethodID(env, g_mpiException, "<init>", "(IILjava/lang/String;)V");
    if (g_mpiExceptionInit == NULL) {
        jni_util_on_unload(env);
        return -1;
    }
    return 0;
}

void jni_util_on_unload(JNIEnv *env) {
    if (g_mpiException != NULL) (*env)->DeleteGlobalRef(env, g_mpiException);
    g_mpiException = NULL;
    g_mpiExceptionInit = NULL;
}

void throw_mpi(JNIEnv *env, int code, int klass, const char *message) {
    jstring msg = (*env)->NewStringUTF(env, message);
    if (msg == NULL) return; /* OutOfMemoryError pending */
    jobject ex = (*env)->NewObject(env, g_mpiException, g_mpiExceptionInit, (jint)code, (jint)klass, msg);
    (*env)->DeleteLocalRef(env, msg);
    if (ex == NULL) return;
    (*env)->Throw(env, (jthrowable)ex);
    (*env)->DeleteLocalRef(env, ex);
}

void throw_other(JNIEnv *env, const char *message) {
    throw_mpi(env, 16, 16, message);
}

void ubuf_init(ubuf *b, jobject obj, int mode, jlong offset) {
    b->obj = obj;
    b->mode = mode;
    b->offset = offset;
    b->base = NULL;
    b->ptr = NULL;
}

int ubuf_acquire(JNIEnv *env, ubuf *bufs, int n) {
    /* Pass 1: direct buffers (a JNI call each), before any critical region opens. */
    for (int i = 0; i < n; i++) {
        ubuf *b = &bufs[i];
        if (b->mode != BUF_DIRECT) continue;
        b->base = (*env)->GetDirectBufferAddress(env, b->obj);
        if (b->base == NULL) {
            throw_other(env, "mpi4j: buffer is not a direct buffer");
            return -1;
        }
        b->ptr = (char *)b->base + b->offset;
    }
    /* Pass 2: pin arrays; nothing but other criticals may follow. */
    for (int i = 0; i < n; i++) {
        ubuf *b = &bufs[i];
        if (b->mode != BUF_ARRAY) continue;
        b->base = (*env)->GetPrimitiveArrayCritical(env, (jarray)b->obj, NULL);
        if (b->base == NULL) {
            for (int j = 0; j < i; j++) {
                if (bufs[j].mode == BUF_ARRAY && bufs[j].base != NULL) {
                    (*env)->ReleasePrimitiveArrayCritical(env, (jarray)bufs[j].obj, bufs[j].base, JNI_ABORT);
                    bufs[j].base = NULL;
                }
            }
            return -1; /* OutOfMemoryError pending */
        }
        b->ptr = (char *)b->base + b->offset;
    }
    return 0;
}

void ubuf_release(JNIEnv *env, ubuf *bufs, int n, int commit) {
    for (int i = n - 1; i >= 0; i--) {
        ubuf *b = &bufs[i];
        if (b->mode == BUF_ARRAY && b->base != NULL) {
            (*env)->ReleasePrimitiveArrayCritical(env, (jarray)b->obj, b->base, commit ? 0 : JNI_ABORT);
            b->base = NULL;
        }
    }
}
