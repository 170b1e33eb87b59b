package io.github.mpi4j;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Layers point one way: the public API (package {@code mpi}) sits on top, and nothing below it
 * depends on it, except {@code mpi.MPIException}, the one exception every layer throws. Constants
 * the backends need come from {@code io.github.mpi4j.spi.Mpi}. The benchmark programs in
 * {@code io.github.mpi4j.bench} are users of the API, like the examples, and may use all of it.
 */
class LayeringTest {
    private static final Pattern USE = Pattern.compile("(?<![\\w.])mpi\\.([A-Z]\\w*)");
    /** Comments, then string and character literals: what is left is code. */
    private static final Pattern NOT_CODE = Pattern.compile(
            "/\\*.*?\\*/|//[^\\n]*|\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'", Pattern.DOTALL);

    @Test
    void nothingBelowTheApiDependsOnPackageMpiButMPIException() throws IOException {
        Path below = Path.of(Jobs.basedir(), "java", "io");
        List<String> offences = new ArrayList<>();
        int files = 0;
        try (Stream<Path> all = Files.walk(below)) {
            for (Path f : (Iterable<Path>) all.filter(p -> p.toString().endsWith(".java"))::iterator) {
                if (f.toString().contains("/io/github/mpi4j/bench/")) continue;
                files++;
                String code = NOT_CODE.matcher(Files.readString(f)).replaceAll(" ");
                Matcher m = USE.matcher(code);
                while (m.find()) {
                    if (!m.group(1).equals("MPIException")) offences.add(below.relativize(f) + ": mpi." + m.group(1));
                }
            }
        }
        assertTrue(files > 50, "found the sources below the API (" + files + " files)");
        assertTrue(offences.isEmpty(), "classes below the public API use package mpi:\n" + String.join("\n", offences));
    }
}
