#!/usr/bin/env bash
# Runs the OSU-style benchmarks of mpi4j (Java arrays, Java direct buffers) and their C twin
# linked to the same Open MPI, in one session on this machine, and prints the ratios; and the
# GPU benchmarks (gpu-overhead, nccl).
#
#   bench/run.sh [mpi|fabric|fabric-tcp]      REPS=3 MAX=16777216 BW_MAX=4194304 NPS="2 4"
#   bench/run.sh small                        REPS=15 MAX=64 BW_MAX=64
#   bench/run.sh gpu-overhead                 REPS=3 CALLS=200000 BATCHES=15
#   bench/run.sh nccl                         NP=<GPUs> ARGS="-b 8 -e 256M -f 2"
#   bench/run.sh fileio                       NPS="4" BLOCKS="4096 65536" PER=4194304 ITERS=8 DIR=/tmp
#   bench/run.sh coldstart                    REPS=3 ROUNDS=30 PER=5000 CALLS=20 BYTES=16777216 NPS="2 4" WARM=1
#   bench/run.sh overlap                      REPS=3 SIZES=1048576,16777216 ITERS=100 NPS="2 4"
#   bench/run.sh tcp-pairs                    REPS=5 MIN=65536 BW_MAX=4194304
#
#   mpi         the MPI backend under mpirun          vs  C over Open MPI (shared memory: vader)
#   fabric      the fabric over shared memory         vs  C over Open MPI (shared memory: vader)
#   fabric-tcp  the fabric with TCP between all ranks vs  C over Open MPI --mca btl tcp,self,
#               and vs raw loopback TCP (bench/tcp_raw.c) for bandwidth
#   tcp-pairs   the fabric's TCP bandwidth vs raw loopback TCP, one size per job, in rounds of
#               adjacent jobs (raw TCP, Java arrays, Java direct, in an order that turns each
#               round), from MIN to BW_MAX. Loopback TCP runs at about half speed while the
#               guest's two vCPUs sit in two core complexes, for raw TCP as much as for the
#               fabric, and that placement flips within seconds: so each Java job is compared
#               with the raw job of its own round, and cpu_pair is read before and after every
#               job, so that Report can also keep the rounds whose jobs stayed in one placement
#               (docs/performance.md, thirty-ninth session)
#   small       fabric's latency and bw tests alone, to 64 bytes at np 2, 15 repetitions: issue
#               12's small-message targets (8-byte latency and message rate). A shared guest can
#               place its two vCPUs in two core complexes for seconds to minutes, which runs
#               everything, C included, 2-2.6 times slower at small sizes (docs/performance.md,
#               twenty-fourth session); Report then compares the jobs of each placement, as read
#               by cpu_pair before and after every job (a job whose readings disagree counts in
#               neither), and each Java job with its repetition's C job, over all repetitions
#               and over those whose two jobs held the same placement (forty-third session); the
#               8-byte targets with a 95% interval for that median: met, missed or a tie
#               (forty-fourth session)
#   gpu-overhead  what mpi4j adds to an NCCL call: NcclOverhead (Java, a world of one process)
#               vs bench/nccl_overhead_c.c (C), the same calls on the same library, by default
#               the test-only fake NCCL in its no-op mode (FAKE_NCCL_NOOP=1), where the library
#               itself costs nanoseconds; MPI4J_CUDA_LIBRARY / MPI4J_NCCL_LIBRARY name others.
#               The C twin also makes its calls on a non-blocking communicator, as mpi4j's are
#               (column "C non-blocking")
#   fileio      collective write bandwidth through an interleaved view (each rank's block of every
#               stripe; MPI_File_write_at_all of PER bytes a rank, ITERS calls, median of 5 runs):
#               C (bench/fileio_c.c) under mpirun, FileBench on the MPI backend under mpirun and on
#               the fabric (two-phase collective buffering) under mpi4jrun, direct buffers and arrays
#   coldstart   from the first call after MPI_Init, in a fresh job each time, with plain
#               `java -cp jar` (no benchmark-chosen JVM flags, no warm-up): an 8-byte ping-pong
#               at np 2 in ROUNDS rounds of PER round trips (average one-way latency and the
#               worst round trip / 2 per round; 30 rounds by default, so that they hold the
#               JIT's C2 compile of the program's own loop, at its 100,000th round trip: 20
#               rounds left it out, forty-fourth session), then CALLS successive allreduces of BYTES of
#               doubles at every np in NPS (each call's time); ColdStart on the fabric
#               (mpi4jrun) and the MPI backend (mpirun), arrays and direct buffers, and the C
#               twin bench/coldstart_c.c; ColdStartReport marks issue 12's targets. Each Java
#               job runs without the warm start (MPI4J_WARMUP=0) and again with it
#               (MPI4J_WARMUP=1, what mpi4jrun does by default where ranks have a core each;
#               WARM=0: not). Every ping-pong job is followed by a C one and read with cpu_pair
#               before and after, so the report also judges each Java job against C jobs of the
#               same placement of the vCPUs
#   overlap     non-blocking allreduce overlapped with a busy loop (osu_iallreduce style):
#               pure, compute, overall time and overlap % at SIZES and every np in NPS; Overlap
#               on the fabric and the MPI backend (also with MPI4J_ASYNC_PROGRESS=1), arrays and
#               direct, and bench/overlap_c.c;
#               COMPUTES="busy idle" (default) repeats it with a sleep as the computation
#   nccl        NcclBench (nccl-tests style: time, algbw, busbw per collective and size) on NP
#               ranks, one per GPU (default: as many as nvidia-smi lists), under mpi4jrun, or
#               under LAUNCH="mpirun --bind-to none" (the MPI backend)
#
# PAGES=huge backs large buffers with transparent huge pages on both sides: the Java heap
# (-XX:+UseTransparentHugePages) and malloc'ed memory of Java (direct buffers) and C alike
# (GLIBC_TUNABLES=glibc.malloc.hugetlb=1). Needs THP "madvise" or "always"
# (/sys/kernel/mm/transparent_hugepage/enabled). Open MPI's single-copy path (CMA) into a Java
# heap array of 4 KiB pages is slow; see docs/performance.md, "Eighteenth session".
#
# Latency and bandwidth use ranks 0 and 1 only and run at np 2; allreduce and bcast run at
# every np in NPS; the fabric modes also time MPI.Init at np 4. Bandwidth stops at BW_MAX (a
# window is 64 buffers of that size per rank, as in OSU's osu_bw). Ranks are not bound to cores
# (--bind-to none) for C and Java alike: a bound JVM shares one core with its JIT and GC.
#
# Results (raw lines, the markdown table and SVG charts of the latency, bandwidth, allreduce,
# coldstart and overlap modes) go to bench/results/<date>-<mode>/.
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
cpu_pair=target/bench/cpu_pair
pair_ns() {   # a cache line's one-way time between the two vCPUs now, ns (see placement below)
  "$cpu_pair" | awk '/line_ns/{print $4}'
}
case "$mode" in mpi|fabric|fabric-tcp|tcp-pairs|small|gpu-overhead|nccl|fileio|coldstart|overlap) ;;
  *) echo "unknown mode $mode (mpi, fabric, fabric-tcp, tcp-pairs, small, gpu-overhead, nccl, fileio, coldstart, overlap)"; exit 2;; esac
run_name=$mode      # names the results folder
tests="latency bw allreduce bcast"
time_init=1         # the fabric modes also time MPI.Init at np 4
if [ "$mode" = small ]; then   # the fabric's small-message tests, many times (see above)
  mode=fabric; tests="latency bw"; time_init=0; reps=${REPS:-15}; max=${MAX:-64}; bw_max=${BW_MAX:-64}; nps=2
fi
pairs=0
if [ "$mode" = tcp-pairs ]; then   # one size per job, raw TCP next to each Java job (see above)
  mode=fabric-tcp; pairs=1; reps=${REPS:-5}
fi
# A young generation of 64 MiB in an initial heap of 256 MiB: small enough that every page of it
# is written again and again (pre-touched below, or after one pass of allocation), and not so
# much cold pre-touched memory that the kernel's DAMON page-out scan (kdamond, which this VM
# runs) works through it: with -Xms1g pre-touched it took one vCPU for 20-60 ms every ~0.5 s
# and spoiled whole repetitions (docs/performance.md, "Seventeenth session").
jvm_opts=(-Xbatch -Xms256m -Xmn64m -Xmx2g -XX:MaxDirectMemorySize=2g -XX:+UseParallelGC -cp "$jar")
pages=${PAGES:-4k}
case "$pages" in
  4k) ;;
  huge) grep -q '\[never\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null \
          && { echo "PAGES=huge: transparent huge pages are off on this machine"; exit 1; }
        jvm_opts+=(-XX:+UseTransparentHugePages)
        export GLIBC_TUNABLES=glibc.malloc.hugetlb=1 ;;   # inherited by mpirun's and mpi4jrun's ranks
  *) echo "unknown PAGES=$pages (4k, huge)"; exit 2 ;;
esac
# mpi4jrun warms its ranks up inside MPI.Init by default where they have a core each (auto): the
# steady-state modes warm up by themselves and time Init without it; coldstart sets it per job.
export MPI4J_WARMUP=${MPI4J_WARMUP:-0}
out=bench/results/$(date +%Y-%m-%d-%H%M)-$run_name
if [ "$pages" = huge ]; then out=$out-huge-pages; fi

if [ "$mode" = gpu-overhead ]; then
  nccl_c=target/bench/nccl_overhead_c
  fake=target/test-native/fake_gpu
  [ -f "$jar" ] && [ -x "$nccl_c" ] || { echo "build first: mvn -B -DskipTests package"; exit 1; }
  if [ -z "${MPI4J_NCCL_LIBRARY:-}" ]; then
    [ -f "$fake/libfakenccl.so" ] || { echo "no fake NCCL in $fake (the build needs the CUDA headers)"; exit 1; }
    export MPI4J_CUDA_LIBRARY=$PWD/$fake/libfakecudart.so MPI4J_NCCL_LIBRARY=$PWD/$fake/libfakenccl.so
    export FAKE_NCCL_NOOP=1
  fi
  calls=${CALLS:-200000}
  batches=${BATCHES:-15}
  mkdir -p "$out"
  { echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"; echo "mode: $mode ($calls calls per batch, median of $batches batches, $reps runs)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"; echo "cores: $(nproc)"
    echo "java: $(java -version 2>&1 | head -1)"
    echo "cuda: $MPI4J_CUDA_LIBRARY"; echo "nccl: $MPI4J_NCCL_LIBRARY (FAKE_NCCL_NOOP=${FAKE_NCCL_NOOP:-unset})"; } > "$out/machine.txt"
  for rep in $(seq 1 "$reps"); do
    echo "== rep $rep: C, then Java" >&2
    "$nccl_c" "$calls" "$batches" | grep '^RESULT' | sed "s/^/rep=$rep /" >> "$out/raw.txt"
    java "${jvm_opts[@]}" io.github.mpi4j.bench.NcclOverhead "$calls" "$batches" | grep '^RESULT' \
      | sed "s/^/rep=$rep /" >> "$out/raw.txt"
  done
  cat "$out/machine.txt"
  java -cp "$jar" io.github.mpi4j.bench.GpuOverheadReport "$out/raw.txt" | tee "$out/table.md"
  exit 0
fi

if [ "$mode" = fileio ]; then
  fileio_c=target/bench/fileio_c
  [ -f "$jar" ] && [ -x "$fileio_c" ] || { echo "build first (with Open MPI installed): mvn -B -DskipTests package"; exit 1; }
  root=()
  [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
  dir=$(mktemp -d "${DIR:-/tmp}/mpi4j-fileio.XXXXXX")
  trap 'rm -rf "$dir"' EXIT
  per=${PER:-4194304}
  iters=${ITERS:-8}
  mkdir -p "$out"
  { echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"; echo "mode: $mode (PER=$per bytes a rank a call, ITERS=$iters, dir $dir)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"; echo "cores: $(nproc)"
    echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"; echo "fs: $(df -T "$dir" | tail -1 | awk '{print $2}')"
    echo "java: $(java -version 2>&1 | head -1)"; echo "mpi: $(mpirun --version 2>&1 | head -1)"; } > "$out/machine.txt"
  for rep in $(seq 1 "$reps"); do
    for np in ${NPS:-4}; do
      for block in ${BLOCKS:-4096 65536}; do
        echo "== rep $rep: np=$np block=$block" >&2
        mpirun -np "$np" --oversubscribe --bind-to none "${root[@]}" "$fileio_c" "$dir" "$block" "$per" "$iters" \
          | grep '^RESULT' | sed "s/^/rep=$rep /" >> "$out/raw.txt"
        for kind in direct array; do
          mpirun -np "$np" --oversubscribe --bind-to none "${root[@]}" java "${jvm_opts[@]}" \
            io.github.mpi4j.bench.FileBench "$dir" "$block" "$per" "$iters" "$kind" \
            | grep '^RESULT' | sed "s/^/rep=$rep /" >> "$out/raw.txt"
          launch/mpi4jrun -np "$np" "${jvm_opts[@]}" io.github.mpi4j.bench.FileBench "$dir" "$block" "$per" \
            "$iters" "$kind" | grep '^RESULT' | sed "s/^/rep=$rep /" >> "$out/raw.txt"
        done
      done
    done
  done
  cat "$out/machine.txt"
  # Median over reps of each implementation's MB/s, and its ratio to C's at the same np and block.
  awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
         key = v["np"] " " v["block"]; vals[v["impl"] " " key] = vals[v["impl"] " " key] " " v["MBps"]; impls[v["impl"]] = 1; keys[key] = 1 }
       function median(s,   a, n, i, j, t) { n = split(s, a, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
         return a[int((n + 1) / 2)] }
       END { print "| np | block | implementation | MB/s | vs C |"; print "|---|---|---|---|---|"
         for (k in keys) { split(k, kb, " "); c = median(vals["c " k])
           for (m in impls) if (("" m " " k) in vals) { x = median(vals[m " " k]); printf "| %s | %s | %s | %.0f | %.2f |\n", kb[1], kb[2], m, x, x / c } } }' \
    "$out/raw.txt" | tee "$out/table.md"
  exit 0
fi

if [ "$mode" = coldstart ] || [ "$mode" = overlap ]; then
  twin=target/bench/coldstart_c
  [ "$mode" = overlap ] && twin=target/bench/overlap_c
  [ -f "$jar" ] && [ -x "$twin" ] || { echo "build first (with Open MPI installed): mvn -B -DskipTests package"; exit 1; }
  root=()
  [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
  mpirun_=(mpirun --oversubscribe --bind-to none "${root[@]}")
  rounds=${ROUNDS:-30}; per=${PER:-5000}; calls=${CALLS:-20}; bytes=${BYTES:-16777216}
  sizes=${SIZES:-1048576,16777216}; iters=${ITERS:-100}   # overlap: OSU's 100 iterations for messages above 8 KiB
  # overlap: OSU's busy computation, then a sleep of the same length (a free core for progress)
  computes=${COMPUTES:-busy idle}
  [ "$mode" = coldstart ] && computes=once
  # coldstart runs every Java job twice: without the warm start (MPI4J_WARMUP=0: impl fabric, mpi)
  # and with it (MPI4J_WARMUP=1: impl fabric-warm, mpi-warm); WARM=0 leaves the latter out.
  warms=0
  [ "$mode" = coldstart ] && [ "${WARM:-1}" != 0 ] && warms="0 1"
  suffix=("" "-warm")
  # coldstart: plain java -cp jar, nothing else (what a user's job starts with); overlap is a
  # steady-state measurement and uses the other modes' JVM options.
  cold_opts=(-cp "$jar")
  [ "$mode" = overlap ] && cold_opts=("${jvm_opts[@]}")
  mkdir -p "$out"
  { echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
    if [ "$mode" = coldstart ]; then echo "mode: coldstart (ROUNDS=$rounds PER=$per CALLS=$calls BYTES=$bytes NPS=$nps REPS=$reps)"
    else echo "mode: overlap (SIZES=$sizes ITERS=$iters NPS=$nps REPS=$reps COMPUTES=$computes)"; fi
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"; echo "cores: $(nproc)"
    echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "java: $(java -version 2>&1 | head -1)"; echo "mpi: $(mpirun --version 2>&1 | head -1)"; } > "$out/machine.txt"
  tagged() {   # impl np rep: keep the result lines, prefixed
    grep -E '^(COLD|OVERLAP) ' | sed "s/^/impl=$1 np=$2 rep=$3 /" >> "$out/raw.txt"
  }
  # coldstart's jobs: each between two readings of the vCPUs' placement (cpu_pair), and a C
  # ping-pong after every Java one, so that ColdStartReport can hold each Java job against C jobs
  # of the same placement and leave out jobs whose placement changed. A coldstart job's rep is
  # "rep.job" (job counts within the rep); overlap's jobs keep the rep alone and are not read.
  place_cold() {   # impl np rep.job before|after
    [ -x "$cpu_pair" ] || return 0
    echo "impl=$1 np=$2 rep=$3 PLACE $4 $(pair_ns)" >> "$out/raw.txt"
  }
  cold_job() {   # impl np command...: one job, its result lines tagged
    local impl=$1 np=$2 id=$rep
    shift 2
    if [ "$mode" = coldstart ]; then
      job=$((job + 1)); id="$rep.$job"
      place_cold "$impl" "$np" "$id" before
    fi
    "$@" | tagged "$impl" "$np" "$id"
    if [ "$mode" = coldstart ]; then place_cold "$impl" "$np" "$id" after; fi
  }
  c_pingpong=("${mpirun_[@]}" -np 2 "$twin" lat "$rounds" "$per")
  for rep in $(seq 1 "$reps"); do
    job=0
    if [ "$mode" = coldstart ]; then
      echo "== rep $rep: ping-pong np=2" >&2
      cold_job c 2 "${c_pingpong[@]}"
      for kind in array direct; do
        for warm in $warms; do
          cold_job "fabric${suffix[$warm]}" 2 env MPI4J_WARMUP="$warm" launch/mpi4jrun -np 2 "${cold_opts[@]}" \
            io.github.mpi4j.bench.ColdStart lat "$kind" "$rounds" "$per"
          cold_job c 2 "${c_pingpong[@]}"
          cold_job "mpi${suffix[$warm]}" 2 env MPI4J_WARMUP="$warm" "${mpirun_[@]}" -x MPI4J_WARMUP -np 2 java \
            "${cold_opts[@]}" io.github.mpi4j.bench.ColdStart lat "$kind" "$rounds" "$per"
          cold_job c 2 "${c_pingpong[@]}"
        done
      done
    fi
    for np in $nps; do
      echo "== rep $rep: $mode np=$np" >&2
      if [ "$mode" = coldstart ]; then
        cold_job c "$np" "${mpirun_[@]}" -np "$np" "$twin" allreduce "$calls" "$bytes"
        main=io.github.mpi4j.bench.ColdStart
      else
        main=io.github.mpi4j.bench.Overlap
      fi
      for compute in $computes; do
        if [ "$mode" = overlap ]; then cold_job c "$np" "${mpirun_[@]}" -np "$np" "$twin" "$sizes" "$iters" "$compute"; fi
        for kind in array direct; do
          if [ "$mode" = coldstart ]; then args=(allreduce "$kind" "$calls" "$bytes")
          else args=("$kind" "$sizes" "$iters" "$compute"); fi
          for warm in $warms; do
            cold_job "fabric${suffix[$warm]}" "$np" env MPI4J_WARMUP="$warm" launch/mpi4jrun -np "$np" \
              "${cold_opts[@]}" "$main" "${args[@]}"
            cold_job "mpi${suffix[$warm]}" "$np" env MPI4J_WARMUP="$warm" "${mpirun_[@]}" -x MPI4J_WARMUP -np "$np" \
              java "${cold_opts[@]}" "$main" "${args[@]}"
          done
          # overlap: the MPI backend once more with its asynchronous progress (docs/collectives.md)
          if [ "$mode" = overlap ]; then
            cold_job mpi-async "$np" env MPI4J_ASYNC_PROGRESS=1 "${mpirun_[@]}" -x MPI4J_ASYNC_PROGRESS -np "$np" java \
              "${cold_opts[@]}" "$main" "${args[@]}"
          fi
        done
      done
    done
  done
  echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"
  cat "$out/machine.txt"
  if [ "$mode" = coldstart ]; then
    java -cp "$jar" io.github.mpi4j.bench.ColdStartReport "$out/raw.txt" "$out" "$(nproc)" | tee "$out/table.md"
  else
    java -cp "$jar" io.github.mpi4j.bench.OverlapReport "$out/raw.txt" "$out" | tee "$out/table.md"
  fi
  exit 0
fi

if [ "$mode" = nccl ]; then
  [ -f "$jar" ] || { echo "build first: mvn -B -DskipTests package"; exit 1; }
  np=${NP:-$( (nvidia-smi -L 2>/dev/null || true) | wc -l)}
  [ "$np" -ge 1 ] 2>/dev/null || { echo "no GPU found (nvidia-smi -L): set NP"; exit 1; }
  read -r -a launch <<< "${LAUNCH:-launch/mpi4jrun}"
  read -r -a bench_args <<< "${ARGS:--b 8 -e 256M -f 2}"
  mkdir -p "$out"
  { echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"; echo "mode: $mode, np $np: ${launch[*]}, ${bench_args[*]}"
    nvidia-smi -L 2>/dev/null || true; java -cp "$jar" io.github.mpi4j.Mpi4j 2>&1 || true; } > "$out/machine.txt"
  java_cmd=()   # mpi4jrun takes the JVM options itself; an MPI launcher needs the java command
  [ "$(basename "${launch[0]}")" = mpi4jrun ] || java_cmd=(java)
  "${launch[@]}" -np "$np" "${java_cmd[@]}" "${jvm_opts[@]}" io.github.mpi4j.bench.NcclBench "${bench_args[@]}" \
    | tee "$out/table.txt"
  exit "${PIPESTATUS[0]}"
fi

[ -f "$jar" ] && [ -x "$osu_c" ] || { echo "build first (with Open MPI installed): mvn -B -DskipTests package"; exit 1; }
mkdir -p "$out"
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
mca=()
[ "$mode" = fabric-tcp ] && mca=(--mca btl tcp,self)

limit() {   # test -> max bytes
  if [ "$1" = bw ]; then echo "$bw_max"; else echo "$max"; fi
}
run_c() {   # np test
  mpirun -np "$1" --oversubscribe --bind-to none "${root[@]}" "${mca[@]}" "$osu_c" "$2" "$(limit "$2")"
}
# The steady-state tests touch the heap at start-up (-XX:+AlwaysPreTouch), as the C twin has
# written its buffers before it times them: a fresh heap page costs a page fault the
# first time it is written (microseconds in a VM), and a call that makes a few hundred bytes of
# objects met one every few calls, for the whole run (docs/performance.md, "Ninth session").
# The init test starts without it: the pre-touch would be part of what it measures.
run_java() {   # np test kind [size: that size alone]
  local opts=("${jvm_opts[@]}")
  [ "$2" = init ] || opts=(-XX:+AlwaysPreTouch "${jvm_opts[@]}")
  case "$mode" in
    mpi) mpirun -np "$1" --oversubscribe --bind-to none "${root[@]}" java "${opts[@]}" \
           io.github.mpi4j.bench.Osu "$2" "$3" "$(limit "$2")" ;;
    fabric) launch/mpi4jrun -np "$1" "${opts[@]}" io.github.mpi4j.bench.Osu "$2" "$3" "$(limit "$2")" ;;
    fabric-tcp) launch/mpi4jrun -np "$1" --tcp "${opts[@]}" io.github.mpi4j.bench.Osu "$2" "$3" "${4:-$(limit "$2")}" ${4:+"$4"} ;;
  esac
}
record() {   # np rep
  grep '^RESULT' | sed "s/^/np=$1 rep=$2 /" >> "$out/raw.txt"
}
# Which vCPUs the ranks share this moment: a cache line's one-way time between two threads
# (bench/cpu_pair.c). On a shared cloud guest it flips between about 50 ns (one L3) and 220 ns
# (two core complexes) within seconds, and every size's time flips with it, C's as much as
# Java's (2-2.6x at 8 bytes). Read before every job and kept with its results, so that Report
# can compare jobs that ran in the same placement.
placement() {   # np rep test kind [size when: tcp-pairs reads each job's size before and after it]
  [ -x "$cpu_pair" ] || return 0
  local ns when=${6:-before}
  ns=$(pair_ns)
  echo "cpu pair $when $3 $4 ${5:+$5 }np=$1 rep $2: $ns ns" >> "$out/machine.txt"
  if [ "$when" = before ]; then echo "np=$1 rep=$2 RESULT pairline_$3 $4 ${5:-0} $ns" >> "$out/raw.txt"
  else echo "np=$1 rep=$2 RESULT pairafter_$3 $4 ${5:-0} $ns" >> "$out/raw.txt"; fi
}

{ echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"; echo "mode: $mode ($tests, REPS=$reps)"; echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
  echo "cores: $(nproc)"; echo "java: $(java -version 2>&1 | head -1)"; echo "mpi: $(mpirun --version 2>&1 | head -1)"
  echo "pages: $pages (Java and C)"
  echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"; } > "$out/machine.txt"

if [ "$pairs" = 1 ]; then
  # Round r of size s: the three jobs back to back, each with a placement reading before and
  # after it, all recorded as repetition r so that Report pairs them (and can keep the rounds
  # whose jobs all stayed in one placement). The order turns each round, so no kind
  # always runs first or right after the raw job.
  orders=("raw array direct" "array direct raw" "direct raw array")
  min=${MIN:-65536}
  for rep in $(seq 1 "$reps"); do
    for ((size = min; size <= bw_max; size *= 2)); do
      echo "== round $rep: bw $size" >&2
      for kind in ${orders[$(( (rep - 1) % 3 ))]}; do
        placement 2 "$rep" bw "$kind" "$size" before
        if [ "$kind" = raw ]; then "$tcp_raw" "$size" "$size" | record 2 "$rep"
        else run_java 2 bw "$kind" "$size" | record 2 "$rep"; fi
        placement 2 "$rep" bw "$kind" "$size" after
      done
    done
  done
  echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"
  cat "$out/machine.txt"
  java -cp "$jar" io.github.mpi4j.bench.Report "$out/raw.txt" tcp-pairs | tee "$out/table.md"
  exit 0
fi
for rep in $(seq 1 "$reps"); do
  for test in $tests; do
    for np in $nps; do
      if [ "$test" = latency ] || [ "$test" = bw ]; then [ "$np" = 2 ] || continue; fi
      echo "== rep $rep: $test np=$np" >&2
      placement "$np" "$rep" "$test" c
      run_c "$np" "$test" | record "$np" "$rep"
      if [ "$run_name" = small ]; then placement "$np" "$rep" "$test" c "" after; fi
      for kind in array direct; do
        placement "$np" "$rep" "$test" "$kind"
        run_java "$np" "$test" "$kind" | record "$np" "$rep"
        if [ "$run_name" = small ]; then placement "$np" "$rep" "$test" "$kind" "" after; fi
      done
    done
  done
  if [ "$mode" = fabric-tcp ]; then
    "$tcp_raw" "$bw_max" | record 2 "$rep"
  fi
  if [ "$mode" != mpi ] && [ "$time_init" = 1 ]; then
    run_java 4 init array | record 4 "$rep"
  fi
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"
cat "$out/machine.txt"
java -cp "$jar" io.github.mpi4j.bench.Report "$out/raw.txt" "$mode" | tee "$out/table.md"
java -cp "$jar" io.github.mpi4j.bench.OsuCharts "$out/raw.txt" "$out" "$mode"
