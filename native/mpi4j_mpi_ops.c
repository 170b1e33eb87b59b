/* Every reduction op the bridge makes.
 *
 * mpi4j's own ops, made at MPI_Init (handles_create) and freed before MPI_Finalize: MINLOC and
 * MAXLOC over Java's pair types, which MPI lacks, and SUMs that wrap like Java where an MPI's own
 * op may not.
 *
 * User-defined ops: MPI calls a C function with no user data, so each live Java op gets one of
 * a fixed pool of trampolines; the trampoline's slot number tells Java which function to run.
 * Slots are handed out and returned by MpiUserOps (Java), which frees the MPI_Op with opFree0
 * when the op is freed. The Java side never lets an exception escape into MPI. */
#include "mpi4j_mpi.h"

#include "io_github_mpi4j_backend_mpi_MpiNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiNative_##name

/* ---- mpi4j's own ops ------------------------------------------------------------------------ */

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

static MPI_Op own_ops[OWN_OPS];

int own_ops_create(void) {
    MPI_User_function *fns[OWN_OPS] = {minloc_short, maxloc_short, minloc_long, maxloc_long,
                                       minloc_float, maxloc_float, minloc_double, maxloc_double,
                                       sum_wrap_8, sum_wrap_16, sum_wrap_16};
    for (int i = 0; i < OWN_OPS; i++) {
        int rc = MPI_Op_create(fns[i], 1, &own_ops[i]);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

void own_ops_free(void) {
    for (int i = 0; i < OWN_OPS; i++) MPI_Op_free(&own_ops[i]);
}

MPI_Op own_op(int i) {
    return own_ops[i];
}

/* ---- user-defined ops ----------------------------------------------------------------------- */

/* Live user ops at once: Java frees an op's slot once the op is freed and no operation uses it. */
#define SLOTS 128
_Static_assert(SLOTS == io_github_mpi4j_backend_mpi_MpiNative_USER_OP_SLOTS, "MpiNative.USER_OP_SLOTS differs");

static jclass g_userOps;
static jmethodID g_userOpsCall; /* static void call(int, ByteBuffer, ByteBuffer, int, long) */

int ops_on_load(JNIEnv *env) {
    jclass local = (*env)->FindClass(env, "io/github/mpi4j/backend/mpi/MpiUserOps");
    if (local == NULL) return -1;
    g_userOps = (jclass)(*env)->NewGlobalRef(env, local);
    (*env)->DeleteLocalRef(env, local);
    if (g_userOps == NULL) return -1;
    g_userOpsCall = (*env)->GetStaticMethodID(env, g_userOps, "call",
                                              "(ILjava/nio/ByteBuffer;Ljava/nio/ByteBuffer;IJ)V");
    if (g_userOpsCall == NULL) {
        ops_on_unload(env);
        return -1;
    }
    return 0;
}

void ops_on_unload(JNIEnv *env) {
    if (g_userOps != NULL) (*env)->DeleteGlobalRef(env, g_userOps);
    g_userOps = NULL;
    g_userOpsCall = NULL;
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
TRAMPOLINE(8) TRAMPOLINE(9) TRAMPOLINE(10) TRAMPOLINE(11) TRAMPOLINE(12) TRAMPOLINE(13) TRAMPOLINE(14) TRAMPOLINE(15)
TRAMPOLINE(16) TRAMPOLINE(17) TRAMPOLINE(18) TRAMPOLINE(19) TRAMPOLINE(20) TRAMPOLINE(21) TRAMPOLINE(22) TRAMPOLINE(23)
TRAMPOLINE(24) TRAMPOLINE(25) TRAMPOLINE(26) TRAMPOLINE(27) TRAMPOLINE(28) TRAMPOLINE(29) TRAMPOLINE(30) TRAMPOLINE(31)
TRAMPOLINE(32) TRAMPOLINE(33) TRAMPOLINE(34) TRAMPOLINE(35) TRAMPOLINE(36) TRAMPOLINE(37) TRAMPOLINE(38) TRAMPOLINE(39)
TRAMPOLINE(40) TRAMPOLINE(41) TRAMPOLINE(42) TRAMPOLINE(43) TRAMPOLINE(44) TRAMPOLINE(45) TRAMPOLINE(46) TRAMPOLINE(47)
TRAMPOLINE(48) TRAMPOLINE(49) TRAMPOLINE(50) TRAMPOLINE(51) TRAMPOLINE(52) TRAMPOLINE(53) TRAMPOLINE(54) TRAMPOLINE(55)
TRAMPOLINE(56) TRAMPOLINE(57) TRAMPOLINE(58) TRAMPOLINE(59) TRAMPOLINE(60) TRAMPOLINE(61) TRAMPOLINE(62) TRAMPOLINE(63)
TRAMPOLINE(64) TRAMPOLINE(65) TRAMPOLINE(66) TRAMPOLINE(67) TRAMPOLINE(68) TRAMPOLINE(69) TRAMPOLINE(70) TRAMPOLINE(71)
TRAMPOLINE(72) TRAMPOLINE(73) TRAMPOLINE(74) TRAMPOLINE(75) TRAMPOLINE(76) TRAMPOLINE(77) TRAMPOLINE(78) TRAMPOLINE(79)
TRAMPOLINE(80) TRAMPOLINE(81) TRAMPOLINE(82) TRAMPOLINE(83) TRAMPOLINE(84) TRAMPOLINE(85) TRAMPOLINE(86) TRAMPOLINE(87)
TRAMPOLINE(88) TRAMPOLINE(89) TRAMPOLINE(90) TRAMPOLINE(91) TRAMPOLINE(92) TRAMPOLINE(93) TRAMPOLINE(94) TRAMPOLINE(95)
TRAMPOLINE(96) TRAMPOLINE(97) TRAMPOLINE(98) TRAMPOLINE(99) TRAMPOLINE(100) TRAMPOLINE(101) TRAMPOLINE(102) TRAMPOLINE(103)
TRAMPOLINE(104) TRAMPOLINE(105) TRAMPOLINE(106) TRAMPOLINE(107) TRAMPOLINE(108) TRAMPOLINE(109) TRAMPOLINE(110) TRAMPOLINE(111)
TRAMPOLINE(112) TRAMPOLINE(113) TRAMPOLINE(114) TRAMPOLINE(115) TRAMPOLINE(116) TRAMPOLINE(117) TRAMPOLINE(118) TRAMPOLINE(119)
TRAMPOLINE(120) TRAMPOLINE(121) TRAMPOLINE(122) TRAMPOLINE(123) TRAMPOLINE(124) TRAMPOLINE(125) TRAMPOLINE(126) TRAMPOLINE(127)

static MPI_User_function *const trampolines[SLOTS] = {
    trampoline_0, trampoline_1, trampoline_2, trampoline_3, trampoline_4, trampoline_5, trampoline_6, trampoline_7,
    trampoline_8, trampoline_9, trampoline_10, trampoline_11, trampoline_12, trampoline_13, trampoline_14, trampoline_15,
    trampoline_16, trampoline_17, trampoline_18, trampoline_19, trampoline_20, trampoline_21, trampoline_22, trampoline_23,
    trampoline_24, trampoline_25, trampoline_26, trampoline_27, trampoline_28, trampoline_29, trampoline_30, trampoline_31,
    trampoline_32, trampoline_33, trampoline_34, trampoline_35, trampoline_36, trampoline_37, trampoline_38, trampoline_39,
    trampoline_40, trampoline_41, trampoline_42, trampoline_43, trampoline_44, trampoline_45, trampoline_46, trampoline_47,
    trampoline_48, trampoline_49, trampoline_50, trampoline_51, trampoline_52, trampoline_53, trampoline_54, trampoline_55,
    trampoline_56, trampoline_57, trampoline_58, trampoline_59, trampoline_60, trampoline_61, trampoline_62, trampoline_63,
    trampoline_64, trampoline_65, trampoline_66, trampoline_67, trampoline_68, trampoline_69, trampoline_70, trampoline_71,
    trampoline_72, trampoline_73, trampoline_74, trampoline_75, trampoline_76, trampoline_77, trampoline_78, trampoline_79,
    trampoline_80, trampoline_81, trampoline_82, trampoline_83, trampoline_84, trampoline_85, trampoline_86, trampoline_87,
    trampoline_88, trampoline_89, trampoline_90, trampoline_91, trampoline_92, trampoline_93, trampoline_94, trampoline_95,
    trampoline_96, trampoline_97, trampoline_98, trampoline_99, trampoline_100, trampoline_101, trampoline_102, trampoline_103,
    trampoline_104, trampoline_105, trampoline_106, trampoline_107, trampoline_108, trampoline_109, trampoline_110, trampoline_111,
    trampoline_112, trampoline_113, trampoline_114, trampoline_115, trampoline_116, trampoline_117, trampoline_118, trampoline_119,
    trampoline_120, trampoline_121, trampoline_122, trampoline_123, trampoline_124, trampoline_125, trampoline_126, trampoline_127,
};

JNIEXPORT jlong JNICALL JNI_FN(opCreate0)(JNIEnv *env, jclass cls, jint slot, jboolean commute) {
    (void)cls;
    if (slot < 0 || slot >= SLOTS) {
        throw_other(env, "MPI_Op_create: user-op slot out of range");
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
