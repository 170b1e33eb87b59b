package io.github.mpi4j.nativeload;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Loads mpi4j's JNI libraries, each at most once, in this order:
 * <ol>
 *   <li>an explicit file: system property {@code mpi4j.native.<name>} (full path), or a directory
 *       in {@code mpi4j.native.path} holding {@code lib<name>.so};</li>
 *   <li>{@code java.library.path} ({@code System.loadLibrary});</li>
 *   <li>the copy inside the jar, {@code META-INF/native/<os>-<arch>/lib<name>.so}, extracted to a
 *       private temporary directory.</li>
 * </ol>
 * Right after loading, the library is asked which ABI version it was built for
 * ({@link NativeAbi}); a stale one is refused, and not replaced by a later candidate: its JNI
 * symbols stay bound in this JVM, so another copy loaded beside it would not be the one called.
 * A library that cannot be loaded is recorded in {@link Capabilities} with every reason, and
 * the caller decides what to do: this class never exits the JVM. Setting
 * {@code -Dmpi4j.native.disable=true} skips native code entirely.
 */
public final class NativeLoader {
    private NativeLoader() {
    }

    private static final Map<String, Result> RESULTS = new ConcurrentHashMap<>();

    /** Outcome of loading one library. */
    public static final class Result {
        public final boolean loaded;
        public final String detail;
        /** Loaded, but built for another ABI version than this jar's (then {@link #loaded} is false). */
        public final boolean stale;

        Result(boolean loaded, String detail) {
            this(loaded, detail, false);
        }

        private Result(boolean loaded, String detail, boolean stale) {
            this.loaded = loaded;
            this.detail = detail;
            this.stale = stale;
        }
    }

    /** Loads {@code lib<name>.so}; returns whether it is loaded now. */
    public static boolean load(String name) {
        return RESULTS.computeIfAbsent(name, NativeLoader::tryLoad).loaded;
    }

    /** Why {@code name} is or is not loaded, or null if never tried. */
    public static String detail(String name) {
        Result r = RESULTS.get(name);
        return r == null ? null : r.detail;
    }

    /** Whether {@code name} was found but refused as built for another ABI version. */
    public static boolean stale(String name) {
        Result r = RESULTS.get(name);
        return r != null && r.stale;
    }

    /** The platform directory inside the jar: linux-x86_64, linux-aarch64, ... */
    public static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (os.startsWith("linux")) os = "linux";
        else if (os.startsWith("mac")) os = "osx";
        if (arch.equals("amd64") || arch.equals("x86_64")) arch = "x86_64";
        else if (arch.equals("arm64") || arch.equals("aarch64")) arch = "aarch64";
        return os + "-" + arch;
    }

    private static Result tryLoad(String name) {
        if (Boolean.getBoolean("mpi4j.native.disable")) {
            return new Result(false, "native code disabled by -Dmpi4j.native.disable=true");
        }
        String file = System.mapLibraryName(name);
        StringBuilder why = new StringBuilder();

        String explicit = System.getProperty("mpi4j.native." + name);
        if (explicit != null) {
            return loadFile(name, Paths.get(explicit), "mpi4j.native." + name, why);
        }
        String dir = System.getProperty("mpi4j.native.path");
        if (dir != null) {
            Path p = Paths.get(dir, file);
            if (Files.isRegularFile(p)) {
                return loadFile(name, p, "mpi4j.native.path", why);
            }
            why.append("not in mpi4j.native.path (").append(p).append("); ");
        }
        String onPath = file + " (java.library.path)";
        try {
            System.loadLibrary(name);
            return checked(name, onPath, "loaded " + file + " from java.library.path");
        } catch (UnsatisfiedLinkError e) {
            why.append("not on java.library.path; ");
        } catch (LinkageError e) {
            return onLoadFailed(onPath, e);
        }
        String resource = "/META-INF/native/" + platform() + "/" + file;
        try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
            if (in == null) {
                why.append("not in the jar (").append(resource).append(")");
                return new Result(false, why.toString());
            }
            Path tmpDir = Files.createTempDirectory("mpi4j-native-");
            Path out = tmpDir.resolve(file);
            Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
            // The loaded mapping stays valid after unlinking; nothing is left in /tmp.
            Result r = loadFile(name, out, "jar " + resource, why);
            try {
                Files.deleteIfExists(out);
                Files.deleteIfExists(tmpDir);
            } catch (IOException ignored) {
                // best effort
            }
            return r;
        } catch (IOException e) {
            why.append("could not extract ").append(resource).append(": ").append(e);
            return new Result(false, why.toString());
        }
    }

    private static Result loadFile(String name, Path p, String source, StringBuilder why) {
        try {
            System.load(p.toAbsolutePath().toString());
        } catch (UnsatisfiedLinkError e) {
            why.append("failed to load ").append(p).append(" (").append(source).append("): ").append(e.getMessage());
            return new Result(false, why.toString());
        } catch (LinkageError e) {
            return onLoadFailed(p + " (" + source + ")", e);
        }
        return checked(name, p + " (" + source + ")", "loaded " + p + " (" + source + ")");
    }

    /**
     * A library whose JNI_OnLoad threw (a class, field or method it caches is not in these
     * classes): built for other classes than these, so stale, and reported instead of thrown.
     */
    private static Result onLoadFailed(String where, LinkageError e) {
        return new Result(false, NativeAbi.stale(where, "its JNI_OnLoad failed with " + e), true);
    }

    /** The result for a library just loaded from {@code where}: usable only if built for this jar's ABI. */
    private static Result checked(String name, String where, String loaded) {
        String stale = NativeAbi.check(name, where);
        return stale == null ? new Result(true, loaded) : new Result(false, stale, true);
    }
}
