# SWITCHYARD_KERNEL_DTYPES: the dtypes the kernels are compiled for (See Note [A build compiles its
# kernels for the dtypes it selects] in core/kernel_dtypes.h). Empty (the default): every dtype.
#
#   cmake -S . -B build/float -DSWITCHYARD_KERNEL_DTYPES="Bool;Long;Float"
#
# The names are ScalarType's; each becomes its enumerator's bit in SY_KERNEL_DTYPES, defined for
# every translation unit of the build (and for consumers of the installed package, through the
# switchyard targets' interface), so all of them agree on the set.
set(SWITCHYARD_KERNEL_DTYPES "" CACHE STRING
  "The dtypes the kernels compute, e.g. Bool;Long;Float (empty: every dtype; see core/kernel_dtypes.h)")

# ScalarType's enumerators in order: a name's index is its bit.
set(_switchyard_scalar_types Byte Char Short Int Long Half Float Double ComplexHalf ComplexFloat ComplexDouble Bool
    QInt8 QUInt8 QInt32 BFloat16 QUInt4x2 QUInt2x4 Bits1x8 Bits2x4 Bits4x2 Bits8 Bits16 Float8_e5m2 Float8_e4m3fn
    Float8_e5m2fnuz Float8_e4m3fnuz UInt16 UInt32 UInt64)

# switchyard_dtype_mask(OUT Bool Long Float): OUT = "0x...u", the dtypes' bits as a C++ literal.
function(switchyard_dtype_mask out)
  set(mask 0)
  foreach(name ${ARGN})
    list(FIND _switchyard_scalar_types "${name}" bit)
    if(bit EQUAL -1)
      string(REPLACE ";" ", " names "${_switchyard_scalar_types}")
      message(FATAL_ERROR "SWITCHYARD_KERNEL_DTYPES: '${name}' is no dtype; the dtypes are ${names}")
    endif()
    math(EXPR mask "${mask} | (1 << ${bit})" OUTPUT_FORMAT HEXADECIMAL)
  endforeach()
  set(${out} "${mask}u" PARENT_SCOPE)
endfunction()

set(SWITCHYARD_KERNEL_DTYPES_MASK "")
if(SWITCHYARD_KERNEL_DTYPES)
  switchyard_dtype_mask(SWITCHYARD_KERNEL_DTYPES_MASK ${SWITCHYARD_KERNEL_DTYPES})
  add_compile_definitions(SY_KERNEL_DTYPES=${SWITCHYARD_KERNEL_DTYPES_MASK})
  message(STATUS "Switchyard: kernels compiled for ${SWITCHYARD_KERNEL_DTYPES} only (SY_KERNEL_DTYPES=${SWITCHYARD_KERNEL_DTYPES_MASK})")
endif()
