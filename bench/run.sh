#!/usr/bin/env bash
# Runs the OSU-style benchmarks of mpi4j (Java arrays, Java direct buffers) and their C twin
# linked to the same MPI, in one session on this machine, and prints the ratios to C.
#
#   bench/run.sh [mpi|fabric]       (default: mpi)   REPS=3 MAX=16777216 NPS="2 4"
#
# Results (raw lines and the markdown table) go to bench/results/<date>/.
# Latency and bandwidth use ranks 0 and 1 only and run at np 2; allreduce and bcast run at
# every np in NPS. Ranks are not bound to cores (--bind-to none) for C and Java alike: a
# bound JVM shares one core with its JIT and GC threads.
set -euo pipefail
cd "$(dirname "$0")/.."
backend=${1:-mpi}
reps=${REPS:-3}
max=${MAX:-16777216}
nps=${NPS:-"2 4"}
jar=target/mpi4j.jar
osu_c=target/bench/osu_c
[ -f "$jar" ] || { echo "build first: mvn -B -DskipTests package"; exit 1; }
out=bench/results/$(date +%Y-%m-%d-%H%M)-$backend
mkdir -p "$out"
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
jvm=(java -Xbatch -Xms1g -Xmx1g -XX:+UseParallelGC -cp "$jar")

run_c() {   # np test
  mpirun -np "$1" --oversubscribe --bind-to none "${root[@]}" "$osu_c" "$2" "$max"
}
run_java() {   # np test kind
  if [ "$backend" = mpi ]; then
    mpirun -np "$1" --oversubscribe --bind-to none "${root[@]}" "${jvm[@]}" io.github.mpi4j.bench.Osu "$2" "$3" "$max"
  else
    launch/mpi4jrun -np "$1" "${jvm[@]:1}" io.github.mpi4j.bench.Osu "$2" "$3" "$max"
  fi
}

for rep in $(seq 1 "$reps"); do
  for test in latency bw allreduce bcast; do
    for np in $nps; do
      if [ "$test" = latency ] || [ "$test" = bw ]; then [ "$np" = 2 ] || continue; fi
      echo "== rep $rep: $test np=$np" >&2
      run_c "$np" "$test" | grep '^RESULT' | sed "s/^/np=$np rep=$rep /" >> "$out/raw.txt"
      for kind in array direct; do
        run_java "$np" "$test" "$kind" | grep '^RESULT' | sed "s/^/np=$np rep=$rep /" >> "$out/raw.txt"
      done
    done
  done
done
java -cp "$jar" io.github.mpi4j.bench.Report "$out/raw.txt" "$backend" | tee "$out/table.md"
