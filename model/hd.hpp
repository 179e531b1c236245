#pragma once
// One macro marks every function an algorithm header shares between the
// host recorder and the CUDA kernel (moderngpu's MGPU_HOST_DEVICE idea):
// under nvcc it is __host__ __device__, elsewhere it is empty.
//
// BANKCHECK_HD_INLINE is for non-template functions defined at namespace
// scope in a header: without `inline` every translation unit that includes
// the header would define the function again (one-definition rule), which a
// template or an in-class member definition never does.
//
// A project that already defines either macro (a consumer compiling the
// headers with its own host/device markers) keeps its definition.
#ifndef BANKCHECK_HD
#if defined(__CUDACC__)
#define BANKCHECK_HD __host__ __device__
#else
#define BANKCHECK_HD
#endif
#endif

#ifndef BANKCHECK_HD_INLINE
#define BANKCHECK_HD_INLINE BANKCHECK_HD inline
#endif
