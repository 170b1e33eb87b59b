/* MPI-IO (issue 11): MPI_File_open/close/delete, sizes, views, atomicity, the data accesses by
 * explicit offset and through the shared pointer, and seeking the shared pointer. The Java side
 * (MpiFile) has checked every argument and passes mpi4j's MODE_* and SEEK_* values, which are
 * translated here so that any MPI works. */
#include "mpi4j_mpi.h"

#include <stdlib.h>
#include <string.h>

#include "io_github_mpi4j_backend_mpi_MpiFileNative.h"

#define JNI_FN(name) Java_io_github_mpi4j_backend_mpi_MpiFileNative_##name
#define TO_FILE(h) ((MPI_File)(intptr_t)(h))

enum { K_READ_AT, K_WRITE_AT, K_READ_AT_ALL, K_WRITE_AT_ALL, K_READ_SHARED, K_WRITE_SHARED, K_READ_ORDERED,
       K_WRITE_ORDERED };
_Static_assert(K_READ_AT == io_github_mpi4j_backend_mpi_MpiFileNative_READ_AT, "READ_AT");
_Static_assert(K_WRITE_ORDERED == io_github_mpi4j_backend_mpi_MpiFileNative_WRITE_ORDERED, "WRITE_ORDERED");

/* mpi4j's access-mode bits (mpi.MPI.MODE_*) and their MPI counterparts. */
static const int J_MODES[][2] = {
    {1, MPI_MODE_CREATE},          {2, MPI_MODE_RDONLY}, {4, MPI_MODE_WRONLY}, {8, MPI_MODE_RDWR},
    {16, MPI_MODE_DELETE_ON_CLOSE}, {32, MPI_MODE_UNIQUE_OPEN}, {64, MPI_MODE_EXCL}, {128, MPI_MODE_APPEND},
    {256, MPI_MODE_SEQUENTIAL},
};

static int amode_in(jint amode) {
    int m = 0;
    for (size_t i = 0; i < sizeof J_MODES / sizeof J_MODES[0]; i++) {
        if (amode & J_MODES[i][0]) m |= J_MODES[i][1];
    }
    return m;
}

static int whence_in(jint whence) {
    return whence == 600 ? MPI_SEEK_SET : whence == 602 ? MPI_SEEK_CUR : MPI_SEEK_END;
}

/* A Java string as a malloc'ed C string (NULL with an exception pending on failure). */
static char *c_string(JNIEnv *env, jstring s) {
    const char *u = (*env)->GetStringUTFChars(env, s, NULL);
    if (u == NULL) return NULL;
    size_t n = strlen(u);
    char *c = malloc(n + 1);
    if (c != NULL) memcpy(c, u, n + 1);
    (*env)->ReleaseStringUTFChars(env, s, u);
    if (c == NULL) throw_other(env, "mpi4j file: out of memory");
    return c;
}

/* An MPI_Info of the Java hints (keys[i] = values[i]); MPI_INFO_NULL when there are none. Returns
 * nonzero with an exception pending on failure. */
static int info_in(JNIEnv *env, jobjectArray keys, jobjectArray values, MPI_Info *info) {
    *info = MPI_INFO_NULL;
    if (keys == NULL) return 0;
    jsize n = (*env)->GetArrayLength(env, keys);
    if (n == 0) return 0;
    if (mpi_failed(env, MPI_Info_create(info), "MPI_Info_create")) return 1;
    for (jsize i = 0; i < n; i++) {
        jstring k = (jstring)(*env)->GetObjectArrayElement(env, keys, i);
        jstring v = (jstring)(*env)->GetObjectArrayElement(env, values, i);
        char *ck = k == NULL ? NULL : c_string(env, k);
        char *cv = ck == NULL || v == NULL ? NULL : c_string(env, v);
        int rc = cv == NULL ? MPI_SUCCESS : MPI_Info_set(*info, ck, cv);
        free(ck);
        free(cv);
        if (k != NULL) (*env)->DeleteLocalRef(env, k);
        if (v != NULL) (*env)->DeleteLocalRef(env, v);
        if ((*env)->ExceptionCheck(env) || mpi_failed(env, rc, "MPI_Info_set")) {
            MPI_Info_free(info);
            return 1;
        }
    }
    return 0;
}

static void info_done(MPI_Info *info) {
    if (*info != MPI_INFO_NULL) MPI_Info_free(info);
}

JNIEXPORT jlong JNICALL JNI_FN(open0)(JNIEnv *env, jclass cls, jlong comm, jstring path, jint amode,
                                      jobjectArray keys, jobjectArray values) {
    (void)cls;
    MPI_Info info;
    if (info_in(env, keys, values, &info) != 0) return 0;
    char *p = c_string(env, path);
    if (p == NULL) {
        info_done(&info);
        return 0;
    }
    MPI_File fh = MPI_FILE_NULL;
    int rc = MPI_File_open(TO_COMM(comm), p, amode_in(amode), info, &fh);
    free(p);
    info_done(&info);
    if (mpi_failed(env, rc, "MPI_File_open")) return 0;
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    return FROM_HANDLE(fh);
}

JNIEXPORT void JNICALL JNI_FN(setInfo0)(JNIEnv *env, jclass cls, jlong fh, jobjectArray keys, jobjectArray values) {
    (void)cls;
    MPI_Info info;
    if (info_in(env, keys, values, &info) != 0) return;
    if (info == MPI_INFO_NULL && mpi_failed(env, MPI_Info_create(&info), "MPI_Info_create")) return;
    int rc = MPI_File_set_info(TO_FILE(fh), info);
    info_done(&info);
    mpi_failed(env, rc, "MPI_File_set_info");
}

/* MPI_File_get_info as {key0, value0, key1, value1, ...}. */
JNIEXPORT jobjectArray JNICALL JNI_FN(getInfo0)(JNIEnv *env, jclass cls, jlong fh) {
    (void)cls;
    MPI_Info info = MPI_INFO_NULL;
    if (mpi_failed(env, MPI_File_get_info(TO_FILE(fh), &info), "MPI_File_get_info")) return NULL;
    int n = 0;
    MPI_Info_get_nkeys(info, &n);
    jclass str = (*env)->FindClass(env, "java/lang/String");
    jobjectArray out = str == NULL ? NULL : (*env)->NewObjectArray(env, 2 * n, str, NULL);
    for (int i = 0; out != NULL && i < n; i++) {
        char key[MPI_MAX_INFO_KEY + 1];
        char value[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        if (MPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS) continue;
        if (MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag) != MPI_SUCCESS || !flag) value[0] = 0;
        jstring k = (*env)->NewStringUTF(env, key);
        jstring v = (*env)->NewStringUTF(env, value);
        if (k == NULL || v == NULL) break;
        (*env)->SetObjectArrayElement(env, out, 2 * i, k);
        (*env)->SetObjectArrayElement(env, out, 2 * i + 1, v);
        (*env)->DeleteLocalRef(env, k);
        (*env)->DeleteLocalRef(env, v);
    }
    MPI_Info_free(&info);
    return out;
}

JNIEXPORT void JNICALL JNI_FN(close0)(JNIEnv *env, jclass cls, jlong fh) {
    (void)cls;
    MPI_File f = TO_FILE(fh);
    mpi_failed(env, MPI_File_close(&f), "MPI_File_close");
}

JNIEXPORT void JNICALL JNI_FN(delete0)(JNIEnv *env, jclass cls, jstring path) {
    (void)cls;
    char *p = c_string(env, path);
    if (p == NULL) return;
    int rc = MPI_File_delete(p, MPI_INFO_NULL);
    free(p);
    mpi_failed(env, rc, "MPI_File_delete");
}

JNIEXPORT jlong JNICALL JNI_FN(size0)(JNIEnv *env, jclass cls, jlong fh) {
    (void)cls;
    MPI_Offset size = 0;
    if (mpi_failed(env, MPI_File_get_size(TO_FILE(fh), &size), "MPI_File_get_size")) return 0;
    return (jlong)size;
}

JNIEXPORT void JNICALL JNI_FN(setSize0)(JNIEnv *env, jclass cls, jlong fh, jlong size) {
    (void)cls;
    mpi_failed(env, MPI_File_set_size(TO_FILE(fh), (MPI_Offset)size), "MPI_File_set_size");
}

JNIEXPORT void JNICALL JNI_FN(preallocate0)(JNIEnv *env, jclass cls, jlong fh, jlong size) {
    (void)cls;
    mpi_failed(env, MPI_File_preallocate(TO_FILE(fh), (MPI_Offset)size), "MPI_File_preallocate");
}

JNIEXPORT void JNICALL JNI_FN(sync0)(JNIEnv *env, jclass cls, jlong fh) {
    (void)cls;
    mpi_failed(env, MPI_File_sync(TO_FILE(fh)), "MPI_File_sync");
}

JNIEXPORT void JNICALL JNI_FN(setView0)(JNIEnv *env, jclass cls, jlong fh, jlong disp, jlong etype, jlong filetype,
                                        jstring datarep, jobjectArray keys, jobjectArray values) {
    (void)cls;
    MPI_Info info;
    if (info_in(env, keys, values, &info) != 0) return;
    char *rep = c_string(env, datarep);
    if (rep == NULL) {
        info_done(&info);
        return;
    }
    int rc = MPI_File_set_view(TO_FILE(fh), (MPI_Offset)disp, TO_TYPE(etype), TO_TYPE(filetype), rep, info);
    free(rep);
    info_done(&info);
    mpi_failed(env, rc, "MPI_File_set_view");
}

JNIEXPORT void JNICALL JNI_FN(setAtomicity0)(JNIEnv *env, jclass cls, jlong fh, jboolean atomic) {
    (void)cls;
    mpi_failed(env, MPI_File_set_atomicity(TO_FILE(fh), atomic ? 1 : 0), "MPI_File_set_atomicity");
}

JNIEXPORT jlong JNICALL JNI_FN(access0)(JNIEnv *env, jclass cls, jint kind, jlong fh, jlong offset, jobject buf,
                                        jint mode, jlong off, jint count, jlong type) {
    (void)cls;
    ubuf b;
    MPI_Status s;
    arg_buf(&b, buf, mode, off);
    if (ubuf_acquire(env, &b, 1) != 0) return 0;
    MPI_File f = TO_FILE(fh);
    MPI_Datatype t = TO_TYPE(type);
    MPI_Offset at = (MPI_Offset)offset;
    int rc;
    const char *call;
    switch (kind) {
        case K_READ_AT: call = "MPI_File_read_at"; rc = MPI_File_read_at(f, at, b.ptr, count, t, &s); break;
        case K_WRITE_AT: call = "MPI_File_write_at"; rc = MPI_File_write_at(f, at, b.ptr, count, t, &s); break;
        case K_READ_AT_ALL:
            call = "MPI_File_read_at_all";
            rc = MPI_File_read_at_all(f, at, b.ptr, count, t, &s);
            break;
        case K_WRITE_AT_ALL:
            call = "MPI_File_write_at_all";
            rc = MPI_File_write_at_all(f, at, b.ptr, count, t, &s);
            break;
        case K_READ_SHARED: call = "MPI_File_read_shared"; rc = MPI_File_read_shared(f, b.ptr, count, t, &s); break;
        case K_WRITE_SHARED:
            call = "MPI_File_write_shared";
            rc = MPI_File_write_shared(f, b.ptr, count, t, &s);
            break;
        case K_READ_ORDERED:
            call = "MPI_File_read_ordered";
            rc = MPI_File_read_ordered(f, b.ptr, count, t, &s);
            break;
        default:
            call = "MPI_File_write_ordered";
            rc = MPI_File_write_ordered(f, b.ptr, count, t, &s);
            break;
    }
    int read = kind == K_READ_AT || kind == K_READ_AT_ALL || kind == K_READ_SHARED || kind == K_READ_ORDERED;
    ubuf_release(env, &b, 1, read);
    if (mpi_failed(env, rc, call)) return 0;
    MPI_Count bytes = 0;
    MPI_Get_elements_x(&s, MPI_BYTE, &bytes);
    return bytes == MPI_UNDEFINED ? 0 : (jlong)bytes;
}

JNIEXPORT void JNICALL JNI_FN(seekShared0)(JNIEnv *env, jclass cls, jlong fh, jlong offset, jint whence) {
    (void)cls;
    mpi_failed(env, MPI_File_seek_shared(TO_FILE(fh), (MPI_Offset)offset, whence_in(whence)),
               "MPI_File_seek_shared");
}

JNIEXPORT jlong JNICALL JNI_FN(positionShared0)(JNIEnv *env, jclass cls, jlong fh) {
    (void)cls;
    MPI_Offset pos = 0;
    if (mpi_failed(env, MPI_File_get_position_shared(TO_FILE(fh), &pos), "MPI_File_get_position_shared")) return 0;
    return (jlong)pos;
}

/* ---- accesses that complete later (MPI-3.1 MPI_File_i*, and split collectives) ----
 * where: 0 explicit offset, 1 explicit offset collective, 2 shared pointer, 3 rank order (split only).
 * The buffer is direct memory (a direct buffer or mpi4j's staging) that stays put until completion. */
enum { W_AT, W_AT_ALL, W_SHARED, W_ORDERED };

JNIEXPORT jlong JNICALL JNI_FN(start0)(JNIEnv *env, jclass cls, jint where, jboolean write, jboolean split, jlong fh,
                                       jlong offset, jobject buf, jint mode, jlong off, jint count, jlong type) {
    (void)cls;
    ubuf b;
    arg_buf(&b, buf, mode, off);
    if (ubuf_acquire(env, &b, 1) != 0) return 0;
    MPI_File f = TO_FILE(fh);
    MPI_Datatype t = TO_TYPE(type);
    MPI_Offset at = (MPI_Offset)offset;
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = MPI_ERR_ARG;
    const char *call = "MPI_File_i*";
    if (split) {
        if (where == W_AT_ALL) {
            call = write ? "MPI_File_write_at_all_begin" : "MPI_File_read_at_all_begin";
            rc = write ? MPI_File_write_at_all_begin(f, at, b.ptr, count, t)
                       : MPI_File_read_at_all_begin(f, at, b.ptr, count, t);
        } else if (where == W_ORDERED) {
            call = write ? "MPI_File_write_ordered_begin" : "MPI_File_read_ordered_begin";
            rc = write ? MPI_File_write_ordered_begin(f, b.ptr, count, t) : MPI_File_read_ordered_begin(f, b.ptr, count, t);
        }
    } else if (where == W_AT) {
        call = write ? "MPI_File_iwrite_at" : "MPI_File_iread_at";
        rc = write ? MPI_File_iwrite_at(f, at, b.ptr, count, t, &r) : MPI_File_iread_at(f, at, b.ptr, count, t, &r);
    } else if (where == W_AT_ALL) {
        call = write ? "MPI_File_iwrite_at_all" : "MPI_File_iread_at_all";
        rc = write ? MPI_File_iwrite_at_all(f, at, b.ptr, count, t, &r)
                   : MPI_File_iread_at_all(f, at, b.ptr, count, t, &r);
    } else if (where == W_SHARED) {
        call = write ? "MPI_File_iwrite_shared" : "MPI_File_iread_shared";
        rc = write ? MPI_File_iwrite_shared(f, b.ptr, count, t, &r) : MPI_File_iread_shared(f, b.ptr, count, t, &r);
    }
    ubuf_release(env, &b, 1, 0);
    if (mpi_failed(env, rc, call)) return 0;
    return FROM_REQ(r);
}

/* The end of a split collective begun by start0; returns the bytes moved. */
JNIEXPORT jlong JNICALL JNI_FN(splitEnd0)(JNIEnv *env, jclass cls, jint where, jboolean write, jlong fh,
                                          jobject buf, jint mode, jlong off) {
    (void)cls;
    ubuf b;
    arg_buf(&b, buf, mode, off);
    if (ubuf_acquire(env, &b, 1) != 0) return 0;
    MPI_File f = TO_FILE(fh);
    MPI_Status s;
    int rc;
    const char *call;
    if (where == W_ORDERED) {
        call = write ? "MPI_File_write_ordered_end" : "MPI_File_read_ordered_end";
        rc = write ? MPI_File_write_ordered_end(f, b.ptr, &s) : MPI_File_read_ordered_end(f, b.ptr, &s);
    } else {
        call = write ? "MPI_File_write_at_all_end" : "MPI_File_read_at_all_end";
        rc = write ? MPI_File_write_at_all_end(f, b.ptr, &s) : MPI_File_read_at_all_end(f, b.ptr, &s);
    }
    ubuf_release(env, &b, 1, 0);
    if (mpi_failed(env, rc, call)) return 0;
    MPI_Count bytes = 0;
    MPI_Get_elements_x(&s, MPI_BYTE, &bytes);
    return bytes == MPI_UNDEFINED ? 0 : (jlong)bytes;
}
