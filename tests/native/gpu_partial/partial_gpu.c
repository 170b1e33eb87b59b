/* Test-only stand-ins for a CUDA runtime and an NCCL that are not what mpi4j needs (never
 * shipped). Built two ways:
 *   PARTIAL_CUDART: a "CUDA runtime" 13.0 with one device that has only the version, count and
 *                   error-string functions; every other call must throw, naming the function.
 *   OLD_NCCL:       an "NCCL" 2.17.3, older than the 2.18 mpi4j needs.
 * The signatures are the real libraries' (ints for their enums). */
#ifdef PARTIAL_CUDART
int cudaRuntimeGetVersion(int *v) { *v = 13000; return 0; }
int cudaDriverGetVersion(int *v) { *v = 13000; return 0; }
int cudaGetDeviceCount(int *n) { *n = 1; return 0; }
const char *cudaGetErrorName(int code) { return code == 0 ? "cudaSuccess" : "cudaErrorPartial"; }
const char *cudaGetErrorString(int code) { return code == 0 ? "no error" : "partial runtime"; }
#endif

#ifdef OLD_NCCL
int ncclGetVersion(int *v) { *v = 21703; return 0; }
const char *ncclGetErrorString(int code) { return code == 0 ? "no error" : "old nccl"; }
#endif
