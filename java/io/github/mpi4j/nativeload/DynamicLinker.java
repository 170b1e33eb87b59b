package io.github.mpi4j.nativeload;

/**
 * The dynamic-linker calls of {@code libmpi4j_dl} (no MPI inside): opening the system libmpi
 * with {@code RTLD_GLOBAL} before an MPI bridge is loaded, and asking the opened library what
 * it is. Used only by {@link MpiBridge}, under its lock.
 */
final class DynamicLinker {
    private DynamicLinker() {
    }

    static final String LIBRARY = "mpi4j_dl";

    /** Whether libmpi4j_dl is loaded (tries once). */
    static boolean available() {
        return NativeLoader.load(LIBRARY);
    }

    /** {@code dlopen(path, RTLD_NOW | RTLD_GLOBAL)}; throws UnsatisfiedLinkError with dlerror(). */
    static native long openGlobal0(String path);

    /** Whether the opened library (or one it depends on) defines {@code symbol}. */
    static native boolean hasSymbol0(long handle, String symbol);

    /** The file the opened library was loaded from, or null. */
    static native String fileOf0(long handle);

    /** {@code MPI_Get_library_version} of the opened library, or null. */
    static native String libraryVersion0(long handle);
}
