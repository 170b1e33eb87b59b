package mpi;

import java.io.Externalizable;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * What an {@code MPI.OBJECT} message may contain: mpi4j's deserialization filter for one
 * message of a known size. {@link ObjectMessages} combines it with the JVM-wide filter
 * ({@code jdk.serialFilter}, or what a filter factory gives), and a class passes only if
 * neither refuses it.
 *
 * <p>Limits, always, tied to the size of the message received: no more bytes than the message
 * has, no more objects than it has bytes, no array longer than the bytes left could encode
 * (a 70-byte message cannot make the receiver allocate {@code long[99999999]}), depth at most
 * {@link #MAX_DEPTH}.
 *
 * <p>Classes: {@code -Dmpi4j.serialFilter=<pattern>} (JDK filter syntax) decides first. Classes
 * it leaves undecided get the default: primitives and arrays; the exported packages of module
 * {@code java.base} (strings, boxes, {@code java.util} collections, {@code java.time}, ...);
 * application classes that run no code of their own while deserialized (no {@code readObject},
 * {@code readObjectNoData} or {@code readResolve}, not {@code Externalizable}). Refused by
 * default: other JDK modules ({@code java.rmi}, {@code java.management}, {@code java.naming},
 * {@code java.xml}, ...), JDK internals, dynamic proxies, libraries with known gadget chains.
 */
final class ObjectFilter implements ObjectInputFilter {
    /**
     * Deepest object nesting accepted. Decoding recurses once per level; about 900 levels
     * already overflow a thread's default 1 MiB stack, so deeper graphs fail either way.
     */
    static final int MAX_DEPTH = 500;

    static final String PROPERTY = "mpi4j.serialFilter";

    /** Libraries with published gadget chains: refused even though they are application classes. */
    private static final ObjectInputFilter KNOWN_GADGETS = ObjectInputFilter.Config.createFilter(
            "!org.apache.commons.collections.functors.*;!org.apache.commons.collections4.functors.*;"
            + "!org.apache.commons.beanutils.*;!org.codehaus.groovy.runtime.*;!org.springframework.beans.factory.*;"
            + "!com.mchange.v2.c3p0.*;!org.hibernate.engine.spi.*;!com.sun.rowset.*;!bsh.*;!clojure.*");

    private final long length;
    private final ObjectInputFilter user;
    /** Why mpi4j refused the stream (first reason), for the exception message; null if it did not. */
    String refusal;
    /** The last class asked about: names the class when a filter outside mpi4j refuses. */
    Class<?> lastClass;

    /** A filter for a message of {@code length} bytes. */
    ObjectFilter(String call, long length) {
        this.length = length;
        this.user = UserPattern.filter(call);
    }

    @Override
    public Status checkInput(FilterInfo info) {
        Class<?> c = info.serialClass();
        if (c != null) lastClass = c;
        if (info.depth() > MAX_DEPTH) {
            return refuse("the object graph is deeper than " + MAX_DEPTH + " levels (depth " + info.depth() + ")");
        }
        if (info.streamBytes() > length || info.references() > length) {
            return refuse("the stream reads past the " + length + "-byte message");
        }
        if (c != null && c.isArray() && info.arrayLength() >= 0) {
            long need = info.arrayLength() * (long) bytesPerElement(c.getComponentType());
            long left = length - info.streamBytes();
            if (need > left) {
                return refuse(c.getComponentType().getTypeName() + "[" + info.arrayLength() + "] needs at least "
                        + need + " bytes but only " + left + " remain in the " + length + "-byte message");
            }
        }
        if (user != null) {
            Status s = user.checkInput(info);
            if (s == Status.REJECTED) {
                return refuse((c != null ? c.getName() : "the stream") + " is refused by -D" + PROPERTY + "="
                        + System.getProperty(PROPERTY));
            }
            if (s == Status.ALLOWED) return Status.ALLOWED;
        }
        return c == null ? Status.UNDECIDED : byDefault(c);
    }

    private Status refuse(String why) {
        if (refusal == null) refusal = why;
        return Status.REJECTED;
    }

    /** The least a serialized element takes: its raw size, or one byte (TC_NULL) for a reference. */
    private static int bytesPerElement(Class<?> component) {
        if (component == long.class || component == double.class) return 8;
        if (component == int.class || component == float.class) return 4;
        if (component == short.class || component == char.class) return 2;
        return 1;
    }

    private Status byDefault(Class<?> c) {
        Class<?> base = c;
        while (base.isArray()) base = base.getComponentType();
        if (base.isPrimitive()) return Status.ALLOWED;
        String allowHint = "; to admit it, name it in -D" + PROPERTY + " (e.g. -D" + PROPERTY + "=" + base.getName()
                + ";java.base/*;!* or " + base.getPackageName() + ".*)";
        if (KNOWN_GADGETS.checkInput(new Only(base)) == Status.REJECTED) {
            return refuse(base.getName() + " belongs to a library with known deserialization gadgets" + allowHint);
        }
        if (Proxy.isProxyClass(base)) return refuse(base.getName() + " is a dynamic proxy class" + allowHint);
        ClassLoader loader = base.getClassLoader();
        boolean jdk = loader == null || loader == ClassLoader.getPlatformClassLoader();
        if (jdk) {
            Module m = base.getModule();
            if ("java.base".equals(m.getName()) && m.isExported(base.getPackageName())) return Status.ALLOWED;
            return refuse(base.getName() + " (module " + m.getName() + ") is not admitted by default: only the "
                    + "exported packages of java.base are" + allowHint);
        }
        if (runsOwnCode(base)) {
            return refuse(base.getName() + " runs its own code when deserialized (readObject, readObjectNoData, "
                    + "readResolve or Externalizable), which mpi4j does not admit by default" + allowHint);
        }
        return Status.ALLOWED;
    }

    /** Whether deserializing an instance of {@code c} calls a method of {@code c} itself. */
    private static boolean runsOwnCode(Class<?> c) {
        if (Externalizable.class.isAssignableFrom(c)) return true;
        return declares(c, "readObject", ObjectInputStream.class) || declares(c, "readObjectNoData")
                || declares(c, "readResolve");
    }

    private static boolean declares(Class<?> c, String name, Class<?>... params) {
        try {
            Method m = c.getDeclaredMethod(name, params);
            return m != null;
        } catch (NoSuchMethodException e) {
            return false;
        } catch (SecurityException | LinkageError e) {
            return true; // cannot tell: treat as running code
        }
    }

    /** Filter information about one class only (to ask a pattern filter about it). */
    private static final class Only implements FilterInfo {
        private final Class<?> c;

        Only(Class<?> c) {
            this.c = c;
        }

        @Override
        public Class<?> serialClass() {
            return c;
        }

        @Override
        public long arrayLength() {
            return -1;
        }

        @Override
        public long depth() {
            return 1;
        }

        @Override
        public long references() {
            return 0;
        }

        @Override
        public long streamBytes() {
            return 0;
        }
    }

    /** The pattern of -Dmpi4j.serialFilter, parsed once. */
    private static final class UserPattern {
        private static final String TEXT = System.getProperty(PROPERTY, "").trim();
        private static final ObjectInputFilter FILTER;
        private static final String ERROR;

        static {
            ObjectInputFilter f = null;
            String error = null;
            if (!TEXT.isEmpty()) {
                try {
                    f = ObjectInputFilter.Config.createFilter(TEXT);
                } catch (IllegalArgumentException e) {
                    error = e.getMessage();
                }
            }
            FILTER = f;
            ERROR = error;
        }

        static ObjectInputFilter filter(String call) {
            if (ERROR != null) {
                throw MPIException.of(MPI.ERR_ARG, call + ": invalid -D" + PROPERTY + "=" + TEXT + ": " + ERROR);
            }
            return FILTER;
        }
    }
}
