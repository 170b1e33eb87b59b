#!/usr/bin/env bash
# Prepares what tests/gpu/run-on-gpu.sh needs on a GPU machine that has no JDK or Maven: a small
# Java runtime made with jlink (.gpucheck/jre), the JUnit API jars the suites assert with
# (.gpucheck/lib) and the compiled examples (.gpucheck/examples). Run it after
# `mvn -B -DskipTests package`; it prints the command to run there. .gpucheck is git-ignored.
#
#   tests/gpu/bundle.sh
#
# On the GPU machine, with .gpucheck, target/mpi4j.jar, target/test-classes and target/bench
# copied next to a checkout (about 45 MiB):
#   JAVA_HOME=$PWD/.gpucheck/jre EXTRA_CP=$(ls -d $PWD/.gpucheck/lib/*.jar | paste -sd:) \
#   EXAMPLES=$PWD/.gpucheck/examples tests/gpu/run-on-gpu.sh /tmp/gpu-check
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f target/mpi4j.jar ] && [ -d target/test-classes ] || { echo "build first: mvn -B -DskipTests package" >&2; exit 1; }
out=.gpucheck
rm -rf "$out"
mkdir -p "$out/lib" "$out/examples"

# The modules the jar and the test classes use (jdeps), plus jdk.management for the warm start.
jlink --add-modules java.base,java.management,jdk.management,java.xml,jdk.unsupported,java.logging \
  --strip-debug --no-header-files --no-man-pages --compress=2 --output "$out/jre"
rm -f "$out"/jre/lib/server/classes*.jsa   # the class-data archive: 11 MiB, rebuilt on demand

# The JUnit API of the pom's version and what it needs, from the local Maven repository.
repo=${MAVEN_REPO:-$HOME/.m2/repository}
junit=$(sed -n 's:.*<junit.version>\(.*\)</junit.version>.*:\1:p' pom.xml)
platform=1.${junit#5.}
for jar in "org/junit/jupiter/junit-jupiter-api/$junit/junit-jupiter-api-$junit.jar" \
           "org/junit/platform/junit-platform-commons/$platform/junit-platform-commons-$platform.jar" \
           org/opentest4j/opentest4j/1.3.0/opentest4j-1.3.0.jar \
           org/apiguardian/apiguardian-api/1.1.2/apiguardian-api-1.1.2.jar; do
  [ -f "$repo/$jar" ] || { echo "missing $repo/$jar (run the tests once with Maven to fetch it)" >&2; exit 1; }
  cp "$repo/$jar" "$out/lib/"
done

javac -d "$out/examples" -cp target/mpi4j.jar examples/GpuAllReduceOverlap.java
du -sh "$out"
echo "then, where the GPU is:"
echo "  JAVA_HOME=\$PWD/$out/jre EXTRA_CP=\$(ls -d \$PWD/$out/lib/*.jar | paste -sd:) EXAMPLES=\$PWD/$out/examples tests/gpu/run-on-gpu.sh /tmp/gpu-check"
