#pragma once
// One macro marks every function an algorithm header shares between the
// host recorder and the CUDA kernel (moderngpu's MGPU_HOST_DEVICE idea):
// under nvcc it is __host__ __device__, elsewhere it is empty.
#if defined(__CUDACC__)
#define BANKCHECK_HD __host__ __device__
#else
#define BANKCHECK_HD
#endif
