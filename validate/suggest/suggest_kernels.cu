// Nine shared-memory tiles, each as written naively and with the layout
// `bankcheck layout --suggest` returns for its accesses
// (validate/suggest/predictions.txt holds each command and its output), and,
// built with -DHAVE_CAPMAPS, with the map `bankcheck suggest` printed for a
// capture of the naive kernel (capmaps.h, written by run_cases.sh).
//
//   suggest_kernels time|profile|capture [CASE ...]
//
// time: full size, median of 15 cudaEvent-timed launches per variant;
// profile: small size, one launch per variant (for Nsight Compute);
// capture: small size, the naive variant only (for bankcheck capture).
// Every variant's output is compared bitwise with the naive one's, and the
// naive one's with a CPU reference.
#include <cmath>
#include <cstring>
#include <string>

#include "suggest_kernels.cuh"

enum class Mode { time, profile, capture };
static Mode g_mode = Mode::time;
static bool big() { return g_mode == Mode::time; }

static const char* kVariant[] = {"naive", "suggested", "capture-map"};

// Launch every variant (v = 0 naive, 1 suggested, 2 capture-map), time it,
// check its output against the naive one's and the naive one's against cpu().
template <class Launch, class Clear, class Fetch, class Cpu>
void run_variants(const char* name, int id, Launch launch, Clear clear, Fetch fetch, Cpu cpu) {
  decltype(fetch()) ref;
  for (int v = 0; v < 3; ++v) {
    if (v == 2 && !kHasCap[id]) continue;
    if (v > 0 && g_mode == Mode::capture) break;
    clear();
    float ms = -1;
    if (g_mode == Mode::time) ms = median_ms([&] { launch(v); }, 15);
    else launch(v);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaGetLastError());
    auto out = fetch();
    if (v == 0) ref = out;
    double sum = 0;
    const std::size_t wrong = count_wrong(out, ref, &sum);
    const std::size_t cpu_wrong = v == 0 ? cpu(out) : 0;
    std::printf("case=%s variant=%s elements=%zu median_ms=%.4f wrong_vs_naive=%zu wrong_vs_cpu=%s checksum=%.1f\n", name,
                kVariant[v], out.size(), ms, wrong, v == 0 ? std::to_string(cpu_wrong).c_str() : "-", sum);
  }
}

template <class T>
T* device_copy(const std::vector<T>& h) {
  T* d = nullptr;
  CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <class T>
T* device_zero(std::size_t count) {
  T* d = nullptr;
  CHECK(cudaMalloc(&d, count * sizeof(T)));
  CHECK(cudaMemset(d, 0, count * sizeof(T)));
  return d;
}

static unsigned hash(std::size_t i) { return static_cast<unsigned>((i * 2654435761u) >> 7); }

// ldmatrix over a 64 x 64 fp16 tile; the CPU reference is the PTX ISA's
// fragment: register q of lane l holds matrix q's row l / 4, columns 2 (l % 4)
// and +1, or with .trans its column l / 4, rows 2 (l % 4) and +1.
template <int kId, bool kTrans, bool kAsync, class Naive, class Suggested>
void case_ldsm(const char* name) {
  const std::size_t tiles = big() ? 16384 : 4, count = tiles * 4096;
  std::vector<__half> h(count);
  for (std::size_t i = 0; i < count; ++i) h[i] = __float2half(static_cast<float>(hash(i) % 2048));
  __half* in = device_copy(h);
  uint4* out = device_zero<uint4>(tiles * 512);
  const auto* src = reinterpret_cast<const uint4*>(in);
  auto launch = [&](int v) {
    if (v == 0) ldsm_tile<Naive, kTrans, kAsync><<<tiles, 128>>>(src, out);
    if (v == 1) ldsm_tile<Suggested, kTrans, kAsync><<<tiles, 128>>>(src, out);
    if (v == 2) ldsm_tile<Then<Cap<kId, 2>, Naive>, kTrans, kAsync><<<tiles, 128>>>(src, out);
  };
  auto fetch = [&] { return to_host(reinterpret_cast<const unsigned*>(out), tiles * 2048); };
  auto cpu = [&](const std::vector<unsigned>& got) {
    std::size_t wrong = 0;
    for (std::size_t t = 0; t < tiles; ++t)
      for (int i = 0; i < 16; ++i)
        for (int l = 0; l < 32; ++l)
          for (int q = 0; q < 4; ++q) {
            const int m = 4 * i + q, r0 = m / 8 * 8, c0 = m % 8 * 8;
            unsigned short e[2];
            for (int k = 0; k < 2; ++k) {
              const int row = kTrans ? r0 + 2 * (l % 4) + k : r0 + l / 4;
              const int col = kTrans ? c0 + l / 4 : c0 + 2 * (l % 4) + k;
              std::memcpy(&e[k], &h[t * 4096 + row * 64 + col], 2);
            }
            const unsigned want = e[0] | (static_cast<unsigned>(e[1]) << 16);
            wrong += got[t * 2048 + (i * 32 + l) * 4 + q] != want;
          }
    return wrong;
  };
  run_variants(name, kId, launch, [&] { CHECK(cudaMemset(out, 0, tiles * 512 * sizeof(uint4))); }, fetch, cpu);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
}

void case_sgemm() {
  const int M = big() ? 2048 : 256, N = big() ? 2048 : 64, K = big() ? 256 : 16;
  std::vector<float> a(static_cast<size_t>(M) * K), b(static_cast<size_t>(K) * N);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(hash(i) % 17) - 8;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(hash(i + 7) % 13) - 6;
  float *A = device_copy(a), *B = device_copy(b), *C = device_zero<float>(static_cast<size_t>(M) * N);
  const dim3 grid(N / 32, M / 128);
  auto launch = [&](int v) {
    if (v == 0) sgemm<Plain><<<grid, 128>>>(A, B, C, M, N, K);
    if (v == 1) sgemm<Sw<3, 2, 5>><<<grid, 128>>>(A, B, C, M, N, K);
    if (v == 2) sgemm<Cap<2, 4>><<<grid, 128>>>(A, B, C, M, N, K);
  };
  auto cpu = [&](const std::vector<float>& got) {  // small integers: every sum is exact
    std::size_t wrong = 0;
    for (int m = 0; m < M; m += (big() ? 7 : 1))
      for (int n = 0; n < N; ++n) {
        double s = 0;
        for (int k = 0; k < K; ++k) s += static_cast<double>(a[static_cast<size_t>(m) * K + k]) * b[static_cast<size_t>(k) * N + n];
        wrong += got[static_cast<size_t>(m) * N + n] != static_cast<float>(s);
      }
    return wrong;
  };
  run_variants("sgemm", 2, launch, [&] { CHECK(cudaMemset(C, 0, sizeof(float) * M * N)); },
               [&] { return to_host(C, static_cast<size_t>(M) * N); }, cpu);
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  CHECK(cudaFree(C));
}

void case_row_scan() {
  const std::size_t tiles = big() ? 16384 : 4, count = tiles * 2048;
  std::vector<float> h(count);
  for (std::size_t i = 0; i < count; ++i) h[i] = static_cast<float>(hash(i) % 16);
  float *in = device_copy(h), *out = device_zero<float>(count);
  auto launch = [&](int v) {
    if (v == 0) row_scan<Plain><<<tiles, 32>>>(in, out);
    if (v == 1) row_scan<Sw<5, 0, 6>><<<tiles, 32>>>(in, out);
    if (v == 2) row_scan<Cap<3, 4>><<<tiles, 32>>>(in, out);
  };
  auto cpu = [&](const std::vector<float>& got) {
    std::size_t wrong = 0;
    for (std::size_t r = 0; r < tiles * 32; ++r) {
      float s = 0;
      for (std::size_t c = 0; c < 64; ++c) wrong += got[r * 64 + c] != (s += h[r * 64 + c]);
    }
    return wrong;
  };
  run_variants("row_scan", 3, launch, [&] { CHECK(cudaMemset(out, 0, count * 4)); }, [&] { return to_host(out, count); }, cpu);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
}

void case_softmax() {
  const std::size_t blocks = big() ? 8192 : 4, count = blocks * 4096;
  std::vector<float> h(count);
  for (std::size_t i = 0; i < count; ++i) h[i] = static_cast<float>(hash(i) % 1000) / 125.0f - 4.0f;
  float *in = device_copy(h), *out = device_zero<float>(count);
  const auto* src = reinterpret_cast<const float4*>(in);
  auto* dst = reinterpret_cast<float4*>(out);
  auto launch = [&](int v) {
    if (v == 0) softmax_rows<Plain><<<blocks, 128>>>(src, dst);
    if (v == 1) softmax_rows<Sw<3, 2, 5>><<<blocks, 128>>>(src, dst);
    if (v == 2) softmax_rows<Cap<4, 4>><<<blocks, 128>>>(src, dst);
  };
  auto cpu = [&](const std::vector<float>& got) {  // __expf: within 1e-5 relative
    std::size_t wrong = 0;
    for (std::size_t r = 0; r < blocks * 32; ++r) {
      double m = -1e30, s = 0;
      for (int c = 0; c < 128; ++c) m = std::max(m, static_cast<double>(h[r * 128 + c]));
      for (int c = 0; c < 128; ++c) s += std::exp(h[r * 128 + c] - m);
      for (int c = 0; c < 128; ++c) {
        const double want = std::exp(h[r * 128 + c] - m) / s;
        wrong += std::fabs(got[r * 128 + c] - want) > 1e-5 * want + 1e-9;
      }
    }
    return wrong;
  };
  run_variants("softmax", 4, launch, [&] { CHECK(cudaMemset(out, 0, count * 4)); }, [&] { return to_host(out, count); }, cpu);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
}

template <int kId, class T, class Suggested>
void case_transpose(const char* name) {
  const int n = big() ? 8192 : 128;
  const std::size_t count = static_cast<size_t>(n) * n;
  std::vector<T> h(count);
  for (std::size_t i = 0; i < count; ++i) {
    const unsigned short v = static_cast<unsigned short>(hash(i) % 2048);
    if constexpr (sizeof(T) == 2) h[i] = __float2half(static_cast<float>(v));
    else h[i] = static_cast<T>(v & 0xff);
  }
  T *in = device_copy(h), *out = device_zero<T>(count);
  const dim3 grid(n / 64, n / 64);
  auto launch = [&](int v) {
    if (v == 0) transpose64<Plain, T><<<grid, 256>>>(in, out, n);
    if (v == 1) transpose64<Suggested, T><<<grid, 256>>>(in, out, n);
    if (v == 2) transpose64<Cap<kId, sizeof(T)>, T><<<grid, 256>>>(in, out, n);
  };
  auto cpu = [&](const std::vector<T>& got) {
    std::size_t wrong = 0;
    for (std::size_t r = 0; r < static_cast<size_t>(n); ++r)
      for (std::size_t c = 0; c < static_cast<size_t>(n); ++c)
        wrong += std::memcmp(&got[c * n + r], &h[r * n + c], sizeof(T)) != 0;
    return wrong;
  };
  run_variants(name, kId, launch, [&] { CHECK(cudaMemset(out, 0, count * sizeof(T))); }, [&] { return to_host(out, count); },
               cpu);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
}

void case_matvec() {
  const int M = big() ? 16384 : 128, N = big() ? 2048 : 128;
  std::vector<float> a(static_cast<size_t>(M) * N), x(N);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(hash(i) % 9) - 4;
  for (int i = 0; i < N; ++i) x[i] = static_cast<float>(hash(i + 3) % 5) - 2;
  float *A = device_copy(a), *X = device_copy(x), *Y = device_zero<float>(M);
  const auto* a2 = reinterpret_cast<const float2*>(A);
  auto launch = [&](int v) {
    if (v == 0) matvec<Plain><<<M / 32, 128>>>(a2, X, Y, N);
    if (v == 1) matvec<Sw<4, 1, 5>><<<M / 32, 128>>>(a2, X, Y, N);
    if (v == 2) matvec<Cap<6, 4>><<<M / 32, 128>>>(a2, X, Y, N);
  };
  auto cpu = [&](const std::vector<float>& got) {  // small integers: exact
    std::size_t wrong = 0;
    for (int m = 0; m < M; ++m) {
      double s = 0;
      for (int k = 0; k < N; ++k) s += static_cast<double>(a[static_cast<size_t>(m) * N + k]) * x[k];
      wrong += got[m] != static_cast<float>(s);
    }
    return wrong;
  };
  run_variants("matvec", 6, launch, [&] { CHECK(cudaMemset(Y, 0, M * 4)); }, [&] { return to_host(Y, M); }, cpu);
  CHECK(cudaFree(A));
  CHECK(cudaFree(X));
  CHECK(cudaFree(Y));
}

void case_stmatrix() {
  const std::size_t tiles = big() ? 16384 : 4;
  uint4* out = device_zero<uint4>(tiles * 512);
  auto launch = [&](int v) {
    if (v == 0) stmatrix_epilogue<Plain><<<tiles, 128>>>(out);
    if (v == 1) stmatrix_epilogue<Sw<3, 3, 3>><<<tiles, 128>>>(out);
    if (v == 2) stmatrix_epilogue<Cap<7, 2>><<<tiles, 128>>>(out);
  };
  auto cpu = [&](const std::vector<__half>& got) {
    std::size_t wrong = 0;
    for (std::size_t t = 0; t < tiles; ++t)
      for (int r = 0; r < 64; ++r)
        for (int c = 0; c < 64; ++c) {
          const float want = static_cast<float>((r * 131 + c * 7 + static_cast<int>(t % 4096) * 3) % 1024);
          wrong += __half2float(got[t * 4096 + r * 64 + c]) != want;
        }
    return wrong;
  };
  run_variants("stmatrix", 7, launch, [&] { CHECK(cudaMemset(out, 0, tiles * 512 * sizeof(uint4))); },
               [&] { return to_host(reinterpret_cast<const __half*>(out), tiles * 4096); }, cpu);
  CHECK(cudaFree(out));
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "time";
  g_mode = mode == "profile" ? Mode::profile : mode == "capture" ? Mode::capture : Mode::time;
  if (mode != "time" && mode != "profile" && mode != "capture") {
    std::fprintf(stderr, "usage: %s time|profile|capture [CASE ...]\n", argv[0]);
    return 2;
  }
  auto want = [&](const char* name) {
    if (argc <= 2) return true;
    for (int i = 2; i < argc; ++i)
      if (std::string(argv[i]) == name) return true;
    return false;
  };
  if (want("ldsm_trans")) case_ldsm<0, true, false, Sw<3, 3, 4>, Sw<3, 3, 3>>("ldsm_trans");
  if (want("cpasync_ldsm")) case_ldsm<1, false, true, Plain, Sw<3, 3, 3>>("cpasync_ldsm");
  if (want("sgemm")) case_sgemm();
  if (want("row_scan")) case_row_scan();
  if (want("softmax")) case_softmax();
  if (want("transpose_fp16")) case_transpose<5, __half, Sw<5, 1, 5>>("transpose_fp16");
  if (want("matvec")) case_matvec();
  if (want("stmatrix")) case_stmatrix();
  if (want("transpose_int8")) case_transpose<8, signed char, Sw<4, 2, 5>>("transpose_int8");
  return 0;
}
