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
