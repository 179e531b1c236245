// The kernel driver_api.cpp loads as a cubin (validate/capture/gpu_smoke.sh
// builds it with nvcc -cubin): dynamic shared memory, stride-2 words (2-way).
extern "C" __global__ void driver_stride2(int* out) {
  extern __shared__ int s[];
  const int t = threadIdx.x;
  s[2 * t] = t;       // STS: 8*l, 2-way
  __syncwarp();
  out[t] = s[2 * t];  // LDS: 8*l
}
