#!/usr/bin/env bash
# Runs the OSU-style benchmarks of mpi4j (Java arrays, Java direct buffers) and their C twin
# linked to the same Open MPI, in one session on this machine, and prints the ratios.
#
#   bench/run.sh [mpi|fabric|fabric-tcp]      REPS=3 MAX=16777216 BW_MAX=4194304 NPS="2 4"
#
#   mpi         the MPI backend under mpirun          vs  C over Open MPI (shared memory: vader)
#   fabric      the fabric over shared memory         vs  C over Open MPI (shared memory: vader)
#   fabric-tcp  the fabric with TCP between all ranks vs  C over Open MPI --mca btl tcp,self,
#               and vs raw loopback TCP (bench/tcp_raw.c) for bandwidth
#
# Latency and bandwidth use ranks 0 and 1 only and run at np 2; allreduce and bcast run at
# every np in NPS; the fabric modes also time MPI.Init at np 4. Bandwidth stops at BW_MAX (a
# window is 64 buffers of that size per rank, as in OSU's osu_bw). Ranks are not bound to cores
# (--bind-to none) for C and Java alike: a bound JVM shares one core with its JIT and GC.
# Results (raw lines and the markdown table) go to bench/results/<date>-<mode>/.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-mpi}
reps=${REPS:-3}
max=${MAX:-16777216}
bw_max=${BW_MAX:-4194304}
nps=${NPS:-"2 4"}
jar=target/mpi4j.jar
osu_c=target/bench/osu_c
tcp_raw=target/bench/tcp_raw
case "$mode" in mpi|fabric|fabric-tcp) ;; *) echo "unknown mode $mode (mpi, fabric, fabric-tcp)"; exit 2;; esac
[ -f "$jar" ] && [ -x "$osu_c" ] || { echo "build first (with Open MPI installed): mvn -B -DskipTests package"; exit 1; }
out=bench/results/$(date +%Y-%m-%d-%H%M)-$mode
mkdir -p "$out"
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
mca=()
[ "$mode" = fabric-tcp ] && mca=(--mca btl tcp,self)
jvm_opts=(-Xbatch -Xms1g -Xmx2g -XX:MaxDirectMemorySize=2g -XX:+UseParallelGC -cp "$jar")

limit() {   # test -> max bytes
  if [ "$1" = bw ]; then echo "$bw_max"; else echo "$max"; fi
}
run_c() {   # np test
  mpirun -np "$1" --oversubscribe --bind-to none "${root[@]}" "${mca[@]}" "$osu_c" "$2" "$(limit "$2")"
}
run_java() {   # np test kind
  case "$mode" in
    mpi) mpirun -np "$1" --oversubscribe --bind-to none "${root[@]}" java "${jvm_opts[@]}" \
           io.github.mpi4j.bench.Osu "$2" "$3" "$(limit "$2")" ;;
    fabric) launch/mpi4jrun -np "$1" "${jvm_opts[@]}" io.github.mpi4j.bench.Osu "$2" "$3" "$(limit "$2")" ;;
    fabric-tcp) launch/mpi4jrun -np "$1" --tcp "${jvm_opts[@]}" io.github.mpi4j.bench.Osu "$2" "$3" "$(limit "$2")" ;;
  esac
}
record() {   # np rep
  grep '^RESULT' | sed "s/^/np=$1 rep=$2 /" >> "$out/raw.txt"
}

{ echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"; echo "mode: $mode"; echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
  echo "cores: $(nproc)"; echo "java: $(java -version 2>&1 | head -1)"; echo "mpi: $(mpirun --version 2>&1 | head -1)"; } > "$out/machine.txt"

for rep in $(seq 1 "$reps"); do
  for test in latency bw allreduce bcast; do
    for np in $nps; do
      if [ "$test" = latency ] || [ "$test" = bw ]; then [ "$np" = 2 ] || continue; fi
      echo "== rep $rep: $test np=$np" >&2
      run_c "$np" "$test" | record "$np" "$rep"
      for kind in array direct; do
        run_java "$np" "$test" "$kind" | record "$np" "$rep"
      done
    done
  done
  if [ "$mode" = fabric-tcp ]; then
    "$tcp_raw" "$bw_max" | record 2 "$rep"
  fi
  if [ "$mode" != mpi ]; then
    run_java 4 init array | record 4 "$rep"
  fi
done
cat "$out/machine.txt"
java -cp "$jar" io.github.mpi4j.bench.Report "$out/raw.txt" "$mode" | tee "$out/table.md"
