/* User-defined reduction operations: MPI calls a C function with no user data, so each live
 * Java op gets one of a fixed pool of trampolines; the trampoline's slot number tells Java
 * which function to run. The Java side never lets an exception escape into MPI. */
#include "mpi4j_mpi.h"

#include "io_github_mpi4j_backend_mpi_MpiNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiNative_##name
#define SLOTS 32

static jclass g_userOps;
static jmethodID g_userOpsCall; /* static void call(int, ByteBuffer, ByteBuffer, int, long) */

int user_ops_init(JNIEnv *env) {
    jclass local = (*env)->FindClass(env, "io/github/mpi4j/backend/mpi/MpiUserOps");
    if (local == NULL) return -1;
    g_userOps = (jclass)(*env)->NewGlobalRef(env, local);
    (*env)->DeleteLocalRef(env, local);
    g_userOpsCall = (*env)->GetStaticMethodID(env, g_userOps, "call",
                                              "(ILjava/nio/ByteBuffer;Ljava/nio/ByteBuffer;IJ)V");
    return g_userOpsCall == NULL ? -1 : 0;
}

static void dispatch(int slot, void *in, void *inout, int *len, MPI_Datatype *dt) {
    JNIEnv *env = NULL;
    int attached = 0;
    if ((*g_vm)->GetEnv(g_vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) {
        /* An MPI progress thread: borrow the JVM for the call. */
        if ((*g_vm)->AttachCurrentThreadAsDaemon(g_vm, (void **)&env, NULL) != JNI_OK) return;
        attached = 1;
    }
    MPI_Aint lb = 0, extent = 0;
    MPI_Type_get_extent(*dt, &lb, &extent);
    jlong bytes = (jlong)extent * (jlong)(*len);
    jobject a = (*env)->NewDirectByteBuffer(env, in, bytes);
    jobject b = a == NULL ? NULL : (*env)->NewDirectByteBuffer(env, inout, bytes);
    if (b != NULL) {
        (*env)->CallStaticVoidMethod(env, g_userOps, g_userOpsCall, (jint)slot, a, b, (jint)(*len),
                                     FROM_HANDLE(*dt));
    }
    /* Java records its own failures; never leave an exception pending inside MPI. */
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
    if (a != NULL) (*env)->DeleteLocalRef(env, a);
    if (b != NULL) (*env)->DeleteLocalRef(env, b);
    if (attached) (*g_vm)->DetachCurrentThread(g_vm);
}

#define TRAMPOLINE(n) \
    static void trampoline_##n(void *in, void *inout, int *len, MPI_Datatype *dt) { dispatch(n, in, inout, len, dt); }
TRAMPOLINE(0) TRAMPOLINE(1) TRAMPOLINE(2) TRAMPOLINE(3) TRAMPOLINE(4) TRAMPOLINE(5) TRAMPOLINE(6) TRAMPOLINE(7)
TRAMPOLINE(8) TRAMPOLINE(9) TRAMPOLINE(10) TRAMPOLINE(11) TRAMPOLINE(12) TRAMPOLINE(13) TRAMPOLINE(14)
TRAMPOLINE(15) TRAMPOLINE(16) TRAMPOLINE(17) TRAMPOLINE(18) TRAMPOLINE(19) TRAMPOLINE(20) TRAMPOLINE(21)
TRAMPOLINE(22) TRAMPOLINE(23) TRAMPOLINE(24) TRAMPOLINE(25) TRAMPOLINE(26) TRAMPOLINE(27) TRAMPOLINE(28)
TRAMPOLINE(29) TRAMPOLINE(30) TRAMPOLINE(31)

static MPI_User_function *const trampolines[SLOTS] = {
    trampoline_0, trampoline_1, trampoline_2, trampoline_3, trampoline_4, trampoline_5, trampoline_6,
    trampoline_7, trampoline_8, trampoline_9, trampoline_10, trampoline_11, trampoline_12, trampoline_13,
    trampoline_14, trampoline_15, trampoline_16, trampoline_17, trampoline_18, trampoline_19, trampoline_20,
    trampoline_21, trampoline_22, trampoline_23, trampoline_24, trampoline_25, trampoline_26, trampoline_27,
    trampoline_28, trampoline_29, trampoline_30, trampoline_31};

JNIEXPORT jlong JNICALL JNI_FN(opCreate0)(JNIEnv *env, jclass cls, jint slot, jboolean commute) {
    (void)cls;
    if (slot < 0 || slot >= SLOTS) {
        throw_other(env, "MPI_Op_create: no free slot for a user operation");
        return 0;
    }
    MPI_Op op = MPI_OP_NULL;
    if (mpi_failed(env, MPI_Op_create(trampolines[slot], commute ? 1 : 0, &op), "MPI_Op_create")) return 0;
    return FROM_HANDLE(op);
}

JNIEXPORT void JNICALL JNI_FN(opFree0)(JNIEnv *env, jclass cls, jlong op) {
    (void)cls;
    MPI_Op o = TO_OP(op);
    mpi_failed(env, MPI_Op_free(&o), "MPI_Op_free");
}
