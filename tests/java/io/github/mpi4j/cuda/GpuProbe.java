package io.github.mpi4j.cuda;

/**
 * Run in a fresh JVM by the GPU loading tests (the CUDA/NCCL library choice is made once per
 * JVM): each argument is an action, and each prints one line, "action: ok ..." or
 * "action: ExceptionClass: message". Exit code 0 unless the JVM itself failed.
 */
public final class GpuProbe {
    private GpuProbe() {
    }

    public static void main(String[] args) {
        for (String a : args) {
            try {
                switch (a) {
                    case "allocate":
                        try (DeviceBuffer b = DeviceBuffer.allocate(64, 0)) {
                            System.out.println(a + ": ok " + b);
                        }
                        break;
                    case "setDevice":
                        Cuda.setDevice(0);
                        System.out.println(a + ": ok");
                        break;
                    case "deviceCount":
                        System.out.println(a + ": ok " + Cuda.deviceCount() + " (" + Cuda.unavailableReason() + ")");
                        break;
                    default:
                        System.out.println(a + ": unknown action");
                }
            } catch (RuntimeException e) {
                System.out.println(a + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
    }
}
