#pragma once
// The parameter structs of the driver and runtime API calls, as the
// sanitizer's API callbacks pass them (functionParams). The sanitizer's
// generated headers have no include guard, so they are included here once.
#include <sanitizer.h>
// After sanitizer.h, which declares the obsolete types their parameter structs name.
#include <generated_cuda_meta.h>
#include <generated_cuda_runtime_api_meta.h>
