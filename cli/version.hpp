#pragma once
// `bankcheck --version`: defined in a file the build generates
// (cmake/WriteVersion.cmake) with the version, git revision and CUDA version.
namespace bankcheck::cli {
/// "bankcheck 0.1.0\ngit revision ...\nbuilt with CUDA 13.0.88\n"
const char* version_text();
}  // namespace bankcheck::cli
