#!/usr/bin/env bash
# Runs mpi4j's GPU suites, its GPU example and its GPU benchmarks against the real CUDA runtime
# and NCCL of this machine (docs/testing-gpu.md, "Real GPUs"). CI runs the same suites against
# the test-only fake pair; here nothing names a library, so mpi4j finds the machine's own.
#
#   tests/gpu/run-on-gpu.sh [out-dir]          (default target/gpu-check)
#   SUITES="nccl-np2 mesh-2x2"                  only these suites (their labels below; default all)
#   BENCH=none | overhead | all                 which benchmarks (default all; REPS, CALLS, BATCHES)
#
# Needs a build (mvn -B -DskipTests package: target/mpi4j.jar, target/test-classes,
# target/bench), java (JAVA_HOME, else PATH), EXTRA_CP with the JUnit API jars
# (DeviceBufferSuite asserts with JUnit) and EXAMPLES with the compiled examples/ classes.
# Prints one line per suite run and writes every log, the benchmark tables and summary.txt to
# the out-dir. Exit status: 0 when no suite failed.
#
# Fewer GPUs than ranks on a host: NCCL refuses two ranks of one communicator on one GPU of one
# host ("Duplicate GPU detected"). The ranks then run through a java wrapper that gives each its
# own NCCL_HOSTID, so NCCL takes them for separate hosts and joins them by its socket transport
# over the loopback interface: the results are NCCL's, the speed is the loopback's.
set -u
cd "$(dirname "$0")/../.."
out=${1:-target/gpu-check}
mkdir -p "$out"
summary=$out/summary.txt
: > "$summary"
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
jar=target/mpi4j.jar
[ -f "$jar" ] || jar=target/classes   # after the test phase, before package (GpuCheckScriptTest)
cp="$jar:target/test-classes${EXTRA_CP:+:$EXTRA_CP}"
jvm=(-Xcheck:jni -Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1)   # the suites: as in CI
bench_jvm=(-Xbatch -Xms256m -Xmx2g -XX:+UseParallelGC)                     # the benchmarks: as bench/run.sh
gpus=$( (nvidia-smi -L 2>/dev/null || true) | grep -c '^GPU')

{ echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"; echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $(nproc) cores"
  nvidia-smi -L 2>/dev/null; nvidia-smi --query-gpu=driver_version,memory.total --format=csv,noheader 2>/dev/null
  "$java" -version 2>&1 | head -1; "$java" -cp "$cp" io.github.mpi4j.Mpi4j 2>&1; } > "$out/machine.txt"
cat "$out/machine.txt"

if [ "$gpus" -lt 4 ]; then
  home=$("$java" -XshowSettings:properties -version 2>&1 | awk '$1 == "java.home" {print $3}')
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  wrapped=$tmp/jre
  cp -r "$home" "$wrapped" && mv "$wrapped/bin/java" "$wrapped/bin/java.real"
  cat > "$wrapped/bin/java" <<'EOF'
#!/bin/sh
# A rank of mpi4jrun is its own NCCL host (tests/gpu/run-on-gpu.sh); the launcher is not a rank.
[ -n "${MPI4J_RANK:-}" ] && export NCCL_HOSTID="mpi4j-gpu-check-$MPI4J_RANK"
exec "$(dirname "$0")/java.real" "$@"
EOF
  chmod +x "$wrapped/bin/java"
  export JAVA_HOME=$wrapped NCCL_SOCKET_IFNAME=lo NCCL_IB_DISABLE=1
  echo "gpus: $gpus: every rank is its own NCCL host (NCCL_HOSTID), joined over loopback sockets" | tee -a "$summary"
fi
export PATH=${JAVA_HOME:+$JAVA_HOME/bin:}$PATH

# log program-args... : one job under mpi4jrun; NP, ENV (array), HOSTS and BENCH_JVM (benchmark JVM
# options) set by the caller.
job() {
  local log=$1; shift
  local hosts=() opts=("${jvm[@]}")
  [ -n "${BENCH_JVM:-}" ] && opts=("${bench_jvm[@]}")
  [ -n "${HOSTS:-}" ] && hosts=(--hosts "$HOSTS" --agent env)
  env "${ENV[@]}" timeout 240 launch/mpi4jrun -np "$NP" --tag-output "${hosts[@]}" "${opts[@]}" -cp "$cp" "$@" >> "$log" 2>&1
}

# Whether the suite labelled $1 is to run (SUITES).
wanted() {
  [ -z "${SUITES:-}" ] || [[ " $SUITES " == *" $1 "* ]]
}

# label suite: the whole suite in one job; when it fails (the runner stops at the first failure),
# again one job per test method, so that every test gets a result.
suite() {
  local label=$1 suite=$2 log=$out/$1.log
  wanted "$label" || return 0
  : > "$log"
  local start=$SECONDS rc
  job "$log" io.github.mpi4j.testing.RankRunner "io.github.mpi4j.$suite"
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "== whole suite failed (exit $rc): one job per method" >> "$log"
    for m in $("$java" -cp "$cp" io.github.mpi4j.testing.RankRunner --list "io.github.mpi4j.$suite"); do
      echo "== $m" >> "$log"
      job "$log" io.github.mpi4j.testing.RankRunner "io.github.mpi4j.$suite" "$m" || echo "== $m: exit $?" >> "$log"
    done
  fi
  # One verdict per test and communicator: FAIL if any rank failed it, else PASS if any passed.
  local counts
  counts=$(grep -o '@@MPI4J RESULT [0-9]* [^ ]* [^ ]* [A-Z]*' "$log" \
    | awk '{ id = $4 " " $5; v = $6; if (v == "FAIL" || !(id in r) || r[id] == "SKIP") r[id] = v }
           END { for (i in r) n[r[i]]++; printf "%d pass, %d fail, %d skip", n["PASS"], n["FAIL"], n["SKIP"] }')
  local failed
  failed=$(grep -o '@@MPI4J RESULT [0-9]* [^ ]* [^ ]* FAIL' "$log" | awk '{print $4 "/" $5}' | sort -u | paste -sd' ')
  echo "$label: $counts (first job exit $rc, $((SECONDS - start)) s)${failed:+; failed: $failed}" | tee -a "$summary"
}

# label class: a suite that runs in one JVM and prints "<marker> <test> PASS|FAIL|SKIP".
single() {
  local label=$1 class=$2 log=$out/$1.log
  wanted "$label" || return 0
  timeout 240 "$java" "${jvm[@]}" -cp "$cp" "io.github.mpi4j.$class" > "$log" 2>&1
  local rc=$?
  echo "$label: $(grep -c ' PASS' "$log") pass, $(grep -c ' FAIL' "$log") fail, $(grep -c ' SKIP' "$log") skip (exit $rc)$(grep ' FAIL' "$log" | awk '{printf "; failed: %s", $2}')" \
    | tee -a "$summary"
}

# Benchmarks of one GPU first, alone on the machine. What mpi4j adds to an NCCL call, against its C twin on the
# same real library (one process, one GPU).
cudart=$(grep -o '/[^ ]*libcudart\.so[.0-9]*' "$out/machine.txt" | head -1)
nccl=$(grep -o '/[^ ]*libnccl\.so[.0-9]*' "$out/machine.txt" | head -1)
benches=${BENCH:-all}
if [ "$benches" != none ] && [ -n "$nccl" ] && [ -n "$cudart" ] && [ -x target/bench/nccl_overhead_c ]; then
  MPI4J_CUDA_LIBRARY=$cudart MPI4J_NCCL_LIBRARY=$nccl REPS=${REPS:-3} CALLS=${CALLS:-20000} BATCHES=${BATCHES:-9} \
    bench/run.sh gpu-overhead > "$out/gpu-overhead.txt" 2>&1
  echo "gpu-overhead: exit $? (table in gpu-overhead.txt)" | tee -a "$summary"
fi
# nccl-tests style on one GPU, results checked first.
ENV=(); HOSTS=
if [ "$benches" = all ]; then
NP=1 job "$out/nccl-bench-np1-check.log" io.github.mpi4j.bench.NcclBench -b 8 -e 16M -f 16 -c -n 2 -w 1
echo "NcclBench np 1 -c: exit $? ($(grep -c ' ok' "$out/nccl-bench-np1-check.log") rows ok, $(grep -c WRONG "$out/nccl-bench-np1-check.log") wrong)" | tee -a "$summary"
BENCH_JVM=1 NP=1 job "$out/nccl-bench-np1.log" io.github.mpi4j.bench.NcclBench -b 8 -e 1G -f 4
echo "NcclBench np 1: exit $?" | tee -a "$summary"
fi
# The suites, in four groups side by side (one GPU serves them all).
(
  ENV=(); HOSTS=
  NP=1 suite nccl-np1 nccl.NcclSuite
  NP=2 suite nccl-np2 nccl.NcclSuite
  NP=3 suite nccl-np3 nccl.NcclSuite
) &
(
  ENV=(); HOSTS=
  NP=2 suite device-mpi-np2 device.DeviceMpiSuite
  NP=3 suite device-mpi-np3 device.DeviceMpiSuite
  single device-buffer cuda.DeviceBufferSuite
  single cuda-sync-copy cuda.CudaSyncCopySuite
) &
(
  ENV=(MPI4J_DEVICE_COLLECTIVES=nccl); HOSTS=
  NP=2 suite nccl-mode-np2 device.NcclModeSuite
  NP=3 suite nccl-mode-np3 device.NcclModeSuite
  NP=2 suite device-mpi-nccl-mode-np2 device.DeviceMpiSuite
  ENV=()
  NP=2 suite nccl-info-np2 device.NcclInfoSuite
) &
(
  ENV=()
  NP=4 HOSTS=localhost:2,127.0.0.1:2 suite hierarchical-2x2 nccl.HierarchicalSuite
  NP=4 HOSTS=localhost:3,127.0.0.1:1 suite hierarchical-3+1 nccl.HierarchicalSuite
  NP=4 HOSTS=localhost:2,127.0.0.1:2 suite mesh-2x2 nccl.MeshSuite
) &
wait

# The example: an allreduce of a device buffer overlapped with computation (it prints its sums).
if [ -n "${EXAMPLES:-}" ] && wanted example; then
  ENV=(); HOSTS=; NP=2
  : > "$out/example.log"
  job "$out/example.log" -cp "$cp:$EXAMPLES" GpuAllReduceOverlap
  echo "example GpuAllReduceOverlap np 2: exit $? ($(grep -c 'sums\[0\.\.2\]' "$out/example.log") ranks printed sums)" | tee -a "$summary"
fi

# Two ranks sharing the GPU (socket transport: correctness, not speed).
if [ "$benches" = all ]; then
NP=2 job "$out/nccl-bench-np2-check.log" io.github.mpi4j.bench.NcclBench -b 8 -e 4M -f 16 -c -n 2 -w 1
echo "NcclBench np 2 -c: exit $? ($(grep -c ' ok' "$out/nccl-bench-np2-check.log") rows ok, $(grep -c WRONG "$out/nccl-bench-np2-check.log") wrong)" | tee -a "$summary"
BENCH_JVM=1 NP=2 job "$out/nccl-bench-np2.log" io.github.mpi4j.bench.NcclBench -b 8 -e 64M -f 8 -n 5 -w 2
echo "NcclBench np 2: exit $?" | tee -a "$summary"
fi

cat "$summary"
! grep -q -E '[1-9][0-9]* fail|exit [1-9]' "$summary"
