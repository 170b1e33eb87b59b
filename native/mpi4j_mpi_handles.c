/* The predefined handles Java gets at MPI_Init (handles0): the datatype table, the op table and
 * the two world communicators, with the slots of both tables pinned against MpiNative. Also the
 * pair datatypes MPI lacks (Java's short, long, float and double pairs), made at MPI_Init with
 * mpi4j's own ops (mpi4j_mpi_ops.c) and freed before MPI_Finalize. */
#include "mpi4j_mpi.h"

#include <string.h>

#include "io_github_mpi4j_backend_mpi_MpiNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiNative_##name

int handles_on_load(JNIEnv *env) {
    (void)env; /* nothing cached */
    return 0;
}

void handles_on_unload(JNIEnv *env) {
    (void)env;
}

static MPI_Datatype pair_types[4]; /* SHORT2, LONG2, FLOAT2, DOUBLE2 */

int handles_create(void) {
    MPI_Datatype base[4] = {MPI_SHORT, MPI_INT64_T, MPI_FLOAT, MPI_DOUBLE};
    for (int i = 0; i < 4; i++) {
        int rc = MPI_Type_contiguous(2, base[i], &pair_types[i]);
        if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&pair_types[i]);
        if (rc != MPI_SUCCESS) return rc;
    }
    return own_ops_create();
}

void handles_free(void) {
    own_ops_free();
    for (int i = 0; i < 4; i++) MPI_Type_free(&pair_types[i]);
}

/* Ids of io.github.mpi4j.spi.Predefined. */
enum { P_BYTE, P_CHAR, P_SHORT, P_BOOLEAN, P_INT, P_LONG, P_FLOAT, P_DOUBLE, P_PACKED, P_OBJECT,
       P_SHORT2, P_INT2, P_LONG2, P_FLOAT2, P_DOUBLE2, P_SHORT_INT, P_LONG_INT, P_FLOAT_INT, P_DOUBLE_INT,
       P_FLOAT_COMPLEX, P_DOUBLE_COMPLEX };

/* Slots of the op table: MpiNative.OP_* (pinned below). */
enum { O_MAX, O_MIN, O_SUM, O_PROD, O_LAND, O_BAND, O_LOR, O_BOR, O_LXOR, O_BXOR, O_MINLOC, O_MAXLOC,
       O_REPLACE, O_NO_OP, O_USER, O_PAIR_BASE };

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
MPI4J_PIN(O_PAIR_BASE + OWN_OPS, OP_TABLE_SIZE);

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

    jlong o[O_PAIR_BASE + OWN_OPS];
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
    for (int i = 0; i < OWN_OPS; i++) o[O_PAIR_BASE + i] = FROM_HANDLE(own_op(i));
    (*env)->SetLongArrayRegion(env, ops, 0, O_PAIR_BASE + OWN_OPS, o);

    jlong c[2] = {FROM_HANDLE(MPI_COMM_WORLD), FROM_HANDLE(MPI_COMM_SELF)};
    (*env)->SetLongArrayRegion(env, comms, 0, 2, c);
}
