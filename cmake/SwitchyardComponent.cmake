# switchyard_component(NAME [NO_LIBRARY_PCH] [OFF_HOT_PATH] SOURCES a.cpp b.cpp ... [DEPENDS target ...] [HEADER_DIR dir])
#
# One component of libswitchyard: an OBJECT library `sy_<NAME>` built from an explicit source list,
# whose objects go into the one shared `switchyard` library (so static registrations in any of them
# run when a program links switchyard::switchyard). A folder's CMakeLists.txt declares its components;
# its public headers are installed under include/switchyard/<folder>/.
#
#   switchyard_component(cpu SOURCES binary_ops.cpp unary_ops.cpp ...)
#
# OFF_HOT_PATH compiles the component at -O1 in Release (See Note [Code off the hot paths compiles
# at -O1 in Release]).
#
# Note [Explicit source lists]
# A component lists its sources by name instead of globbing, so what is compiled is what review
# saw, never what a glob of some depth happened to find. A .cpp file in a component's folder that
# no component lists fails the configure step (switchyard_check_component_sources), so a new file
# is never silently left out either; a subfolder is its own component with its own CMakeLists.txt.
include_guard(GLOBAL)

# Note [Library components share one precompiled header]
# Most of a small component source's compile time is spent parsing the same headers: the standard
# library, abseil's strings and status, and the dispatcher's and tensor's own headers take 1.3 s of
# a 1.5 s compile. The components precompile them once (in sy_ivalue, the first component that uses
# it) and every other component reuses that header, which saves about a second per source in each of the three
# builds ./test.sh makes. The precompiled header is force-included, so a source that forgets one of
# these includes still compiles: -DSWITCHYARD_LIBRARY_PCH=OFF builds without it, as installed
# headers are used by consumers. tensor.h includes the generated Tensor methods, so the header is
# made after the generator ran; sy_core, which the generator is built from, compiles without it (its
# few sources include none of these headers but the standard library's).
option(SWITCHYARD_LIBRARY_PCH "Precompile common headers for the library components (See Note [Library components share one precompiled header])" ON)
set(SWITCHYARD_LIBRARY_PCH_HEADERS
  <algorithm> <atomic> <cmath> <cstdint> <cstring> <functional> <limits> <map> <memory> <mutex>
  <optional> <string> <string_view> <tuple> <type_traits> <unordered_map> <utility> <vector>
  <absl/container/inlined_vector.h> <absl/status/status.h> <absl/status/statusor.h>
  <absl/strings/str_cat.h> <absl/strings/str_format.h> <absl/strings/str_join.h> <absl/types/span.h>
  <switchyard/ivalue/checked_size.h> <switchyard/core/error.h> <switchyard/ivalue/tensor.h>
  <switchyard/dispatcher/library.h>)

# Gives `target` the components' precompiled header. A component reuses the first component's; an
# executable (the switchyard tool) compiles as position-independent executable code, with which
# GCC refuses a header precompiled for a shared library, so it precompiles its own.
function(switchyard_use_library_pch target)
  if(NOT SWITCHYARD_LIBRARY_PCH)
    return()
  endif()
  get_property(owner GLOBAL PROPERTY SWITCHYARD_LIBRARY_PCH_OWNER)
  get_target_property(type ${target} TYPE)
  if(owner AND type STREQUAL "OBJECT_LIBRARY")
    target_precompile_headers(${target} REUSE_FROM ${owner})
  else()
    target_precompile_headers(${target} PRIVATE ${SWITCHYARD_LIBRARY_PCH_HEADERS})
    if(type STREQUAL "OBJECT_LIBRARY")
      set_property(GLOBAL PROPERTY SWITCHYARD_LIBRARY_PCH_OWNER ${target})
    endif()
  endif()
endfunction()

# Note [Sanitizer builds compile the library in unity batches]
# With SWITCHYARD_LIBRARY_UNITY=ON, each component compiles its sources eight at a time as one
# translation unit, as the test binaries always do (See Note [Test files are compiled in unity
# batches]). Unoptimised, every translation unit emits and instruments its own copy of each inline
# function it uses (the tensor's accessors, the string and status helpers), so batching saves about
# a quarter of the compile time of the small sources in the sanitizer builds, which ./test.sh makes
# at -O0/-O1. Releases build one file at a time (the default), so what ships, and what the
# instruction-count targets measure, does not depend on which files happen to share a batch. Hence
# a component's file-local names (anonymous namespaces, static functions) must differ from those of
# the other files of its component; the generated registrations are left out of the batches, since
# every one of them defines the same helpers.
option(SWITCHYARD_LIBRARY_UNITY "Compile the library components in unity batches (See Note [Sanitizer builds compile the library in unity batches])" OFF)

# Flags only for the compilers that take them.
set(SWITCHYARD_WARNING_FLAGS
  $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-Wall -Wextra -Wno-unused-parameter>)
# -fno-semantic-interposition: calls between the library's own functions (a kernel trampoline
# jumping to its kernel) go direct instead of through the PLT. -ffunction-sections and
# -fdata-sections: the same objects also make the static archives of selective builds, whose
# executables keep only the functions they reach (See Note [A selective build links only what its
# program reaches] in selective/CMakeLists.txt).
set(SWITCHYARD_LIBRARY_FLAGS
  $<$<CXX_COMPILER_ID:GNU,Clang>:-fno-semantic-interposition -ffunction-sections -fdata-sections>)

# Note [Kernel code skips UBSan's null and alignment checks]
# In a build with UndefinedBehaviorSanitizer (./test.sh's sanitizer stage), the kernel code (the
# portable CPU kernels, the generated operator registrations and helpers, the optimized library) is
# compiled without UBSan's `null` and `alignment` checks; everything else keeps every check. The two
# checks instrument each reference bound and each member accessed, and the kernels' templates do
# little else: together they took a third of those files' compile time (activation_ops.cpp: 8.3 s,
# 5.6 s without them), the longest part of the longest stage of ./test.sh. What they would find is
# found anyway: AddressSanitizer reports a null dereference with its stack, and tensor data is
# aligned for its dtype wherever it enters (See Note [Tensor data is aligned for its dtype] in
# program/program_internal.h). The code that reads files and boxed stacks, where such bugs start,
# keeps both checks; they are what found the misaligned reads of program files (see Note [Vectors
# of 8-byte numbers may be misaligned]).
function(switchyard_kernel_code target)
  if(SWITCHYARD_SANITIZE MATCHES "undefined")
    target_compile_options(${target} PRIVATE -fno-sanitize=null,alignment)
  endif()
endfunction()

# Note [Code off the hot paths compiles at -O1 in Release]
# The command-line tool's own code (JSON, printing, the commands), the exporter, the generator and
# the conformance harness run once per command or per program, never once per operator call. In a
# Release build they compile at -O1, a quarter faster than at -O3 (json_text.cpp 6.8 s against
# 8.9 s, emit.cpp 3.4 s against 6.0 s), compiling being ./test.sh's largest cost on 2 cores. What
# runs per call, the dispatcher, the program runtime, the kernels and their registrations, and the
# rows the overhead table measures (bench/overhead_rows.cpp), stays at -O3.
function(switchyard_off_hot_path target)
  target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:-O1>)
endfunction()

function(switchyard_component name)
  cmake_parse_arguments(ARG "NO_LIBRARY_PCH;OFF_HOT_PATH" "" "SOURCES;DEPENDS" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "switchyard_component(${name}): no SOURCES listed")
  endif()
  set(target sy_${name})
  foreach(source ${ARG_SOURCES})
    set_property(GLOBAL APPEND PROPERTY SWITCHYARD_LISTED_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/${source})
  endforeach()
  add_library(${target} OBJECT ${ARG_SOURCES})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${SWITCHYARD_BUILD_INCLUDE_DIR}>)
  target_link_libraries(${target} PUBLIC ${SWITCHYARD_PUBLIC_DEPENDENCIES} ${ARG_DEPENDS}
    PRIVATE tsl::robin_map)
  target_compile_options(${target} PRIVATE ${SWITCHYARD_WARNING_FLAGS} ${SWITCHYARD_LIBRARY_FLAGS})
  if(NOT ARG_NO_LIBRARY_PCH)
    switchyard_use_library_pch(${target})
  endif()
  if(ARG_OFF_HOT_PATH)
    switchyard_off_hot_path(${target})
  endif()
  if(SWITCHYARD_LIBRARY_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
  set_property(GLOBAL APPEND PROPERTY SWITCHYARD_COMPONENTS ${target})
  # The folder's headers are installed as <switchyard/folder/...>.
  file(RELATIVE_PATH folder ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  set_property(GLOBAL APPEND PROPERTY SWITCHYARD_HEADER_FOLDERS ${folder})
endfunction()

# Sources a folder holds but leaves out of this build on purpose (the profiler when it is off).
function(switchyard_unbuilt_sources)
  foreach(source ${ARGN})
    set_property(GLOBAL APPEND PROPERTY SWITCHYARD_LISTED_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/${source})
  endforeach()
endfunction()

# Fails when a component folder holds a .cpp file no component lists. See Note [Explicit source lists].
function(switchyard_check_component_sources)
  get_property(folders GLOBAL PROPERTY SWITCHYARD_HEADER_FOLDERS)
  get_property(listed GLOBAL PROPERTY SWITCHYARD_LISTED_SOURCES)
  list(REMOVE_DUPLICATES folders)
  foreach(folder ${folders})
    file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${folder}/*.cpp)
    foreach(source ${sources})
      if(NOT source IN_LIST listed)
        file(RELATIVE_PATH shown ${PROJECT_SOURCE_DIR} ${source})
        message(FATAL_ERROR "${shown} is not listed in any component: add it to the SOURCES of a "
                            "switchyard_component() in ${folder}/CMakeLists.txt")
      endif()
    endforeach()
  endforeach()
endfunction()
