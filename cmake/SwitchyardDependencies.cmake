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
# SLEEF (libsleef-dev) and OpenBLAS (libopenblas-dev), for the optimized kernels
# (backends/kernels/optimized/); Debian ships no CMake package for SLEEF, only pkg-config's sleef.pc, and
# openblas.pc names the pthread build's headers (its own cblas.h) and library, which the kernels
# need rather than whichever cblas.h the alternatives system picked. Without both the optimized
# library is not built. Only the optimized library links them, never libswitchyard.
find_package(PkgConfig QUIET)        # pkg-config
if(PkgConfig_FOUND)
  pkg_check_modules(SLEEF QUIET IMPORTED_TARGET sleef)
  pkg_check_modules(OPENBLAS QUIET IMPORTED_TARGET openblas)
endif()
# The optimized kernels' thread pool is their own, on std::thread (backends/kernels/optimized/threads.h).
find_package(Threads REQUIRED)
set(SWITCHYARD_OPTIMIZED_DEPENDENCIES_FOUND OFF)
if(SLEEF_FOUND AND OPENBLAS_FOUND)
  set(SWITCHYARD_OPTIMIZED_DEPENDENCIES_FOUND ON)
endif()
option(SWITCHYARD_WITH_SLEEF "Build the optimized kernel library (backends/kernels/optimized/, needs libsleef-dev and libopenblas-dev)"
       ${SWITCHYARD_OPTIMIZED_DEPENDENCIES_FOUND})
if(SWITCHYARD_WITH_SLEEF AND NOT SWITCHYARD_OPTIMIZED_DEPENDENCIES_FOUND)
  message(FATAL_ERROR "SWITCHYARD_WITH_SLEEF is ON but SLEEF or OpenBLAS was not found: install "
                      "libsleef-dev, libopenblas-dev and pkg-config, or configure with -DSWITCHYARD_WITH_SLEEF=OFF")
endif()

# pthreadpool (libpthreadpool-dev): XNNPACK's threads.
find_path(SWITCHYARD_PTHREADPOOL_INCLUDE_DIR pthreadpool.h)
find_library(SWITCHYARD_PTHREADPOOL_LIBRARY pthreadpool)

# The XNNPACK delegate (backends/delegates/xnnpack/): libxnnpack-dev and libpthreadpool-dev. On by default
# when both are found; without them the library builds without the delegate.
option(SWITCHYARD_WITH_XNNPACK "Build the XNNPACK delegate (backends/delegates/xnnpack/)" ON)
if(SWITCHYARD_WITH_XNNPACK)
  find_path(SWITCHYARD_XNNPACK_INCLUDE_DIR xnnpack.h)
  find_library(SWITCHYARD_XNNPACK_LIBRARY XNNPACK)
  if(SWITCHYARD_XNNPACK_INCLUDE_DIR AND SWITCHYARD_PTHREADPOOL_INCLUDE_DIR AND SWITCHYARD_XNNPACK_LIBRARY
     AND SWITCHYARD_PTHREADPOOL_LIBRARY)
    set(SWITCHYARD_XNNPACK_INCLUDE_DIRS ${SWITCHYARD_XNNPACK_INCLUDE_DIR} ${SWITCHYARD_PTHREADPOOL_INCLUDE_DIR})
    set(SWITCHYARD_XNNPACK_LIBRARIES ${SWITCHYARD_XNNPACK_LIBRARY} ${SWITCHYARD_PTHREADPOOL_LIBRARY})
    message(STATUS "XNNPACK delegate: ${SWITCHYARD_XNNPACK_LIBRARY}")
  else()
    message(WARNING "libxnnpack-dev or libpthreadpool-dev not found: building without the XNNPACK delegate")
    set(SWITCHYARD_WITH_XNNPACK OFF)
  endif()
endif()
