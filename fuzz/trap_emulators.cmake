# The fuzz replay drivers once more under each trap emulator (emulation/trap),
# restricted to the backends that need it: "<name>-trap:fuzz.<family>.replay"
# with LOCKSTEP_EMULATE=<name> and LOCKSTEP_FUZZ_BACKEND=*/x86-<name>, for
# the families with an impl/<family>/x86_<name>.cpp. The conformance suites
# already run there; these add the fuzzer's placements and splits.
# Included from fuzz/CMakeLists.txt, after the harnesses are defined.
get_property(_trap_names GLOBAL PROPERTY LOCKSTEP_TRAP_EMULATORS)
foreach(_name ${_trap_names})
  foreach(_family ${LOCKSTEP_FUZZERS})
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/impl/${_family}/x86_${_name}.cpp)
      continue()
    endif()
    add_test(NAME ${_name}-trap:fuzz.${_family}.replay
             COMMAND fuzz_${_family}_replay --runs 3000 --seed 1 ${LOCKSTEP_CORPUS}/${_family})
    set_tests_properties(${_name}-trap:fuzz.${_family}.replay PROPERTIES
      ENVIRONMENT "LOCKSTEP_EMULATE=${_name};LOCKSTEP_FUZZ_BACKEND=*/x86-${_name}"
      SKIP_RETURN_CODE 77
      LABELS "fuzz;emulation"
      TIMEOUT 600)
  endforeach()
endforeach()
