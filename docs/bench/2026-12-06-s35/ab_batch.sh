#!/bin/bash
# A/B of the progress thread's batch policy with the Overlap benchmark, alternating
cd /work/main
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 MPI4J_WARMUP=0
np=${NP:-2}; pairs=${PAIRS:-6}; computes=${COMPUTES:-idle}
for p in $(seq 1 $pairs); do
  for compute in $computes; do
    for kind in array direct; do
      for b in true false; do
        launch/mpi4jrun -np $np -Xbatch -Xms256m -Xmn64m -Xmx2g -XX:MaxDirectMemorySize=2g -XX:+UseParallelGC -Dmpi4j.progress.batch=$b -cp target/mpi4j.jar io.github.mpi4j.bench.Overlap $kind ${SIZES:-1048576,16777216} 20 $compute | grep OVERLAP | sed "s/^/pair=$p np=$np batch=$b /"
      done
    done
  done
done
