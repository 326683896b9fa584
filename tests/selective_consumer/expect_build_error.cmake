# cmake -DCODEGEN=switchyard_codegen -DSCHEMAS=operator_schemas.yaml -DPROGRAM=add.pte
#       -DYAML=double_kernels.yaml -DOUT=dir -P expect_build_error.cmake
# Selects add.pte's operators and generates double_kernels.yaml's operators for them (as
# generate_bindings_for_kernels(... DISPATCH_KEY CPU) does), which must fail naming the operator,
# the kernel key add.pte needs and the YAML line: what a selective build reports for a program
# whose kernel the YAML does not have.
execute_process(COMMAND ${CODEGEN} select --output ${OUT}/selected_operators.yaml --model ${PROGRAM} --schemas ${SCHEMAS}
                RESULT_VARIABLE status ERROR_VARIABLE error)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "selecting add.pte's operators failed: ${error}")
endif()
execute_process(COMMAND ${CODEGEN} gen --dispatch-key CPU --functions-yaml ${YAML}
                        --selected-ops ${OUT}/selected_operators.yaml --output-dir ${OUT}
                RESULT_VARIABLE status ERROR_VARIABLE error)
set(expected "double_kernels.yaml:3: error: selective build: ${PROGRAM} calls aten::add.out with kernel key v1/6;0,1|6;0,1|6;0,1")
string(FIND "${error}" "${expected}" found)
if(status EQUAL 0 OR found EQUAL -1)
  message(FATAL_ERROR "expected the codegen to fail with\n  ${expected}\nbut it exited with ${status}:\n${error}")
endif()
message(STATUS "a kernel add.pte needs and the YAML lacks fails the build:\n${error}")
