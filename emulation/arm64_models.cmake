# The arm64 CPU models without SHA-512 (cortex-a57, -a53, -a72), as ctest
# entries of the cross build (included from emulation/CMakeLists.txt).
#
#   arm64-model.conformance       what differs between models: CPU detection,
#                                 dispatch (Dispatch.MatchesCpuModel against
#                                 emulation/cpu_models.json), finup_2x, and
#                                 the SHA-512 rows that must fall back
#   arm64-model.fuzz.<harness>    every available backend of a family on the
#                                 corpus: none may fault where it is selected
#
# The Cortex test presets run only these (label arm64-model): every other
# test would repeat, on the same binaries, what the max model already ran.
# The max preset leaves them out for the same reason. QEMU_CPU, set by the
# preset, picks the model.
set(_corpus ${PROJECT_SOURCE_DIR}/fuzz/corpus)
set(_filter "Dispatch.*:Cpu*:*Finup2x*:*/sha512_generic:*/sha512_arm64_ce")
add_test(NAME arm64-model.conformance COMMAND conformance_tests --gtest_filter=${_filter})
set_tests_properties(arm64-model.conformance PROPERTIES LABELS "emulation;arm64-model" TIMEOUT 900)
get_property(_families GLOBAL PROPERTY LOCKSTEP_FAMILIES)
foreach(family ${_families})
  add_test(NAME arm64-model.fuzz.${family}
           COMMAND fuzz_${family}_replay --runs 2000 --seed 1 ${_corpus}/${family})
  set_tests_properties(arm64-model.fuzz.${family} PROPERTIES
    LABELS "emulation;arm64-model" TIMEOUT 900)
endforeach()
