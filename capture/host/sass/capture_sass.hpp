#pragma once
// A capture's sass.csv: the SASS of every cubin that holds a captured
// launch's function, and of those functions only where nvdisasm can say so
// (`-fun`), disassembled in parallel (a PyTorch program loads
// large library modules), with nvdisasm -gi (each instruction's source line
// and inlining chain where the cubin has line info), else cuobjdump (no
// line info; PATH, next to nvcc, or the given folders).
#include <filesystem>
#include <string>
#include <vector>

#include "capture/host/run/capture_run.hpp"

namespace bankcheck::capture {

/// Writes staging/sass.csv from staging/cubins; notes in `report` what it
/// did not disassemble and why. @return the problems (a cubin that could
/// not be disassembled, no disassembler found).
std::vector<std::string> write_sass(const std::filesystem::path& staging, const std::vector<std::string>& tool_dirs,
                                    CaptureReport& report);

}  // namespace bankcheck::capture
