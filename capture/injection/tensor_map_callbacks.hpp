#pragma once
// The capture library's tensor maps: each successful
// cuTensorMapEncodeTiled / Im2col / Im2colWide call becomes a row of
// OUT/tensor_maps.csv, and its 128 bytes are kept; each launch's parameter
// bytes are searched for them (OUT/launch_tensor_maps.csv). TMA copies reach
// none of the sanitizer's instruction callbacks, so this is what the capture
// can say of them (docs/capture.md).
//
// The parameter bytes: the launch API's parameters (cuLaunchKernel's
// kernelParams or extra buffer, the runtime's args), seen on API entry,
// laid out by cuFuncGetParamInfo on the CUfunction of the launch callback
// that follows within the call. A launch whose parameters are out of reach
// (a graph's kernel node, a driver without cuFuncGetParamInfo) is counted,
// never guessed.
#include <cuda.h>
#include <dlfcn.h>
#include <sanitizer.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "capture/host/tensor_maps/tensor_maps.hpp"
#include "capture/injection/api_params.hpp"
#include "capture/injection/capture.hpp"

namespace {

using namespace bankcheck;
using namespace bankcheck::capture;

// The encode calls' parameter structs. The sanitizer's generated_cuda_meta.h
// (13.0) has their callback ids but not their structs; the toolkit's
// generated_cuda_meta.h has them: the arguments in declaration order, as
// every struct of that header (cuda.h's prototypes).
struct TensorMapEncodeTiledParams {
  CUtensorMap* tensorMap;
  CUtensorMapDataType tensorDataType;
  cuuint32_t tensorRank;
  void* globalAddress;
  const cuuint64_t* globalDim;
  const cuuint64_t* globalStrides;
  const cuuint32_t* boxDim;
  const cuuint32_t* elementStrides;
  CUtensorMapInterleave interleave;
  CUtensorMapSwizzle swizzle;
  CUtensorMapL2promotion l2Promotion;
  CUtensorMapFloatOOBfill oobFill;
};
struct TensorMapEncodeIm2colParams {
  CUtensorMap* tensorMap;
  CUtensorMapDataType tensorDataType;
  cuuint32_t tensorRank;
  void* globalAddress;
  const cuuint64_t* globalDim;
  const cuuint64_t* globalStrides;
  const int* pixelBoxLowerCorner;
  const int* pixelBoxUpperCorner;
  cuuint32_t channelsPerPixel;
  cuuint32_t pixelsPerColumn;
  const cuuint32_t* elementStrides;
  CUtensorMapInterleave interleave;
  CUtensorMapSwizzle swizzle;
  CUtensorMapL2promotion l2Promotion;
  CUtensorMapFloatOOBfill oobFill;
};
struct TensorMapEncodeIm2colWideParams {
  CUtensorMap* tensorMap;
  CUtensorMapDataType tensorDataType;
  cuuint32_t tensorRank;
  void* globalAddress;
  const cuuint64_t* globalDim;
  const cuuint64_t* globalStrides;
  int pixelBoxLowerCornerWidth;
  int pixelBoxUpperCornerWidth;
  cuuint32_t channelsPerPixel;
  cuuint32_t pixelsPerColumn;
  const cuuint32_t* elementStrides;
  CUtensorMapInterleave interleave;
  CUtensorMapIm2ColWideMode mode;
  CUtensorMapSwizzle swizzle;
  CUtensorMapL2promotion l2Promotion;
  CUtensorMapFloatOOBfill oobFill;
};
// CUDA 13's `<<<>>>` launches through __cudaLaunchKernel (crt/device_functions.h), whose callback id the
// sanitizer has but whose struct neither meta header has: its prototype is cudaLaunchKernel's with a
// cudaKernel_t for the function pointer, so its arguments lie as cudaLaunchKernel_v7000_params's.
struct CudartLaunchKernelParams {
  const void* kernel;
  dim3 gridDim;
  dim3 blockDim;
  void** args;
  size_t sharedMem;
  cudaStream_t stream;
};
static_assert(offsetof(CudartLaunchKernelParams, args) == offsetof(cudaLaunchKernel_v7000_params, args));

/// The tensor ranks the driver accepts (cuda.h: 1 to 5; im2col 3 to 5): a larger number means the
/// parameter struct does not match the call, and nothing is read through its pointers.
constexpr std::uint32_t kMaxTensorRank = 5;
/// CUDA 12.1 and later allow 32,764 bytes of kernel parameters.
constexpr std::size_t kMaxParamBytes = 32764;

using FuncGetParamInfo = CUresult (*)(CUfunction, size_t, size_t*, size_t*);

/// cuFuncGetParamInfo (driver 12.4 and later) from the driver already in the process, or null.
FuncGetParamInfo func_get_param_info() {
  static const FuncGetParamInfo f = [] {
    void* driver = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    return driver ? reinterpret_cast<FuncGetParamInfo>(::dlsym(driver, "cuFuncGetParamInfo")) : nullptr;
  }();
  return f;
}

template <typename T>
std::vector<T> copy_array(const T* from, std::size_t n) {
  return from != nullptr ? std::vector<T>(from, from + n) : std::vector<T>{};
}

void Capture::on_runtime_launch(Sanitizer_CallbackId cbid, const Sanitizer_CallbackData& data) {
  if (data.callbackSite == SANITIZER_API_EXIT) {
    pending_params_ = {};
    return;
  }
  if (data.callbackSite != SANITIZER_API_ENTER || data.functionParams == nullptr) return;
  switch (cbid) {
    case SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel:
    case SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel_ptsz:
      pending_params_ = {true, static_cast<const cudaLaunchKernel_v7000_params*>(data.functionParams)->args, nullptr};
      break;
    case SANITIZER_CBID_RUNTIME_API_cudaLaunchCooperativeKernel:
      pending_params_ = {true, static_cast<const cudaLaunchCooperativeKernel_v9000_params*>(data.functionParams)->args,
                         nullptr};
      break;
    case SANITIZER_CBID_RUNTIME_API_cudaLaunchKernelExC:
    case SANITIZER_CBID_RUNTIME_API_cudaLaunchKernelExC_ptsz:
      pending_params_ = {true, static_cast<const cudaLaunchKernelExC_v11060_params*>(data.functionParams)->args, nullptr};
      break;
    case SANITIZER_CBID_RUNTIME_API___cudaLaunchKernel:
    case SANITIZER_CBID_RUNTIME_API___cudaLaunchKernel_ptsz:
      pending_params_ = {true, static_cast<const CudartLaunchKernelParams*>(data.functionParams)->args, nullptr};
      break;
    default: break;
  }
}

/// What an encode call made, as its parameters read: its row, the map it
/// wrote, the kind of call, and whether the parameters are as this library
/// reads them (a rank within 1..kMaxTensorRank).
struct EncodeCall {
  TensorMapRow row;
  const CUtensorMap* map = nullptr;
  const char* kind = "";
  bool ok = false;
};

/// The fields every encode call has; false where the rank is out of range
/// (then nothing is read through the call's pointers).
template <class Params>
bool read_encode_fields(const Params* p, const char* kind, EncodeCall& c) {
  TensorMapRow& row = c.row;
  row.kind = kind;
  c.kind = kind;
  c.map = p->tensorMap;
  row.object = reinterpret_cast<std::uintptr_t>(p->tensorMap);
  row.data_type = static_cast<std::uint32_t>(p->tensorDataType);
  row.rank = p->tensorRank;
  row.global_address = reinterpret_cast<std::uintptr_t>(p->globalAddress);
  row.interleave = static_cast<std::uint32_t>(p->interleave);
  row.swizzle = static_cast<std::uint32_t>(p->swizzle);
  row.l2_promotion = static_cast<std::uint32_t>(p->l2Promotion);
  row.oob_fill = static_cast<std::uint32_t>(p->oobFill);
  if (row.rank == 0 || row.rank > kMaxTensorRank) return false;
  row.global_dims = copy_array(p->globalDim, row.rank);
  row.global_strides = copy_array(p->globalStrides, row.rank - 1);
  row.element_strides = copy_array(p->elementStrides, row.rank);
  return true;
}

/// The encode call `cbid` with parameters `params`, read into `c`, with the
/// fields of its kind (tiled: the box; im2col: the corners, pixels and
/// channels; im2col wide: its mode too). False: `cbid` is no encode call.
bool read_encode_call(Sanitizer_CallbackId cbid, const void* params, EncodeCall& c) {
  TensorMapRow& row = c.row;
  switch (cbid) {
    case SANITIZER_CBID_DRIVER_API_cuTensorMapEncodeTiled: {
      const auto* p = static_cast<const TensorMapEncodeTiledParams*>(params);
      if ((c.ok = read_encode_fields(p, "tiled", c))) row.box_dims = copy_array(p->boxDim, row.rank);
      return true;
    }
    case SANITIZER_CBID_DRIVER_API_cuTensorMapEncodeIm2col: {
      const auto* p = static_cast<const TensorMapEncodeIm2colParams*>(params);
      if ((c.ok = read_encode_fields(p, "im2col", c)) && row.rank >= 3) {
        for (std::uint32_t d = 0; d + 2 < row.rank; ++d) {  // the spatial dimensions: all but channels and batch
          if (p->pixelBoxLowerCorner) row.lower_corner.push_back(p->pixelBoxLowerCorner[d]);
          if (p->pixelBoxUpperCorner) row.upper_corner.push_back(p->pixelBoxUpperCorner[d]);
        }
      }
      row.channels_per_pixel = p->channelsPerPixel;
      row.pixels_per_column = p->pixelsPerColumn;
      return true;
    }
    case SANITIZER_CBID_DRIVER_API_cuTensorMapEncodeIm2colWide: {
      const auto* p = static_cast<const TensorMapEncodeIm2colWideParams*>(params);
      c.ok = read_encode_fields(p, "im2col_wide", c);
      row.lower_corner = {p->pixelBoxLowerCornerWidth};
      row.upper_corner = {p->pixelBoxUpperCornerWidth};
      row.channels_per_pixel = p->channelsPerPixel;
      row.pixels_per_column = p->pixelsPerColumn;
      row.wide_mode = static_cast<std::uint32_t>(p->mode);
      return true;
    }
    default: return false;
  }
}

void Capture::on_tensor_map_encode(Sanitizer_CallbackId cbid, const Sanitizer_CallbackData& data) {
  if (data.callbackSite != SANITIZER_API_EXIT || data.functionParams == nullptr) return;
  if (data.functionReturnValue == nullptr || *static_cast<const CUresult*>(data.functionReturnValue) != CUDA_SUCCESS)
    return;  // the call failed: no map was made
  EncodeCall c;
  if (!read_encode_call(cbid, data.functionParams, c)) return;
  if (!c.ok || c.map == nullptr) {
    const char* call = data.functionName != nullptr ? data.functionName : c.kind;
    error(std::string(call) + " succeeded with rank " + std::to_string(c.row.rank) +
          " outside 1.." + std::to_string(kMaxTensorRank) + " or no map: its parameters are not as this library reads "
          "them, so the map is not recorded");
    return;
  }
  TensorMapRow& row = c.row;
  row.id = tensor_map_rows_.size();
  EncodedTensorMap encoded{row.id, {}};
  std::memcpy(encoded.bytes.data(), c.map, kTensorMapBytes);
  encoded_maps_.push_back(encoded);
  tensor_maps_ << tensor_map_row_line(row) << std::flush;
  if (!tensor_maps_) error("cannot write " + (dir_ / "tensor_maps.csv").string());
  tensor_map_rows_.push_back(std::move(row));
}

/// A launch's parameter bytes from cuLaunchKernel's `extra`: pairs of key
/// and value, ending in CU_LAUNCH_PARAM_END; the buffer holds the
/// parameters as laid out. Returns why they could not be read, or "".
std::string read_extra_params(void* const* extra, std::vector<std::byte>& bytes) {
  const void* buffer = nullptr;
  const std::size_t* size = nullptr;
  for (std::size_t i = 0; i < 64 && extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
    if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buffer = extra[i + 1];
    else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) size = static_cast<const std::size_t*>(extra[i + 1]);
  }
  if (buffer == nullptr || size == nullptr || *size > kMaxParamBytes)
    return "extra without a parameter buffer and its size";
  bytes.assign(static_cast<const std::byte*>(buffer), static_cast<const std::byte*>(buffer) + *size);
  return "";
}

/// A launch's parameter bytes from kernelParams (one pointer per parameter),
/// laid out by cuFuncGetParamInfo on `function`; `layout`, where not null,
/// gets each parameter's offset+size as it is read. Returns why they could
/// not be read, or "".
std::string read_kernel_params(CUfunction function, void* const* kernel_params, std::vector<std::byte>& bytes,
                               std::string* layout) {
  const FuncGetParamInfo info = func_get_param_info();
  if (info == nullptr) return "the driver has no cuFuncGetParamInfo (driver 12.4 or later)";
  for (std::size_t i = 0;; ++i) {
    std::size_t offset = 0, size = 0;
    const CUresult got = info(function, i, &offset, &size);
    // Past the last parameter it fails; failing on the first of a launch that
    // passed parameters means the layout is unknown: say so with the driver's code.
    if (got != CUDA_SUCCESS && i == 0)
      return "cuFuncGetParamInfo failed on the first parameter (CUresult " + std::to_string(got) + ")";
    if (got != CUDA_SUCCESS) break;
    if (offset + size > kMaxParamBytes) return "cuFuncGetParamInfo gave a parameter past 32,764 bytes";
    if (kernel_params[i] == nullptr) return "a null kernel parameter pointer";
    if (bytes.size() < offset + size) bytes.resize(offset + size);
    std::memcpy(bytes.data() + offset, kernel_params[i], size);
    if (layout != nullptr) *layout += (i ? " " : "") + std::to_string(offset) + "+" + std::to_string(size);
  }
  return "";
}

/// The first 16 bytes of `b` in hexadecimal, or all of them where it holds
/// fewer (a kernel's parameters may be shorter than a map).
template <class Bytes>
std::string hex16(const Bytes& bytes) {
  static const char* digits = "0123456789abcdef";
  const std::byte* b = bytes.data();
  std::string h;
  for (std::size_t k = 0; k < 16 && k < bytes.size(); ++k) {
    h += digits[static_cast<unsigned>(b[k]) >> 4];
    h += digits[static_cast<unsigned>(b[k]) & 15];
  }
  return h;
}

void Capture::join_tensor_maps(std::uint64_t launch, CUfunction function) {
  const PendingParams params = pending_params_;
  pending_params_ = {};  // one launch per call
  if (encoded_maps_.empty()) return;  // nothing to look for
  auto unsearched = [&](const std::string& why) { ++unsearched_launches_[why]; };
  if (!params.seen) return unsearched("made by no launch call this library follows (a graph's kernel node?)");
  std::vector<std::byte> bytes;
  std::string why;
  if (params.kernel_params == nullptr && params.extra != nullptr) {
    why = read_extra_params(params.extra, bytes);
  } else if (params.kernel_params != nullptr) {
    why = read_kernel_params(function, params.kernel_params, bytes, searched_launches_ == 0 ? &first_search_ : nullptr);
  } else {
    const FuncGetParamInfo info = func_get_param_info();
    std::size_t offset = 0, size = 0;
    if (info != nullptr && info(function, 0, &offset, &size) != CUDA_SUCCESS) return;  // a kernel without parameters
    return unsearched("a launch call that passed no parameters (neither kernelParams nor extra)");
  }
  if (!why.empty()) return unsearched(why);
  if (searched_launches_ == 0 && !bytes.empty())  // what a failed join needs to be understood
    first_search_ += "; its first 16 bytes " + hex16(bytes) + ", the last map's " +
                     hex16(encoded_maps_.back().bytes);
  ++searched_launches_;
  searched_param_bytes_ += bytes.size();
  for (const FoundTensorMap& f : find_tensor_maps(bytes, encoded_maps_)) {
    ++found_maps_;
    launch_tensor_maps_ << launch_tensor_map_line({launch, f.offset, f.id}) << std::flush;
  }
  if (!launch_tensor_maps_) error("cannot write " + (dir_ / "launch_tensor_maps.csv").string());
}

}  // namespace
