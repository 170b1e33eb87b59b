/* The MPI bridge: library loading, initialization (with the JVM's signal handlers kept),
 * environment queries and communicator management. Point-to-point, collectives and user ops
 * live in their own files. */
#define _GNU_SOURCE
#include "mpi4j_mpi.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_github_mpi4j_backend_mpi_MpiNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiNative_##name

JavaVM *g_vm;

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void)reserved;
    JNIEnv *env;
    g_vm = vm;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
    if (jni_util_init(env) != 0) return JNI_ERR;
    if (user_ops_init(env) != 0) return JNI_ERR;
    /* This bridge is linked to no libmpi: the Java loader opened the system libmpi RTLD_GLOBAL
     * first (MpiBridge). Refuse to load without one, or next to the other ABI family's libmpi,
     * rather than fail at the first MPI call. */
    if (dlsym(RTLD_DEFAULT, "MPI_Init") == NULL) return JNI_ERR;
    if ((dlsym(RTLD_DEFAULT, "ompi_mpi_comm_world") != NULL) != (MPI4J_FAMILY_IS_OMPI != 0)) return JNI_ERR;
    /* The JVM loads us (and libmpi with us) RTLD_LOCAL; Open MPI's plugins need libmpi's symbols
     * global, so re-open the library that defines MPI_Init with RTLD_GLOBAL. */
    Dl_info info;
    if (dladdr((void *)&MPI_Init, &info) != 0 && info.dli_fname != NULL) {
        dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
    }
    return JNI_VERSION_1_8;
}

JNIEXPORT void JNICALL JNI_OnUnload(JavaVM *vm, void *reserved) {
    (void)reserved;
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) == JNI_OK) jni_util_unload(env);
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

void set_status(JNIEnv *env, jobject status, MPI_Status *s) {
    if (status == NULL) return;
    int count = 0, cancelled = 0;
    MPI_Get_count(s, MPI_BYTE, &count);
    MPI_Test_cancelled(s, &cancelled);
    int src = s->MPI_SOURCE, tag = s->MPI_TAG;
    (*env)->SetIntField(env, status, g_statusSource,
                        src == MPI_PROC_NULL ? J_PROC_NULL : src == MPI_ANY_SOURCE ? J_ANY_SOURCE : src);
    (*env)->SetIntField(env, status, g_statusTag, tag == MPI_ANY_TAG ? J_ANY_TAG : tag);
    (*env)->SetIntField(env, status, g_statusError, MPI_SUCCESS);
    (*env)->SetBooleanField(env, status, g_statusCancelled, cancelled ? JNI_TRUE : JNI_FALSE);
    (*env)->SetLongField(env, status, g_statusBytes, count == MPI_UNDEFINED ? 0 : (jlong)count);
}

void arg_buf(ubuf *b, jobject obj, jint mode, jlong off) {
    ubuf_init(b, obj, mode, off);
    if (mode == BUF_IN_PLACE) b->ptr = MPI_IN_PLACE;
    if (mode == BUF_RAW) b->ptr = (void *)(intptr_t)off; /* an address Java already knows */
}

JNIEXPORT jlong JNICALL JNI_FN(address0)(JNIEnv *env, jclass cls, jobject buf) {
    (void)cls;
    return (jlong)(intptr_t)(*env)->GetDirectBufferAddress(env, buf);
}

/* Staging memory for Java arrays: malloc'ed, so memory the pool does not keep is returned at
 * once instead of waiting for the GC to notice an unreachable direct buffer. */
JNIEXPORT jobject JNICALL JNI_FN(allocateStaging0)(JNIEnv *env, jclass cls, jlong bytes) {
    (void)cls;
    void *p = bytes > 0 ? malloc((size_t)bytes) : NULL;
    if (p == NULL) {
        char msg[96];
        snprintf(msg, sizeof msg, "cannot allocate %lld bytes of staging memory", (long long)bytes);
        throw_mpi(env, J_ERR_NO_MEM, J_ERR_NO_MEM, msg);
        return NULL;
    }
    jobject buf = (*env)->NewDirectByteBuffer(env, p, bytes);
    if (buf == NULL) free(p); /* an exception is pending */
    return buf;
}

JNIEXPORT void JNICALL JNI_FN(freeStaging0)(JNIEnv *env, jclass cls, jobject buf) {
    (void)cls;
    free((*env)->GetDirectBufferAddress(env, buf));
}

/* ---- initialization ------------------------------------------------------------------- */

/* Signals the JVM relies on: faults (implicit null checks, stack banging, safepoint polls),
 * thread suspension, thread dumps. MPI and UCX may install handlers for them in MPI_Init; we
 * put the JVM's back so a NullPointerException stays an exception. */
static const int jvm_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGUSR2, SIGQUIT, SIGPIPE};
#define N_JVM_SIGNALS ((int)(sizeof jvm_signals / sizeof jvm_signals[0]))

static MPI_Datatype pair_types[4]; /* SHORT2, LONG2, FLOAT2, DOUBLE2 */
static MPI_Op pair_ops[8];         /* MINLOC, MAXLOC for each of them */
static MPI_Op wrap_sums[3];        /* SUM of int8, int16, uint16 that wraps like Java */

/* MINLOC/MAXLOC over (value, index) pairs of one C type; ties take the smaller index. */
#define LOC_OP(NAME, T, BETTER)                                                  \
    static void NAME(void *in, void *inout, int *len, MPI_Datatype *dt) {        \
        (void)dt;                                                                \
        T *a = (T *)in, *b = (T *)inout;                                         \
        for (int i = 0; i < *len; i++) {                                         \
            T av = a[2 * i], bv = b[2 * i];                                      \
            if (av BETTER bv) {                                                  \
                b[2 * i] = av;                                                   \
                b[2 * i + 1] = a[2 * i + 1];                                     \
            } else if (av == bv && a[2 * i + 1] < b[2 * i + 1]) {                \
                b[2 * i + 1] = a[2 * i + 1];                                     \
            }                                                                    \
        }                                                                        \
    }
LOC_OP(minloc_short, short, <)
LOC_OP(maxloc_short, short, >)
LOC_OP(minloc_long, int64_t, <)
LOC_OP(maxloc_long, int64_t, >)
LOC_OP(minloc_float, float, <)
LOC_OP(maxloc_float, float, >)
LOC_OP(minloc_double, double, <)
LOC_OP(maxloc_double, double, >)

/* Integer SUM with Java's wrap-around. Open MPI 4.1's AVX component saturates 8- and 16-bit
 * sums instead; only those three types get our own op, everything else keeps MPI's (AVX) ones.
 * Unsigned arithmetic: wrapping is defined, and the bits are the same for signed types. */
#define WRAP_SUM(NAME, T)                                                        \
    static void NAME(void *in, void *inout, int *len, MPI_Datatype *dt) {        \
        (void)dt;                                                                \
        const T *a = (const T *)in;                                              \
        T *b = (T *)inout;                                                       \
        for (int i = 0; i < *len; i++) b[i] = (T)(a[i] + b[i]);                  \
    }
WRAP_SUM(sum_wrap_8, uint8_t)
WRAP_SUM(sum_wrap_16, uint16_t)

static int make_pair_types(void) {
    MPI_Datatype base[4] = {MPI_SHORT, MPI_INT64_T, MPI_FLOAT, MPI_DOUBLE};
    MPI_User_function *fns[8] = {minloc_short, maxloc_short, minloc_long, maxloc_long,
                                 minloc_float, maxloc_float, minloc_double, maxloc_double};
    for (int i = 0; i < 4; i++) {
        int rc = MPI_Type_contiguous(2, base[i], &pair_types[i]);
        if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&pair_types[i]);
        if (rc != MPI_SUCCESS) return rc;
    }
    for (int i = 0; i < 8; i++) {
        int rc = MPI_Op_create(fns[i], 1, &pair_ops[i]);
        if (rc != MPI_SUCCESS) return rc;
    }
    MPI_User_function *wraps[3] = {sum_wrap_8, sum_wrap_16, sum_wrap_16};
    for (int i = 0; i < 3; i++) {
        int rc = MPI_Op_create(wraps[i], 1, &wrap_sums[i]);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

static void set_default_env(const char *name, const char *value) {
    if (getenv(name) == NULL) setenv(name, value, 0);
}

JNIEXPORT jint JNICALL JNI_FN(init0)(JNIEnv *env, jclass cls, jint required) {
    (void)cls;
    int already = 0, provided = MPI_THREAD_SINGLE;
    MPI_Initialized(&already);
    if (already) {
        MPI_Query_thread(&provided);
    } else {
        /* Keep Open MPI's and UCX's fault handlers out of the JVM's way. */
        set_default_env("OMPI_MCA_opal_signal", "");
        set_default_env("UCX_ERROR_SIGNALS", "");
        struct sigaction saved[N_JVM_SIGNALS];
        for (int i = 0; i < N_JVM_SIGNALS; i++) sigaction(jvm_signals[i], NULL, &saved[i]);
        int rc = MPI_Init_thread(NULL, NULL, (int)required, &provided);
        for (int i = 0; i < N_JVM_SIGNALS; i++) sigaction(jvm_signals[i], &saved[i], NULL);
        if (rc != MPI_SUCCESS) {
            char msg[128];
            snprintf(msg, sizeof msg, "MPI_Init_thread failed with code %d", rc);
            throw_other(env, msg);
            return -1;
        }
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (mpi_failed(env, make_pair_types(), "MPI_Init (pair types)")) return -1;
    return provided;
}

/* Ids of io.github.mpi4j.spi.Predefined. */
enum { P_BYTE, P_CHAR, P_SHORT, P_BOOLEAN, P_INT, P_LONG, P_FLOAT, P_DOUBLE, P_PACKED, P_OBJECT,
       P_SHORT2, P_INT2, P_LONG2, P_FLOAT2, P_DOUBLE2, P_SHORT_INT, P_LONG_INT, P_FLOAT_INT, P_DOUBLE_INT,
       P_FLOAT_COMPLEX, P_DOUBLE_COMPLEX };

/* Slots of the op table: MpiNative.OP_* (pinned below). */
enum { O_MAX, O_MIN, O_SUM, O_PROD, O_LAND, O_BAND, O_LOR, O_BOR, O_LXOR, O_BXOR, O_MINLOC, O_MAXLOC,
       O_REPLACE, O_NO_OP, O_USER, O_PAIR_BASE };

MPI4J_PIN(BUF_ARRAY, ARRAY);
MPI4J_PIN(BUF_DIRECT, DIRECT);
MPI4J_PIN(BUF_IN_PLACE, IN_PLACE);
MPI4J_PIN(BUF_NONE, NONE);
MPI4J_PIN(BUF_RAW, RAW);
MPI4J_PIN(P_BYTE, TYPE_BYTE);
MPI4J_PIN(P_CHAR, TYPE_CHAR);
MPI4J_PIN(P_SHORT, TYPE_SHORT);
MPI4J_PIN(P_BOOLEAN, TYPE_BOOLEAN);
MPI4J_PIN(P_INT, TYPE_INT);
MPI4J_PIN(P_LONG, TYPE_LONG);
MPI4J_PIN(P_FLOAT, TYPE_FLOAT);
MPI4J_PIN(P_DOUBLE, TYPE_DOUBLE);
MPI4J_PIN(P_PACKED, TYPE_PACKED);
MPI4J_PIN(P_SHORT2, TYPE_SHORT2);
MPI4J_PIN(P_INT2, TYPE_INT2);
MPI4J_PIN(P_LONG2, TYPE_LONG2);
MPI4J_PIN(P_FLOAT2, TYPE_FLOAT2);
MPI4J_PIN(P_DOUBLE2, TYPE_DOUBLE2);
MPI4J_PIN(P_SHORT_INT, TYPE_SHORT_INT);
MPI4J_PIN(P_LONG_INT, TYPE_LONG_INT);
MPI4J_PIN(P_FLOAT_INT, TYPE_FLOAT_INT);
MPI4J_PIN(P_DOUBLE_INT, TYPE_DOUBLE_INT);
MPI4J_PIN(P_FLOAT_COMPLEX, TYPE_FLOAT_COMPLEX);
MPI4J_PIN(P_DOUBLE_COMPLEX, TYPE_DOUBLE_COMPLEX);
MPI4J_PIN(O_MAX, OP_MAX);
MPI4J_PIN(O_MIN, OP_MIN);
MPI4J_PIN(O_SUM, OP_SUM);
MPI4J_PIN(O_PROD, OP_PROD);
MPI4J_PIN(O_LAND, OP_LAND);
MPI4J_PIN(O_BAND, OP_BAND);
MPI4J_PIN(O_LOR, OP_LOR);
MPI4J_PIN(O_BOR, OP_BOR);
MPI4J_PIN(O_LXOR, OP_LXOR);
MPI4J_PIN(O_BXOR, OP_BXOR);
MPI4J_PIN(O_MINLOC, OP_MINLOC);
MPI4J_PIN(O_MAXLOC, OP_MAXLOC);
MPI4J_PIN(O_REPLACE, OP_REPLACE);
MPI4J_PIN(O_NO_OP, OP_NO_OP);
MPI4J_PIN(O_PAIR_BASE, OP_PAIR_BASE);
MPI4J_PIN(O_PAIR_BASE + 11, OP_TABLE_SIZE);

JNIEXPORT void JNICALL JNI_FN(handles0)(JNIEnv *env, jclass cls, jlongArray types, jlongArray ops,
                                        jlongArray comms) {
    (void)cls;
    jlong t[P_DOUBLE_COMPLEX + 1];
    memset(t, 0, sizeof t);
    t[P_BYTE] = FROM_HANDLE(MPI_SIGNED_CHAR);
    t[P_CHAR] = FROM_HANDLE(MPI_UNSIGNED_SHORT);
    t[P_SHORT] = FROM_HANDLE(MPI_SHORT);
    t[P_BOOLEAN] = FROM_HANDLE(MPI_C_BOOL);
    t[P_INT] = FROM_HANDLE(MPI_INT);
    t[P_LONG] = FROM_HANDLE(MPI_INT64_T);
    t[P_FLOAT] = FROM_HANDLE(MPI_FLOAT);
    t[P_DOUBLE] = FROM_HANDLE(MPI_DOUBLE);
    t[P_PACKED] = FROM_HANDLE(MPI_PACKED);
    t[P_SHORT2] = FROM_HANDLE(pair_types[0]);
    t[P_INT2] = FROM_HANDLE(MPI_2INT);
    t[P_LONG2] = FROM_HANDLE(pair_types[1]);
    t[P_FLOAT2] = FROM_HANDLE(pair_types[2]);
    t[P_DOUBLE2] = FROM_HANDLE(pair_types[3]);
    t[P_SHORT_INT] = FROM_HANDLE(MPI_SHORT_INT);
    t[P_LONG_INT] = FROM_HANDLE(MPI_LONG_INT);
    t[P_FLOAT_INT] = FROM_HANDLE(MPI_FLOAT_INT);
    t[P_DOUBLE_INT] = FROM_HANDLE(MPI_DOUBLE_INT);
    t[P_FLOAT_COMPLEX] = FROM_HANDLE(MPI_C_FLOAT_COMPLEX);
    t[P_DOUBLE_COMPLEX] = FROM_HANDLE(MPI_C_DOUBLE_COMPLEX);
    (*env)->SetLongArrayRegion(env, types, 0, P_DOUBLE_COMPLEX + 1, t);

    jlong o[O_PAIR_BASE + 11];
    memset(o, 0, sizeof o);
    o[O_MAX] = FROM_HANDLE(MPI_MAX);
    o[O_MIN] = FROM_HANDLE(MPI_MIN);
    o[O_SUM] = FROM_HANDLE(MPI_SUM);
    o[O_PROD] = FROM_HANDLE(MPI_PROD);
    o[O_LAND] = FROM_HANDLE(MPI_LAND);
    o[O_BAND] = FROM_HANDLE(MPI_BAND);
    o[O_LOR] = FROM_HANDLE(MPI_LOR);
    o[O_BOR] = FROM_HANDLE(MPI_BOR);
    o[O_LXOR] = FROM_HANDLE(MPI_LXOR);
    o[O_BXOR] = FROM_HANDLE(MPI_BXOR);
    o[O_MINLOC] = FROM_HANDLE(MPI_MINLOC);
    o[O_MAXLOC] = FROM_HANDLE(MPI_MAXLOC);
    o[O_REPLACE] = FROM_HANDLE(MPI_REPLACE);
    o[O_NO_OP] = FROM_HANDLE(MPI_NO_OP);
    for (int i = 0; i < 8; i++) o[O_PAIR_BASE + i] = FROM_HANDLE(pair_ops[i]);
    for (int i = 0; i < 3; i++) o[O_PAIR_BASE + 8 + i] = FROM_HANDLE(wrap_sums[i]);
    (*env)->SetLongArrayRegion(env, ops, 0, O_PAIR_BASE + 11, o);

    jlong c[2] = {FROM_HANDLE(MPI_COMM_WORLD), FROM_HANDLE(MPI_COMM_SELF)};
    (*env)->SetLongArrayRegion(env, comms, 0, 2, c);
}

JNIEXPORT void JNICALL JNI_FN(finalize0)(JNIEnv *env, jclass cls) {
    (void)cls;
    for (int i = 0; i < 8; i++) MPI_Op_free(&pair_ops[i]);
    for (int i = 0; i < 3; i++) MPI_Op_free(&wrap_sums[i]);
    for (int i = 0; i < 4; i++) MPI_Type_free(&pair_types[i]);
    mpi_failed(env, MPI_Finalize(), "MPI_Finalize");
}

JNIEXPORT void JNICALL JNI_FN(abort0)(JNIEnv *env, jclass cls, jlong comm, jint code) {
    (void)cls;
    mpi_failed(env, MPI_Abort(TO_COMM(comm), (int)code), "MPI_Abort");
}

JNIEXPORT jdouble JNICALL JNI_FN(wtime0)(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return MPI_Wtime();
}

JNIEXPORT jdouble JNICALL JNI_FN(wtick0)(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return MPI_Wtick();
}

JNIEXPORT jstring JNICALL JNI_FN(processorName0)(JNIEnv *env, jclass cls) {
    (void)cls;
    char name[MPI_MAX_PROCESSOR_NAME + 1];
    int len = 0;
    if (mpi_failed(env, MPI_Get_processor_name(name, &len), "MPI_Get_processor_name")) return NULL;
    name[len] = '\0';
    return (*env)->NewStringUTF(env, name);
}

JNIEXPORT jint JNICALL JNI_FN(version0)(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    int v = 0, sv = 0;
    MPI_Get_version(&v, &sv);
    return v * 100 + sv;
}

JNIEXPORT jstring JNICALL JNI_FN(libVersion0)(JNIEnv *env, jclass cls) {
    (void)cls;
    char text[MPI_MAX_LIBRARY_VERSION_STRING + 1];
    int len = 0;
    if (mpi_failed(env, MPI_Get_library_version(text, &len), "MPI_Get_library_version")) return NULL;
    text[len] = '\0';
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ')) text[--len] = '\0';
    return (*env)->NewStringUTF(env, text);
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

JNIEXPORT jboolean JNICALL JNI_FN(isThreadMain0)(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    int flag = 0;
    MPI_Is_thread_main(&flag);
    return flag ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT void JNICALL JNI_FN(bufferAttach0)(JNIEnv *env, jclass cls, jobject buf, jint size) {
    (void)cls;
    void *p = (*env)->GetDirectBufferAddress(env, buf);
    if (p == NULL) {
        throw_other(env, "MPI_Buffer_attach: not a direct buffer");
        return;
    }
    mpi_failed(env, MPI_Buffer_attach(p, (int)size), "MPI_Buffer_attach");
}

JNIEXPORT void JNICALL JNI_FN(bufferDetach0)(JNIEnv *env, jclass cls) {
    (void)cls;
    void *p = NULL;
    int size = 0;
    mpi_failed(env, MPI_Buffer_detach(&p, &size), "MPI_Buffer_detach");
}

/* ---- communicators ------------------------------------------------------------------------ */

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
