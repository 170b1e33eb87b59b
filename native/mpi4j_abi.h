/* The ABI version of mpi4j's JNI libraries: the contract between the jar's Java classes and the
 * native code built with them. Each library exports a JNI function returning the version it was
 * built for (io.github.mpi4j.nativeload.NativeAbi), and the Java loader refuses a library built
 * for another one (a stale copy from an old jar or an old build directory named by an override
 * path) with a plain message instead of letting a changed call crash the JVM.
 *
 * Bump rule: increase MPI4J_ABI_VERSION here and NativeAbi.VERSION in Java, together, whenever
 * any JNI signature changes (a native method added, removed, renamed, or given other parameters
 * or result) or any constant pinned across JNI (MPI4J_PIN, the _Static_asserts against javac -h
 * headers) changes value. The assertion below fails the build when only one side was bumped. */
#ifndef MPI4J_ABI_H
#define MPI4J_ABI_H

#include "io_github_mpi4j_nativeload_NativeAbi.h"

#define MPI4J_ABI_VERSION 7

_Static_assert(MPI4J_ABI_VERSION == io_github_mpi4j_nativeload_NativeAbi_VERSION,
               "bump MPI4J_ABI_VERSION (native/mpi4j_abi.h) and NativeAbi.VERSION together");

#endif
