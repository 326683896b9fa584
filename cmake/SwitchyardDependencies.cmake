# System dependencies, all from Debian packages (see third_party/README.md).
find_package(absl REQUIRED)          # libabsl-dev
find_package(tsl-robin-map REQUIRED) # robin-map-dev
find_package(FlatBuffers REQUIRED)   # libflatbuffers-dev (headers), flatbuffers-compiler (flatc)
find_package(yaml-cpp REQUIRED)      # libyaml-cpp-dev (codegen/)
find_package(nlohmann_json REQUIRED) # nlohmann-json3-dev (the profiler's Chrome trace, the CLI)
if(SWITCHYARD_BUILD_TESTS)
  find_package(GTest REQUIRED)       # libgtest-dev, libgmock-dev
endif()
if(SWITCHYARD_BUILD_BENCH)
  find_package(benchmark REQUIRED)   # libbenchmark-dev
endif()
# SLEEF (libsleef-dev), for the optimized kernels (backends/optimized/); Debian ships no CMake
# package for it, only pkg-config's sleef.pc. Without it the optimized library is not built.
find_package(PkgConfig QUIET)        # pkg-config
if(PkgConfig_FOUND)
  pkg_check_modules(SLEEF QUIET IMPORTED_TARGET sleef)
endif()
option(SWITCHYARD_WITH_SLEEF "Build the optimized kernel library (backends/optimized/, needs libsleef-dev)" ${SLEEF_FOUND})
if(SWITCHYARD_WITH_SLEEF AND NOT TARGET PkgConfig::SLEEF)
  message(FATAL_ERROR "SWITCHYARD_WITH_SLEEF is ON but SLEEF was not found: install libsleef-dev and pkg-config, "
                      "or configure with -DSWITCHYARD_WITH_SLEEF=OFF")
endif()
