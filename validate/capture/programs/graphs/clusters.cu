// Thread block clusters (cudaLaunchKernelEx with a cluster dimension): each
// block of a pair writes a tile of its shared memory, and after cluster.sync()
// reads its partner's tile through distributed shared memory (DSMEM, which
// the capture counts as untraced); a second kernel with clusters of 4 and no
// DSMEM. cudaOccupancyMaxActiveClusters is asked and printed. 2 kernel executions.
#include <cooperative_groups.h>

#include "graph_common.cuh"

namespace cg = cooperative_groups;

__global__ void pair_exchange(float* out, const float* in, int n) {
  __shared__ float s[kThreads * 32];
  cg::cluster_group cluster = cg::this_cluster();
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  s[t * 32] = i < n ? in[i] : 0.0f;  // 32-way conflicts
  cluster.sync();
  const float* other = cluster.map_shared_rank(s, cluster.block_rank() ^ 1);
  const float w = other[t * 32];
  cluster.sync();  // the partner's memory stays until every read of it is done
  if (i < n) out[i] = w * 0.5f + s[(t ^ 1) * 32];
}

__global__ void quad_mix(float* out, const float* in, int n) {
  __shared__ float s[kThreads * 33];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  s[t * 33] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = s[(t ^ 3) * 33] + static_cast<float>(cg::this_cluster().block_rank());
}

void launch(void (*kernel)(float*, const float*, int), unsigned cluster, float* out, const float* in, int n) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks_for(n));
  config.blockDim = dim3(kThreads);
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = cluster;
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  int clusters = 0;
  CHECK(cudaOccupancyMaxActiveClusters(&clusters, (void*)kernel, &config));
  std::printf("cluster %u: at most %d active clusters\n", cluster, clusters);
  CHECK(cudaLaunchKernelEx(&config, kernel, out, in, n));
}

int main(int argc, char** argv) {
  const char* result = result_path(argc, argv);
  const int n = 8192;
  float* in = device_input(n, 29.0f);
  float* a = device_buffer(n);
  float* b = device_buffer(n);
  launch(pair_exchange, 2, a, in, n);
  launch(quad_mix, 4, b, a, n);
  CHECK(cudaDeviceSynchronize());
  write_results(result, {{a, n}, {b, n}});
  expect_launches(2);
  return 0;
}
