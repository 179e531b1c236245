// A driver-API program (cuModuleLoad + cuLaunchKernel with 256 bytes of
// dynamic shared memory) for validate/capture/gpu_smoke.sh:
// `driver_api KERNEL.cubin EXPECTED.trace`.
#include <cuda.h>

#include <cstdio>
#include <fstream>

namespace {
bool ok(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return true;
  const char* text = nullptr;
  cuGetErrorString(r, &text);
  std::fprintf(stderr, "%s: %s\n", what, text ? text : "?");
  return false;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction f;
  CUdeviceptr out;
  if (!ok(cuInit(0), "cuInit") || !ok(cuDeviceGet(&dev, 0), "cuDeviceGet") ||
      !ok(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain") || !ok(cuCtxSetCurrent(ctx), "cuCtxSetCurrent") ||
      !ok(cuModuleLoad(&mod, argv[1]), "cuModuleLoad") || !ok(cuModuleGetFunction(&f, mod, "driver_stride2"), "get") ||
      !ok(cuMemAlloc(&out, 4096), "cuMemAlloc"))
    return 1;
  void* params[] = {&out};
  if (!ok(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 256, nullptr, params, nullptr), "cuLaunchKernel") ||
      !ok(cuCtxSynchronize(), "cuCtxSynchronize"))
    return 1;
  std::ofstream e(argv[2]);
  e << "warp 32\nat launch=0 block=0,0,0 warp=0\nst 4";
  for (int l = 0; l < 32; ++l) e << " " << 8 * l;
  e << "\nld 4";
  for (int l = 0; l < 32; ++l) e << " " << 8 * l;
  e << "\n";
  return 0;
}
