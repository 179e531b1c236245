// The GPU half of the semantic fuzzer of the costs (docs/fuzzing.md): the
// sm90 rules as nvcc compiles them for the capture patch (sm90::warp_cost in
// capture/device/patches.cu, with 32-bit shared offsets) must cost every
// request as the CPU does (BankModel::cost, SIMD shortcut included). The
// requests are the CPU fuzzer's (sim/inputs/random_requests.hpp), costed on
// the GPU one per thread, with 32- and 64-bit addresses, under both counters.
//
//   kernel.cost_fuzz --mode check [--requests N] [--seed S]
// exits 0 when every cost is equal, 1 naming the first request that is not
// (as a text-trace line), 77 without a GPU (ctest reports it Skipped).
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "model/bank_model.hpp"
#include "model/sm90_warp_cost.hpp"
#include "sim/inputs/random_requests.hpp"

namespace {

using namespace bankcheck;

struct DeviceRequest {
  std::uint32_t op, width, mask, has_source;
  std::uint64_t addr[32];
  std::uint64_t source[32];
};

struct DeviceCost {
  std::uint32_t wavefronts, ideal, degree, modelled;
};

/// Request i's cost under both counters, with 32-bit offsets (as the capture
/// patch has them) at out[4 i], out[4 i + 1] and 64-bit addresses at out[4 i + 2], out[4 i + 3].
__global__ void cost_requests(const DeviceRequest* requests, std::size_t n, DeviceCost* out) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const DeviceRequest& r = requests[i];
  std::uint32_t offsets[32];
  for (unsigned l = 0; l < 32; ++l) offsets[l] = static_cast<std::uint32_t>(r.addr[l]);
  const std::uint64_t* source = r.has_source ? r.source : nullptr;
  const Op op = static_cast<Op>(r.op);
  for (unsigned k = 0; k < 2; ++k) {
    const Counter counter = k == 0 ? Counter::instruction : Counter::kernel;
    const sm90::WarpCost a = sm90::warp_cost(op, r.width, offsets, r.mask, counter, source);
    const sm90::WarpCost b = sm90::warp_cost(op, r.width, r.addr, r.mask, counter, source);
    out[4 * i + k] = {a.wavefronts, a.ideal, a.degree, a.modelled};
    out[4 * i + k + 2] = {b.wavefronts, b.ideal, b.degree, b.modelled};
  }
}

void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

std::string text(const DeviceCost& c) {
  return c.modelled ? std::to_string(c.wavefronts) + "/" + std::to_string(c.ideal) + "/" + std::to_string(c.degree)
                    : "not modelled";
}

/// The fuzzed requests as the kernel reads them: 32-bit offsets of the active lanes.
std::vector<DeviceRequest> device_requests(const std::vector<inputs::FuzzRequest>& made) {
  std::vector<DeviceRequest> host(made.size());
  for (std::size_t i = 0; i < made.size(); ++i) {
    DeviceRequest& d = host[i];
    d.op = static_cast<std::uint32_t>(made[i].op);
    d.width = made[i].width;
    d.mask = made[i].mask();
    d.has_source = !made[i].source.empty();
    for (unsigned l = 0; l < 32; ++l) {
      const bool on = (d.mask >> l) & 1u;
      if (on && made[i].addr[l] > 0xFFFFFFFFull) throw std::logic_error("a fuzzed offset needs more than 32 bits");
      d.addr[l] = on ? made[i].addr[l] : 0;
      d.source[l] = on && d.has_source ? made[i].source[l] : 0;
    }
  }
  return host;
}

/// Four costs per request from the GPU: both counters, 32- and 64-bit addresses.
std::vector<DeviceCost> gpu_costs(const std::vector<DeviceRequest>& host) {
  const std::uint64_t requests = host.size();
  DeviceRequest* dev_requests = nullptr;
  DeviceCost* dev_costs = nullptr;
  check_cuda(cudaMalloc(&dev_requests, requests * sizeof(DeviceRequest)), "cudaMalloc");
  check_cuda(cudaMalloc(&dev_costs, 4 * requests * sizeof(DeviceCost)), "cudaMalloc");
  check_cuda(cudaMemcpy(dev_requests, host.data(), requests * sizeof(DeviceRequest), cudaMemcpyHostToDevice),
             "cudaMemcpy");
  const unsigned threads = 128;
  cost_requests<<<static_cast<unsigned>((requests + threads - 1) / threads), threads>>>(dev_requests, requests,
                                                                                      dev_costs);
  check_cuda(cudaGetLastError(), "launch");
  std::vector<DeviceCost> gpu(4 * requests);
  check_cuda(cudaMemcpy(gpu.data(), dev_costs, gpu.size() * sizeof(DeviceCost), cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudaFree(dev_requests);
  cudaFree(dev_costs);
  return gpu;
}

/// The GPU's costs against BankModel's: the modelled count, or -1 after printing the first difference.
std::int64_t compare_costs(const std::vector<inputs::FuzzRequest>& made, const std::vector<DeviceCost>& gpu,
                           std::uint64_t seed) {
  const BankModel model = make_preset("sm90");
  std::int64_t modelled = 0;
  for (std::size_t i = 0; i < made.size(); ++i) {
    const WarpRequest r = made[i].request();
    for (unsigned k = 0; k < 4; ++k) {
      DeviceCost cpu{0, 0, 0, 0};
      std::string threw;
      try {
        const RequestCost c = k % 2 == 0 ? model.cost(r) : model.kernel_counter_cost(r);
        cpu = {static_cast<std::uint32_t>(c.wavefronts), static_cast<std::uint32_t>(c.ideal), c.degree, c.modelled};
      } catch (const std::exception& e) {
        threw = e.what();
      }
      const DeviceCost& g = gpu[4 * i + k];
      if (threw.empty() && cpu.modelled == g.modelled && cpu.wavefronts == g.wavefronts && cpu.ideal == g.ideal &&
          cpu.degree == g.degree) {
        modelled += cpu.modelled;
        continue;
      }
      std::printf("request %zu of seed %llu (%s), %s counter, %s addresses: GPU %s, CPU %s\nwarp 32\n%s\n", i,
                  static_cast<unsigned long long>(seed), made[i].shape.c_str(), k % 2 == 0 ? "instruction" : "kernel",
                  k < 2 ? "32-bit" : "64-bit", text(g).c_str(), threw.empty() ? text(cpu).c_str() : threw.c_str(),
                  made[i].trace_line().c_str());
      return -1;
    }
  }
  return modelled;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"GPU half of the cost fuzzer: sm90::warp_cost on the GPU against BankModel on the CPU"};
  std::string mode = "check";
  std::uint64_t requests = 200000, seed = 29;
  app.add_option("--mode", mode, "check (the only mode)")->check(CLI::IsMember({"check"}));
  app.add_option("--requests", requests, "requests to cost");
  app.add_option("--seed", seed, "seed of the request generator");
  CLI11_PARSE(app, argc, argv);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("skipped: no GPU (kernel.cost_fuzz costs the requests on one)\n");
    return 77;
  }
  try {
    inputs::RandomRequests fuzzer(seed);
    std::vector<inputs::FuzzRequest> made(requests);
    for (auto& m : made) m = fuzzer.next();
    const std::int64_t modelled = compare_costs(made, gpu_costs(device_requests(made)), seed);
    if (modelled < 0) return 1;
    std::printf("%llu requests (seed %llu): the GPU's costs equal the CPU's under both counters, with 32- and "
                "64-bit addresses (%llu of %llu costs modelled)\n",
                static_cast<unsigned long long>(requests), static_cast<unsigned long long>(seed),
                static_cast<unsigned long long>(modelled), static_cast<unsigned long long>(4 * requests));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kernel.cost_fuzz: %s\n", e.what());
    return 2;
  }
  return 0;
}
