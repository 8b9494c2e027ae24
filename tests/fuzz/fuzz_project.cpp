// libFuzzer target for the project loader: bytes in as a project file, the
// properties of loader_property.h out. Built only in the sanitizer tree
// (clang, -fsanitize=fuzzer,address,undefined); see docs/testing.md.
#include "loader_property.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string fault = pm::fuzz::loaderFault(std::string(reinterpret_cast<const char*>(data), size));
  if (!fault.empty()) {
    std::fprintf(stderr, "fuzz_project: %s\n", fault.c_str());
    std::abort();  // libFuzzer keeps the input as crash-<sha1>
  }
  return 0;
}
