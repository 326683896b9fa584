# Kernel libraries from kernel YAML, with ExecuTorch's CMake function names and arguments:
#
#   gen_selected_ops(LIB_NAME my_ops ROOT_OPS "custom::scale.out,aten::mul.out")  # or INCLUDE_ALL_OPS ON,
#                                                  # or OPS_SCHEMA_YAML a.yaml, or OPS_FROM_MODEL add.pte
#   generate_bindings_for_kernels(LIB_NAME my_ops FUNCTIONS_YAML functions.yaml CUSTOM_OPS_YAML custom_ops.yaml)
#   add_library(my_kernels STATIC my_kernels.cpp)          # may #include "NativeFunctions.h"
#   gen_operators_lib(LIB_NAME my_ops KERNEL_LIBS my_kernels DEPS ...)
#   target_link_libraries(my_app PRIVATE my_ops)           # registers the kernels in my_app
#
# Everything generated goes to ${CMAKE_CURRENT_BINARY_DIR}/<LIB_NAME>/ (codegen/emit.h lists the
# files). Without gen_selected_ops, every operator in the YAML is generated. FUNCTIONS_YAML holds
# `op:` entries for existing operators, CUSTOM_OPS_YAML `func:` entries defining new ones; either
# file may hold either kind. The library links whole-archive, so its static registrations run.
# OPS_FROM_MODEL selects the operators a program calls and, of each, only the kernels its calls'
# kernel keys resolve to; a key no kernel serves fails the build (See Note [Selective build keeps
# the kernels a program's keys resolve to] in codegen/program_operators.h). With the portable
# library's YAML, that is a program's selective build (selective/CMakeLists.txt):
#
#   gen_selected_ops(LIB_NAME add_ops OPS_FROM_MODEL add.pte)
#   generate_bindings_for_kernels(LIB_NAME add_ops FUNCTIONS_YAML ${SWITCHYARD_PORTABLE_OPS_YAML} DISPATCH_KEY CPU)
#   gen_operators_lib(LIB_NAME add_ops KERNEL_LIBS switchyard::portable_kernels DEPS switchyard::runtime)

set(_SWITCHYARD_CODEGEN_CMAKE_DIR ${CMAKE_CURRENT_LIST_DIR})

# Note [A build may generate with another build's switchyard_codegen]
# The generator is an ordinary program of the build: without instructions it is built first, from
# its own sources, in the build's own configuration. -DSWITCHYARD_CODEGEN_EXECUTABLE=<path> makes
# every generation step (the library's operators, kernel libraries, selections) run that
# executable instead: a host build's when cross-compiling, or, in ./test.sh, the Release build's
# in the sanitizer builds, where a generator instrumented at -O0 is slow to build and to run and
# what it writes is the same (its output depends only on its inputs). The sanitizer builds still
# build and test their own switchyard_codegen (tests/codegen/); they only do not wait for it.
#
# The generator to run: the one given, an installed package's, or this build's own target (which
# may be defined later in the build than the caller).
function(_switchyard_codegen_tool out_var)
  if(SWITCHYARD_CODEGEN_EXECUTABLE)
    set(${out_var} ${SWITCHYARD_CODEGEN_EXECUTABLE} PARENT_SCOPE)
  elseif(TARGET switchyard::switchyard_codegen)
    set(${out_var} $<TARGET_FILE:switchyard::switchyard_codegen> PARENT_SCOPE)
  elseif(TARGET switchyard_codegen OR PROJECT_NAME STREQUAL "switchyard")
    set(${out_var} $<TARGET_FILE:switchyard_codegen> PARENT_SCOPE)
  else()
    message(FATAL_ERROR "switchyard_codegen is not available: find_package(switchyard) first, or pass "
                        "-DSWITCHYARD_CODEGEN_EXECUTABLE=<path to switchyard_codegen>")
  endif()
endfunction()

# The project's own build, then a consumer of its build tree (-Dswitchyard_DIR=<build dir>, where
# this file and the schemas sit side by side), then an installed package.
function(_switchyard_operator_schemas out_var)
  if(SWITCHYARD_OPERATOR_SCHEMAS)
    set(${out_var} ${SWITCHYARD_OPERATOR_SCHEMAS} PARENT_SCOPE)
  elseif(EXISTS ${_SWITCHYARD_CODEGEN_CMAKE_DIR}/operator_schemas.yaml)
    set(${out_var} ${_SWITCHYARD_CODEGEN_CMAKE_DIR}/operator_schemas.yaml PARENT_SCOPE)
  else()
    get_filename_component(_prefix "${_SWITCHYARD_CODEGEN_CMAKE_DIR}/../../.." ABSOLUTE)
    set(${out_var} ${_prefix}/share/switchyard/operator_schemas.yaml PARENT_SCOPE)
  endif()
endfunction()

# Writes <LIB_NAME>/selected_operators.yaml: the operators in ROOT_OPS (comma-separated; "add.out"
# means aten::add.out), every operator with an entry in the OPS_SCHEMA_YAML files, the operators
# the programs in OPS_FROM_MODEL call (with the kernel keys they need), or all of them with
# INCLUDE_ALL_OPS. A program may be a file the build makes: the selection is redone when it changes.
function(gen_selected_ops)
  cmake_parse_arguments(GEN "" "" "LIB_NAME;OPS_SCHEMA_YAML;ROOT_OPS;INCLUDE_ALL_OPS;OPS_FROM_MODEL" ${ARGN})
  if(NOT GEN_LIB_NAME)
    message(FATAL_ERROR "gen_selected_ops needs LIB_NAME")
  endif()
  _switchyard_codegen_tool(_tool)
  set(_out_dir ${CMAKE_CURRENT_BINARY_DIR}/${GEN_LIB_NAME})
  set(_oplist_yaml ${_out_dir}/selected_operators.yaml)
  file(MAKE_DIRECTORY ${_out_dir})
  set(_command ${_tool} select --output ${_oplist_yaml})
  if(GEN_ROOT_OPS)
    string(REPLACE ";" "," _root_ops "${GEN_ROOT_OPS}")
    list(APPEND _command --root-ops "${_root_ops}")
  endif()
  if(GEN_INCLUDE_ALL_OPS)
    list(APPEND _command --include-all-operators)
  endif()
  foreach(_yaml ${GEN_OPS_SCHEMA_YAML})
    list(APPEND _command --ops-schema-yaml ${_yaml})
  endforeach()
  set(_models)
  if(GEN_OPS_FROM_MODEL)
    _switchyard_operator_schemas(_schemas)
    list(APPEND _command --schemas ${_schemas})
    foreach(_model ${GEN_OPS_FROM_MODEL})
      get_filename_component(_model ${_model} ABSOLUTE)
      list(APPEND _command --model ${_model})
      list(APPEND _models ${_model} ${_schemas})
    endforeach()
  endif()
  add_custom_command(OUTPUT ${_oplist_yaml}
    COMMAND ${_command}
    DEPENDS ${GEN_OPS_SCHEMA_YAML} ${_models} ${_tool}
    COMMENT "Selecting operators for ${GEN_LIB_NAME}"
    VERBATIM)
  set_property(GLOBAL PROPERTY SWITCHYARD_SELECTED_OPS_${GEN_LIB_NAME} ${_oplist_yaml})
endfunction()

# Generates the bindings for the kernels in FUNCTIONS_YAML and CUSTOM_OPS_YAML into <LIB_NAME>/;
# sets gen_command_sources in the caller to the generated files. With DISPATCH_KEY, the YAML files
# (FUNCTIONS_YAML may list several) are a library owning its `func:` operators, as the portable
# library's ${SWITCHYARD_PORTABLE_OPS_YAML} are: their schemas and default kernels register on that
# key (See Note [A library's own operators register their default kernels on its dispatch key]).
function(generate_bindings_for_kernels)
  cmake_parse_arguments(GEN "" "LIB_NAME;CUSTOM_OPS_YAML;DISPATCH_KEY" "FUNCTIONS_YAML" ${ARGN})
  if(NOT GEN_LIB_NAME)
    message(FATAL_ERROR "generate_bindings_for_kernels needs LIB_NAME")
  endif()
  if(NOT GEN_FUNCTIONS_YAML AND NOT GEN_CUSTOM_OPS_YAML)
    message(FATAL_ERROR "generate_bindings_for_kernels(${GEN_LIB_NAME}) needs FUNCTIONS_YAML or CUSTOM_OPS_YAML")
  endif()
  _switchyard_codegen_tool(_tool)
  _switchyard_operator_schemas(_schemas)
  set(_out_dir ${CMAKE_CURRENT_BINARY_DIR}/${GEN_LIB_NAME})
  set(_sources ${_out_dir}/Functions.cpp ${_out_dir}/NativeFunctions.h ${_out_dir}/Functions.h)
  set(_command ${_tool} gen --output-dir ${_out_dir})
  if(GEN_DISPATCH_KEY)
    # The YAML defines its operators: libswitchyard's schemas would be duplicates.
    list(APPEND _sources ${_out_dir}/RegisterOperators.cpp)
    list(APPEND _command --dispatch-key ${GEN_DISPATCH_KEY})
  else()
    list(APPEND _sources ${_out_dir}/RegisterSchema.cpp ${_out_dir}/RegisterKernels.cpp)
    list(APPEND _command --schemas ${_schemas})
  endif()
  set_property(GLOBAL PROPERTY SWITCHYARD_DISPATCH_KEY_${GEN_LIB_NAME} "${GEN_DISPATCH_KEY}")
  set(_depends ${_tool} ${_schemas})
  foreach(_kind FUNCTIONS_YAML CUSTOM_OPS_YAML)
    string(TOLOWER ${_kind} _flag)
    string(REPLACE "_" "-" _flag ${_flag})
    foreach(_yaml ${GEN_${_kind}})
      get_filename_component(_yaml ${_yaml} ABSOLUTE)
      list(APPEND _command --${_flag} ${_yaml})
      list(APPEND _depends ${_yaml})
    endforeach()
  endforeach()
  get_property(_oplist_yaml GLOBAL PROPERTY SWITCHYARD_SELECTED_OPS_${GEN_LIB_NAME})
  if(_oplist_yaml)
    list(APPEND _command --selected-ops ${_oplist_yaml})
    list(APPEND _depends ${_oplist_yaml})
  endif()
  add_custom_command(OUTPUT ${_sources}
    COMMAND ${_command}
    DEPENDS ${_depends}
    COMMENT "Generating kernel bindings for ${GEN_LIB_NAME}"
    VERBATIM)
  add_custom_target(${GEN_LIB_NAME}_bindings DEPENDS ${_sources})
  set(gen_command_sources ${_sources} PARENT_SCOPE)
endfunction()

# Makes LIB_NAME: the generated registrations, linked whole-archive, with the kernels of
# KERNEL_LIBS and the DEPS they need. The KERNEL_LIBS targets of this build get the generated
# headers' directory and are built after the bindings. The registrations link libswitchyard
# (switchyard::portable: a program links switchyard::switchyard for the optimized kernels too),
# or, when DEPS names switchyard::runtime (a selective build, selective/CMakeLists.txt), that static
# runtime instead. A library owning its operators (DISPATCH_KEY) compiles only its registrations:
# the sy::ops helpers of its operators are already in the library its kernels come from.
function(gen_operators_lib)
  cmake_parse_arguments(GEN "" "" "LIB_NAME;KERNEL_LIBS;DEPS" ${ARGN})
  if(NOT GEN_LIB_NAME)
    message(FATAL_ERROR "gen_operators_lib needs LIB_NAME")
  endif()
  if(NOT TARGET ${GEN_LIB_NAME}_bindings)
    message(FATAL_ERROR "gen_operators_lib(${GEN_LIB_NAME}): call generate_bindings_for_kernels(LIB_NAME ${GEN_LIB_NAME} ...) first")
  endif()
  set(_out_dir ${CMAKE_CURRENT_BINARY_DIR}/${GEN_LIB_NAME})
  get_property(_dispatch_key GLOBAL PROPERTY SWITCHYARD_DISPATCH_KEY_${GEN_LIB_NAME})
  if(_dispatch_key)
    set(_registration_sources ${_out_dir}/RegisterOperators.cpp)
  else()
    set(_registration_sources ${_out_dir}/RegisterSchema.cpp ${_out_dir}/RegisterKernels.cpp ${_out_dir}/Functions.cpp)
  endif()
  set(_runtime switchyard::portable)
  if("switchyard::runtime" IN_LIST GEN_DEPS OR "switchyard_runtime" IN_LIST GEN_DEPS)
    set(_runtime)
  endif()
  add_library(${GEN_LIB_NAME}_registrations STATIC ${_registration_sources})
  add_dependencies(${GEN_LIB_NAME}_registrations ${GEN_LIB_NAME}_bindings)
  set_target_properties(${GEN_LIB_NAME}_registrations PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${GEN_LIB_NAME}_registrations PUBLIC $<BUILD_INTERFACE:${_out_dir}>)
  target_link_libraries(${GEN_LIB_NAME}_registrations PUBLIC ${_runtime} ${GEN_KERNEL_LIBS} ${GEN_DEPS})
  foreach(_kernel_lib ${GEN_KERNEL_LIBS})
    if(NOT TARGET ${_kernel_lib})
      continue()
    endif()
    # The package's own archives (switchyard::portable_kernels) are built already.
    get_target_property(_imported ${_kernel_lib} IMPORTED)
    get_target_property(_aliased ${_kernel_lib} ALIASED_TARGET)
    if(NOT _imported AND NOT _aliased)
      add_dependencies(${_kernel_lib} ${GEN_LIB_NAME}_bindings)
      target_include_directories(${_kernel_lib} PUBLIC $<BUILD_INTERFACE:${_out_dir}>)
      target_link_libraries(${_kernel_lib} PUBLIC ${_runtime})
    endif()
  endforeach()
  add_library(${GEN_LIB_NAME} INTERFACE)
  target_link_libraries(${GEN_LIB_NAME} INTERFACE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${GEN_LIB_NAME}_registrations>")
endfunction()

# The bindings of a library that owns its operators, as the portable aten:: library does with
# backends/devices/cpu/*.yaml: the `func:` entries define the operators and their default kernels register as
# ordinary kernels on DISPATCH_KEY (see Note [A library's own operators register their default
# kernels on its dispatch key] in codegen/kernel_yaml.h).
#
#   switchyard_generate_operators(NAME unary YAML backends/devices/cpu/unary_ops.yaml DISPATCH_KEY CPU
#                                 OUTPUT_DIR ${PROJECT_BINARY_DIR}/generated/switchyard/ops/unary)
#
# writes RegisterOperators.cpp (schemas and registrations, one translation unit), Functions.h/.cpp
# (the sy::ops-style helpers) and NativeFunctions.h (the kernels to implement) into OUTPUT_DIR, and
# sets <NAME>_generated_sources in the caller. ATEN_API (libswitchyard's own aten:: families only)
# also writes TensorMethods.h and Operators.h (See Note [Tensor methods are generated with the
# library] in codegen/emit_functions.cpp). REQUIRE_DTYPES refuses an entry with a kernel but no
# `dtypes:` (See Note [A kernel's dtypes are declared in its YAML] in codegen/dtype_sets.cpp).
# Registration sites name the YAML relative to SITE_ROOT (default: the project's source folder).
function(switchyard_generate_operators)
  cmake_parse_arguments(GEN "ATEN_API;REQUIRE_DTYPES" "NAME;DISPATCH_KEY;OUTPUT_DIR;SITE_ROOT" "YAML" ${ARGN})
  if(NOT GEN_NAME OR NOT GEN_YAML OR NOT GEN_DISPATCH_KEY OR NOT GEN_OUTPUT_DIR)
    message(FATAL_ERROR "switchyard_generate_operators needs NAME, YAML, DISPATCH_KEY and OUTPUT_DIR")
  endif()
  _switchyard_codegen_tool(_tool)
  if(NOT GEN_SITE_ROOT)
    set(GEN_SITE_ROOT ${PROJECT_SOURCE_DIR})
  endif()
  set(_outputs ${GEN_OUTPUT_DIR}/RegisterOperators.cpp ${GEN_OUTPUT_DIR}/Functions.cpp
               ${GEN_OUTPUT_DIR}/Functions.h ${GEN_OUTPUT_DIR}/NativeFunctions.h)
  set(_command ${_tool} gen --dispatch-key ${GEN_DISPATCH_KEY} --site-root ${GEN_SITE_ROOT} --output-dir ${GEN_OUTPUT_DIR})
  if(GEN_ATEN_API)
    list(APPEND _outputs ${GEN_OUTPUT_DIR}/TensorMethods.h ${GEN_OUTPUT_DIR}/Operators.h)
    list(APPEND _command --aten-api)
  endif()
  if(GEN_REQUIRE_DTYPES)
    list(APPEND _command --require-dtypes)
  endif()
  set(_yamls)
  foreach(_yaml ${GEN_YAML})
    get_filename_component(_yaml ${_yaml} ABSOLUTE)
    list(APPEND _command --functions-yaml ${_yaml})
    list(APPEND _yamls ${_yaml})
  endforeach()
  add_custom_command(OUTPUT ${_outputs}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${GEN_OUTPUT_DIR}
    COMMAND ${_command}
    DEPENDS ${_yamls} ${_tool}
    COMMENT "Generating the ${GEN_NAME} operators from ${GEN_YAML}"
    VERBATIM)
  set(${GEN_NAME}_generated_sources ${_outputs} PARENT_SCOPE)
endfunction()
