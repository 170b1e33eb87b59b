#!/usr/bin/env bash
# One-sided (RMA) benchmarks of mpi4j next to their C twin, in one session (issue 11):
#
#   bench/run_rma.sh            MAX_LAT=65536 MAX_BW=1048576
#
# put_latency / get_latency: MPI_Put or MPI_Get + MPI_Win_flush per iteration under lock_all (µs,
# OSU's 10,000 iterations below 64 KiB); get_bw: 64 gets then a
# flush (MB/s); ranks 0 and 1 of an np 2 job, an allocated window, not bound to cores. Columns:
#   c           bench/osu_rma_c.c over Open MPI (OMPI_MCA_osc=^rdma, the setting mpi4j's MPI
#               backend gives itself on Open MPI 4: osc/rdma crashes in MPI_Compare_and_swap)
#   c-rdma      the same C program with Open MPI's default components (osc/rdma)
#   java-mpi    mpi.Win on the MPI backend under the same mpirun (an allocated window of one node
#               is MPI_Win_allocate_shared, so small puts and gets are copies in Java, docs/onesided.md)
#   java-mpi-jni the same with MPI4J_RMA_LOADSTORE=0: every call is the MPI call through JNI
#   fabric-shm  mpi.Win on the fabric (mpi4jrun): Win.allocate between processes of one node is
#               a shared-memory file both map, so RMA is loads and stores
#   fabric-ring the fabric through the transport (MPI4J_RMA=transport): requests over the
#               shared-memory rings to the target's RMA service thread
#   fabric-tcp  the fabric on two "hosts" of this machine (TCP), through the transport
# Raw lines and the markdown table go to bench/results/<date>-rma/.
set -euo pipefail
cd "$(dirname "$0")/.."
max_lat=${MAX_LAT:-65536}
max_bw=${MAX_BW:-1048576}
jar=target/mpi4j.jar
c=target/bench/osu_rma_c
[ -f "$jar" ] && [ -x "$c" ] || { echo "build first (with Open MPI installed): mvn -B -DskipTests package"; exit 1; }
out=bench/results/$(date +%Y-%m-%d-%H%M)-rma
mkdir -p "$out"
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
# -XX:+AlwaysPreTouch: the heap's pages are written at start-up, as the C twin writes its buffers
# before use. get_bw cuts an MPI.slice per get (as ported C code does); on fresh heap pages each
# allocation paid a page fault, and the 4 KiB row measured those (0.25x C) instead of the gets.
jvm=(-Xbatch -Xms256m -Xmx1g -XX:+AlwaysPreTouch -XX:MaxDirectMemorySize=1g -XX:+UseParallelGC -cp "$jar")
limit() { if [ "$1" = get_bw ]; then echo "$max_bw"; else echo "$max_lat"; fi; }
{ echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"; echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
  echo "cores: $(nproc), load: $(cut -d' ' -f1-3 /proc/loadavg)"; echo "java: $(java -version 2>&1 | head -1)"
  echo "mpi: $(mpirun --version 2>&1 | head -1)"; } > "$out/machine.txt"
for test in ${TESTS:-put_latency get_latency get_bw}; do
  n=$(limit "$test")
  echo "== $test" >&2
  OMPI_MCA_osc=^rdma mpirun -np 2 --oversubscribe --bind-to none "${root[@]}" -x OMPI_MCA_osc "$c" "$test" "$n" \
    | grep '^RESULT' >> "$out/raw.txt" || echo "c failed" >&2
  mpirun -np 2 --oversubscribe --bind-to none "${root[@]}" "$c" "$test" "$n" | grep '^RESULT' \
    | sed 's/RESULT c /RESULT c-rdma /' >> "$out/raw.txt" || echo "c-rdma failed" >&2
  mpirun -np 2 --oversubscribe --bind-to none "${root[@]}" java "${jvm[@]}" io.github.mpi4j.bench.OsuRma \
    "$test" java-mpi "$n" | grep '^RESULT' >> "$out/raw.txt" || echo "java-mpi failed" >&2
  MPI4J_RMA_LOADSTORE=0 mpirun -np 2 --oversubscribe --bind-to none "${root[@]}" -x MPI4J_RMA_LOADSTORE java \
    "${jvm[@]}" io.github.mpi4j.bench.OsuRma "$test" java-mpi-jni "$n" | grep '^RESULT' >> "$out/raw.txt" \
    || echo "java-mpi-jni failed" >&2
  launch/mpi4jrun -np 2 "${jvm[@]}" io.github.mpi4j.bench.OsuRma "$test" fabric-shm "$n" | grep '^RESULT' \
    >> "$out/raw.txt" || echo "fabric-shm failed" >&2
  launch/mpi4jrun -np 2 -x MPI4J_RMA=transport "${jvm[@]}" io.github.mpi4j.bench.OsuRma "$test" fabric-ring "$n" \
    | grep '^RESULT' >> "$out/raw.txt" || echo "fabric-ring failed" >&2
  launch/mpi4jrun -np 2 --hosts localhost:1,127.0.0.1:1 --agent env "${jvm[@]}" io.github.mpi4j.bench.OsuRma \
    "$test" fabric-tcp "$n" | grep '^RESULT' >> "$out/raw.txt" || echo "fabric-tcp failed" >&2
done
cat "$out/machine.txt"
# Table: one row per test and size, one column per label, then java-mpi / c.
awk '
  { key = $3 " " $4; v[key, $2] = $5; if (!(key in seen)) { seen[key] = 1; order[++k] = key } labels[$2] = 1 }
  END {
    split("c c-rdma java-mpi java-mpi-jni fabric-shm fabric-ring fabric-tcp", cols, " ")
    printf "| test | bytes |"; for (i = 1; i <= 7; i++) printf " %s |", cols[i]; print " java-mpi / c | fabric-shm / c |"
    printf "|---|---:|"; for (i = 1; i <= 7; i++) printf "---:|"; print "---:|---:|"
    for (j = 1; j <= k; j++) {
      split(order[j], f, " "); printf "| %s | %s |", f[1], f[2]
      for (i = 1; i <= 7; i++) { x = v[order[j], cols[i]]; printf " %s |", (x == "" ? "-" : x) }
      b = v[order[j], "c"]
      for (i = 1; i <= 2; i++) {
        a = v[order[j], i == 1 ? "java-mpi" : "fabric-shm"]
        printf " %s |", (a != "" && b != "" && b > 0) ? sprintf("%.2f", a / b) : "-"
      }
      print ""
    }
  }' "$out/raw.txt" | tee "$out/table.md"
