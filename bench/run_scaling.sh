#!/usr/bin/env bash
# Scaling study of the fabric's collective schedules (issue 12 item 6, docs/scaling.md):
# measured median time per call, the algorithm the cost model picks, and its predicted time,
# with ranks as threads of one JVM and as processes under mpi4jrun; then the model-only table
# for 64-1024 ranks on 10 and 100 Gb/s links next to Open MPI 4.1's tuned decisions.
#
#   bench/run_scaling.sh [measure|model|all]     THREAD_NPS="2,4,8,16,32,64" PROC_NPS="2 4 8 16"
#                                                COLLS=allreduce,bcast,allgather,reduce_scatter_block,barrier
#                                                SIZES=8,512,32768,262144,2097152 REPS=5
#   JAR (default target/mpi4j.jar) and CP (default $JAR) name the classes; MPI4J_JAR the
#   launcher's. Do not rebuild while this runs: a replaced jar breaks the launcher mid-run.
#
# The load average is recorded before and after every run (the machine is shared). Results
# (raw lines and markdown tables) go to bench/results/<date>-scaling/.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
jar=${JAR:-target/mpi4j.jar}
[ -f "$jar" ] || { echo "build first: mvn -B -DskipTests package"; exit 1; }
cp=${CP:-$jar}   # CP: another class path (classes being worked on)
thread_nps=${THREAD_NPS:-2,4,8,16,32,64}
proc_nps=${PROC_NPS:-"2 4 8 16"}
colls=${COLLS:-allreduce,bcast,allgather,reduce_scatter_block,barrier}
sizes=${SIZES:-8,512,32768,262144,2097152}
reps=${REPS:-5}
out=bench/results/$(date -u +%Y-%m-%d-%H%M)-scaling
mkdir -p "$out"
load() { cut -d' ' -f1-3 /proc/loadavg; }
{ echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"; echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
  echo "cores: $(nproc)"; echo "java: $(java -version 2>&1 | head -1)"
  echo "settings: COLLS=$colls SIZES=$sizes REPS=$reps THREAD_NPS=$thread_nps PROC_NPS=$proc_nps"; } > "$out/machine.txt"

if [ "$what" = measure ] || [ "$what" = all ]; then
  echo "threads np=$thread_nps: load before $(load)" >> "$out/machine.txt"
  java -Xms1g -Xmx3g -XX:+UseParallelGC -cp "$cp" io.github.mpi4j.bench.Scaling threads "$thread_nps" "$colls" \
    "$sizes" "$reps" | grep '^RESULT' | tee -a "$out/raw.txt"
  echo "threads: load after $(load)" >> "$out/machine.txt"
  for np in $proc_nps; do
    heap=$(( np > 8 ? 256 : 512 ))
    echo "procs np=$np: load before $(load)" >> "$out/machine.txt"
    launch/mpi4jrun -np "$np" --timeout 1200 -Xms${heap}m -Xmx${heap}m -XX:+UseParallelGC \
      -cp "$cp" io.github.mpi4j.bench.Scaling procs "$colls" "$sizes" "$reps" | grep '^RESULT' | tee -a "$out/raw.txt"
    echo "procs np=$np: load after $(load)" >> "$out/machine.txt"
  done
  # One table: measured, model, oversubscription with and without the background load, ratios,
  # and the CPU time per call and rank (which other programs do not inflate) against the model.
  awk -v cores="$(nproc)" 'BEGIN {
         print "| mode | np | collective | bytes | algorithm | measured µs | model µs | B | (p+B)/cores | measured / (model·(p+B)/cores) | measured / (model·p/cores) | CPU µs per rank | CPU / model |"
         print "|---|---|---|---|---|---|---|---|---|---|---|---|---|" }
       { delete v; for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
         f = v["np"] / cores; if (f < 1) f = 1
         printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.2f | %s | %.2f |\n", v["mode"], v["np"], v["coll"],
                v["bytes"], v["alg"], v["measured_us"], v["model_us"], v["background"], v["oversub"], v["ratio"],
                v["measured_us"] / (v["model_us"] * f), v["cpu_us"], v["cpu_us"] / v["model_us"] }' \
    "$out/raw.txt" > "$out/measured.md"
fi
if [ "$what" = model ] || [ "$what" = all ]; then
  java -cp "$cp" io.github.mpi4j.bench.ScalingModel > "$out/model.md"
fi
cat "$out/machine.txt"
echo "results in $out"
