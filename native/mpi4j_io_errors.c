/* See mpi4j_io_errors.h. */
#include "mpi4j_io_errors.h"

#include <string.h>

void mpi4j_throw_io(JNIEnv *env, const char *what, int err) {
    char text[160];
    jclass io = (*env)->FindClass(env, "java/io/IOException");
    if (io == NULL) return; /* an exception is pending */
    strncpy(text, what, sizeof text - 1);
    text[sizeof text - 1] = '\0';
    strncat(text, ": ", sizeof text - strlen(text) - 1);
    strncat(text, strerror(err), sizeof text - strlen(text) - 1);
    (*env)->ThrowNew(env, io, text);
}
