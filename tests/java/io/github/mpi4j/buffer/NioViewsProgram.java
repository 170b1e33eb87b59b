package io.github.mpi4j.buffer;

/** Initialises BufAccess in a fresh JVM and says so; NioViewsTest reads the JVM's class-loading log around it. */
public final class NioViewsProgram {
    private NioViewsProgram() {
    }

    public static void main(String[] args) throws Exception {
        Class.forName("io.github.mpi4j.buffer.BufAccess", true, NioViewsProgram.class.getClassLoader());
        System.out.println("BUFACCESS READY");
    }
}
