# cmake -DEXECUTABLE=run_add_selective -DLIBRARY=libswitchyard.so -P check_size.cmake
# Prints the selectively built executable's size beside the full library's and fails unless it is
# under a fifth of it (issue 13's target for add.pte).
file(SIZE ${EXECUTABLE} executable_bytes)
file(SIZE ${LIBRARY} library_bytes)
math(EXPR percent "100 * ${executable_bytes} / ${library_bytes}")
get_filename_component(executable_name ${EXECUTABLE} NAME)
get_filename_component(library_name ${LIBRARY} NAME)
message(STATUS "selective build: ${executable_name} ${executable_bytes} bytes, ${library_name} ${library_bytes} bytes (${percent}%)")
math(EXPR limit "${library_bytes} / 5")
if(NOT executable_bytes LESS limit)
  message(FATAL_ERROR "${executable_name} (${executable_bytes} bytes) is not under a fifth of ${library_name} (${limit} bytes)")
endif()
