#pragma once
// Which instructions the capture library patches, and with which device
// function of capture/device/patches.cu (injection.cpp's on_module).
#include <sanitizer.h>

namespace {

/// Patches for each instruction kind (sanitizer_patching.h) by the name of
/// the device function in capture/device/patches.cu.
struct PatchPoint {
  Sanitizer_InstructionId id;
  const char* callback;
  bool generic_only;  ///< only with BANKCHECK_CAPTURE_GENERIC=1 or BANKCHECK_CAPTURE_GLOBAL=1
};
constexpr PatchPoint kPatchPoints[] = {
    {SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, "bankcheck_shared_access", false},
    {SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, "bankcheck_generic_access", true},
    {SANITIZER_INSTRUCTION_MATRIX_MEMORY_ACCESS, "bankcheck_matrix_access", false},
    {SANITIZER_INSTRUCTION_MEMCPY_ASYNC, "bankcheck_memcpy_async", false},
    {SANITIZER_INSTRUCTION_REMOTE_SHARED_MEMORY_ACCESS, "bankcheck_remote_shared", false},
    {SANITIZER_INSTRUCTION_ASYNC_STORE, "bankcheck_async_store", false},
    {SANITIZER_INSTRUCTION_ASYNC_REDUCTION, "bankcheck_async_reduction", false},
    {SANITIZER_INSTRUCTION_BULK_COPY_GLOBAL_TO_SHARED, "bankcheck_bulk_global_to_shared", false},
    {SANITIZER_INSTRUCTION_BULK_COPY_SHARED_TO_GLOBAL, "bankcheck_bulk_shared_to_global", false},
    {SANITIZER_INSTRUCTION_BULK_COPY_SHARED_TO_SHARED, "bankcheck_bulk_shared_to_shared", false},
    {SANITIZER_INSTRUCTION_BULK_REDUCTION_SHARED_TO_GLOBAL, "bankcheck_bulk_reduction_to_global", false},
    {SANITIZER_INSTRUCTION_BULK_REDUCTION_SHARED_TO_SHARED, "bankcheck_bulk_reduction_to_shared", false},
    {SANITIZER_INSTRUCTION_MEMSET_SHARED, "bankcheck_memset_shared", false},
    {SANITIZER_INSTRUCTION_WARPGROUP_MMA_ASYNC, "bankcheck_wgmma", false},
};

}  // namespace
