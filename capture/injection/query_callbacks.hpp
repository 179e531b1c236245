#pragma once
// The capture library's record of what the program asks the driver about its
// device and kernels (capture/host/launch/driver_queries.hpp, OUT/queries.csv):
// device attributes, function attributes and occupancy, from the driver and
// runtime API exit callbacks (the parameter structs of generated_cuda_meta.h
// and generated_cuda_runtime_api_meta.h; the answers are in the program's
// output pointers then). A runtime query is one row; a driver query the
// runtime made inside it would only name its kernel (a runtime query passes
// the host stub, which the library cannot name; on the H200 the runtime's
// queries raised no such driver callback, so their kernel stays unnamed).
// The answers are recorded as the program got them, never changed.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <sanitizer.h>

#include <cstdint>
#include <string>

#include "capture/host/launch/driver_queries.hpp"
#include "capture/injection/api_params.hpp"
#include "capture/injection/capture.hpp"

namespace {

using namespace bankcheck;
using namespace bankcheck::capture;

/// The driver and runtime calls recorded in queries.csv.
constexpr Sanitizer_CallbackId kDriverQueries[] = {
    SANITIZER_CBID_DRIVER_API_cuDeviceGetAttribute,
    SANITIZER_CBID_DRIVER_API_cuFuncGetAttribute,
    SANITIZER_CBID_DRIVER_API_cuOccupancyMaxActiveBlocksPerMultiprocessor,
    SANITIZER_CBID_DRIVER_API_cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags,
    SANITIZER_CBID_DRIVER_API_cuOccupancyMaxPotentialBlockSize,
    SANITIZER_CBID_DRIVER_API_cuOccupancyMaxPotentialBlockSizeWithFlags,
    SANITIZER_CBID_DRIVER_API_cuOccupancyAvailableDynamicSMemPerBlock,
    SANITIZER_CBID_DRIVER_API_cuOccupancyMaxPotentialClusterSize,
    SANITIZER_CBID_DRIVER_API_cuOccupancyMaxActiveClusters};
constexpr Sanitizer_CallbackId kRuntimeQueries[] = {
    SANITIZER_CBID_RUNTIME_API_cudaDeviceGetAttribute,
    SANITIZER_CBID_RUNTIME_API_cudaGetDeviceProperties,
    SANITIZER_CBID_RUNTIME_API_cudaFuncGetAttributes,
    SANITIZER_CBID_RUNTIME_API_cudaOccupancyMaxActiveBlocksPerMultiprocessor,
    SANITIZER_CBID_RUNTIME_API_cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags,
    SANITIZER_CBID_RUNTIME_API_cudaOccupancyAvailableDynamicSMemPerBlock,
    SANITIZER_CBID_RUNTIME_API_cudaOccupancyMaxPotentialClusterSize,
    SANITIZER_CBID_RUNTIME_API_cudaOccupancyMaxActiveClusters};

template <std::size_t N>
bool listed(const Sanitizer_CallbackId (&ids)[N], Sanitizer_CallbackId id) {
  for (Sanitizer_CallbackId i : ids)
    if (i == id) return true;
  return false;
}

/// The mangled name of a CUfunction (cuFuncGetName, driver 12.3 and later), or empty.
std::string function_name(CUfunction f) {
  using GetName = CUresult (*)(const char**, CUfunction);
  static const GetName get = [] {
    void* driver = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    return driver ? reinterpret_cast<GetName>(::dlsym(driver, "cuFuncGetName")) : nullptr;
  }();
  const char* name = nullptr;
  if (f == nullptr || get == nullptr || get(&name, f) != CUDA_SUCCESS || name == nullptr) return "";
  return name;
}

template <typename T>
std::string value_at(const T* p) {
  return p != nullptr ? std::to_string(*p) : "not returned";
}

std::string dims(unsigned x, unsigned y, unsigned z) {
  return std::to_string(x) + "x" + std::to_string(y) + "x" + std::to_string(z);
}

std::string config_text(const CUlaunchConfig* c) {
  if (c == nullptr) return "no config";
  std::string text = "grid " + dims(c->gridDimX, c->gridDimY, c->gridDimZ) + " block " +
                     dims(c->blockDimX, c->blockDimY, c->blockDimZ) + " smem " + std::to_string(c->sharedMemBytes);
  for (unsigned i = 0; c->attrs != nullptr && i < c->numAttrs; ++i)
    if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      text += " cluster " + dims(c->attrs[i].value.clusterDim.x, c->attrs[i].value.clusterDim.y, c->attrs[i].value.clusterDim.z);
  return text;
}

std::string config_text(const cudaLaunchConfig_t* c) {
  if (c == nullptr) return "no config";
  std::string text = "grid " + dims(c->gridDim.x, c->gridDim.y, c->gridDim.z) + " block " +
                     dims(c->blockDim.x, c->blockDim.y, c->blockDim.z) + " smem " + std::to_string(c->dynamicSmemBytes);
  for (unsigned i = 0; c->attrs != nullptr && i < c->numAttrs; ++i)
    if (c->attrs[i].id == cudaLaunchAttributeClusterDimension)
      text += " cluster " + dims(c->attrs[i].val.clusterDim.x, c->attrs[i].val.clusterDim.y, c->attrs[i].val.clusterDim.z);
  return text;
}

/// Arguments and answer of a driver query at its exit; the CUfunction it asked about in `f`.
void read_driver_query(Sanitizer_CallbackId cbid, const void* params, DriverQuery& q, CUfunction& f) {
  switch (cbid) {
    case SANITIZER_CBID_DRIVER_API_cuDeviceGetAttribute: {
      const auto* p = static_cast<const cuDeviceGetAttribute_params*>(params);
      q.arguments = "attribute " + std::to_string(p->attrib) + " device " + std::to_string(p->dev);
      q.answer = value_at(p->pi);
      break;
    }
    case SANITIZER_CBID_DRIVER_API_cuFuncGetAttribute: {
      const auto* p = static_cast<const cuFuncGetAttribute_params*>(params);
      f = p->hfunc;
      q.arguments = "attribute " + std::to_string(p->attrib);
      q.answer = value_at(p->pi);
      break;
    }
    case SANITIZER_CBID_DRIVER_API_cuOccupancyMaxActiveBlocksPerMultiprocessor:
    case SANITIZER_CBID_DRIVER_API_cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags: {
      // The WithFlags struct begins as the other one does.
      const auto* p = static_cast<const cuOccupancyMaxActiveBlocksPerMultiprocessor_params*>(params);
      f = p->func;
      q.arguments = "block " + std::to_string(p->blockSize) + " smem " + std::to_string(p->dynamicSMemSize);
      q.answer = value_at(p->numBlocks);
      break;
    }
    case SANITIZER_CBID_DRIVER_API_cuOccupancyMaxPotentialBlockSize:
    case SANITIZER_CBID_DRIVER_API_cuOccupancyMaxPotentialBlockSizeWithFlags: {
      const auto* p = static_cast<const cuOccupancyMaxPotentialBlockSize_params*>(params);
      f = p->func;
      q.arguments = "smem " + std::to_string(p->dynamicSMemSize) + " block limit " + std::to_string(p->blockSizeLimit);
      q.answer = "grid " + value_at(p->minGridSize) + " block " + value_at(p->blockSize);
      break;
    }
    case SANITIZER_CBID_DRIVER_API_cuOccupancyAvailableDynamicSMemPerBlock: {
      const auto* p = static_cast<const cuOccupancyAvailableDynamicSMemPerBlock_params*>(params);
      f = p->func;
      q.arguments = "blocks " + std::to_string(p->numBlocks) + " block " + std::to_string(p->blockSize);
      q.answer = value_at(p->dynamicSmemSize);
      break;
    }
    case SANITIZER_CBID_DRIVER_API_cuOccupancyMaxPotentialClusterSize:
    case SANITIZER_CBID_DRIVER_API_cuOccupancyMaxActiveClusters: {
      const auto* p = static_cast<const cuOccupancyMaxActiveClusters_params*>(params);
      f = p->func;
      q.arguments = config_text(p->config);
      q.answer = value_at(p->numClusters);
      break;
    }
    default: break;
  }
}

/// Arguments and answer of a runtime query at its exit.
void read_runtime_query(Sanitizer_CallbackId cbid, const void* params, DriverQuery& q) {
  switch (cbid) {
    case SANITIZER_CBID_RUNTIME_API_cudaDeviceGetAttribute: {
      const auto* p = static_cast<const cudaDeviceGetAttribute_v5000_params*>(params);
      q.arguments = "attribute " + std::to_string(p->attr) + " device " + std::to_string(p->device);
      q.answer = value_at(p->value);
      break;
    }
    case SANITIZER_CBID_RUNTIME_API_cudaGetDeviceProperties: {
      const auto* p = static_cast<const cudaGetDeviceProperties_v12000_params*>(params);
      q.arguments = "device " + std::to_string(p->device);
      q.answer = "not read (cudaDeviceProp's layout depends on the runtime's version)";
      break;
    }
    case SANITIZER_CBID_RUNTIME_API_cudaFuncGetAttributes: {
      const auto* p = static_cast<const cudaFuncGetAttributes_v3020_params*>(params);
      if (p->attr == nullptr) break;
      q.answer = "numRegs=" + std::to_string(p->attr->numRegs) + " maxThreadsPerBlock=" +
                 std::to_string(p->attr->maxThreadsPerBlock) + " localSizeBytes=" + std::to_string(p->attr->localSizeBytes) +
                 " sharedSizeBytes=" + std::to_string(p->attr->sharedSizeBytes);
      break;
    }
    case SANITIZER_CBID_RUNTIME_API_cudaOccupancyMaxActiveBlocksPerMultiprocessor:
    case SANITIZER_CBID_RUNTIME_API_cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags: {
      const auto* p = static_cast<const cudaOccupancyMaxActiveBlocksPerMultiprocessor_v6050_params*>(params);
      q.arguments = "block " + std::to_string(p->blockSize) + " smem " + std::to_string(p->dynamicSMemSize);
      q.answer = value_at(p->numBlocks);
      break;
    }
    case SANITIZER_CBID_RUNTIME_API_cudaOccupancyAvailableDynamicSMemPerBlock: {
      const auto* p = static_cast<const cudaOccupancyAvailableDynamicSMemPerBlock_v10200_params*>(params);
      q.arguments = "blocks " + std::to_string(p->numBlocks) + " block " + std::to_string(p->blockSize);
      q.answer = value_at(p->dynamicSmemSize);
      break;
    }
    case SANITIZER_CBID_RUNTIME_API_cudaOccupancyMaxPotentialClusterSize:
    case SANITIZER_CBID_RUNTIME_API_cudaOccupancyMaxActiveClusters: {
      const auto* p = static_cast<const cudaOccupancyMaxActiveClusters_v11070_params*>(params);
      q.arguments = config_text(p->launchConfig);
      q.answer = value_at(p->numClusters);
      break;
    }
    default: break;
  }
}

bool Capture::is_query(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid) {
  return domain == SANITIZER_CB_DOMAIN_DRIVER_API ? listed(kDriverQueries, cbid) : listed(kRuntimeQueries, cbid);
}

void Capture::enable_query_callbacks(Sanitizer_SubscriberHandle handle) {
  for (Sanitizer_CallbackId id : kDriverQueries) sanitizerEnableCallback(1, handle, SANITIZER_CB_DOMAIN_DRIVER_API, id);
  for (Sanitizer_CallbackId id : kRuntimeQueries) sanitizerEnableCallback(1, handle, SANITIZER_CB_DOMAIN_RUNTIME_API, id);
}

void Capture::on_query(Sanitizer_CallbackDomain domain, const Sanitizer_CallbackData& call, Sanitizer_CallbackId cbid) {
  if (child_ || call.functionParams == nullptr) return;
  const bool runtime = domain == SANITIZER_CB_DOMAIN_RUNTIME_API;
  if (call.callbackSite == SANITIZER_API_ENTER) {
    if (runtime && ++runtime_query_.depth == 1) runtime_query_.function.clear();
    return;
  }
  DriverQuery q;
  q.api = runtime ? "runtime" : "driver";
  q.call = call.functionName != nullptr ? call.functionName : "?";
  CUfunction f = nullptr;
  if (runtime) {
    if (runtime_query_.depth > 0 && --runtime_query_.depth > 0) return;  // nested: the outer call is the row
    read_runtime_query(cbid, call.functionParams, q);
    q.function = runtime_query_.function;
  } else {
    read_driver_query(cbid, call.functionParams, q, f);
    q.function = function_name(f);
    if (runtime_query_.depth > 0) {  // made by the runtime inside the program's runtime query: it names the kernel
      if (runtime_query_.function.empty()) runtime_query_.function = q.function;
      return;
    }
  }
  const auto* result = static_cast<const int*>(call.functionReturnValue);
  if (result != nullptr && *result != 0) q.answer = "error " + std::to_string(*result);
  q.may_differ = answer_depends_on_kernel(q.call);
  q.id = query_rows_.size();
  if (!queries_) return;
  queries_ << driver_query_line(q) << std::flush;
  query_rows_.push_back(std::move(q));
}

}  // namespace
