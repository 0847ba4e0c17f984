# x86 CPU models under qemu-x86_64 and Intel SDE, as ctest entries
# (included from emulation/CMakeLists.txt in non-ASan x86-64 Linux builds).
#
#   x86-model.<model>       conformance_tests under qemu-x86_64 -cpu <model>
#   x86-model.<model>.fuzz  fuzz_sha256_replay, corpus + random programs
#   sde                     conformance_tests under each Intel SDE CPU
#
# Without qemu-x86_64 (or SDE) the entries stay and report SKIP with the
# reason (exit 77); LOCKSTEP_REQUIRE_ALL=1 makes that a failure.

find_program(LOCKSTEP_QEMU_X86_64 qemu-x86_64)
set(_run_model ${CMAKE_CURRENT_LIST_DIR}/qemu/run-x86-model)
set(_corpus ${PROJECT_SOURCE_DIR}/fuzz/corpus/sha256)

# The default SHA-256/SHA-224 backend each model must select, from what the
# model reports under QEMU 7.2 (lockstep_cpu_report):
#   qemu64       sse2                                generic
#   Nehalem      sse2 ssse3 sse4_1                   generic
#   SandyBridge  sse2 ssse3 sse4_1 avx               generic (no AVX2)
#   Haswell      sse2 ssse3 sse4_1 avx avx2 bmi2     x86-avx2 (no SHA-NI)
set(_select_qemu64 sha256/generic)
set(_select_Nehalem sha256/generic)
set(_select_SandyBridge sha256/generic)
set(_select_Haswell sha256/x86-avx2)

# Left out under the models (and SDE):
# - CpuDetect.AgreesWithProcCpuinfo: /proc/cpuinfo under qemu-user is the
#   host's, not the model's.
# - HashConformance.InterruptContext*: QEMU 7.2 enters x86-64 signal handlers
#   with the stack 16-byte aligned where the ABI wants 8 mod 16, so the
#   handler's aligned SSE stores fault (SIGSEGV) in any backend. The same
#   code runs those cases natively.
set(_gtest_filter "-CpuDetect.AgreesWithProcCpuinfo:*/HashConformance.InterruptContext*")
set(_fuzz_runs 5000)  # random programs per model, after the corpus

# The model's expectations must hold whatever the caller's environment says.
set(_clean_env
  LOCKSTEP_CPU=unset:
  LOCKSTEP_CPU_EMULATED_BY=unset:
  LOCKSTEP_EMULATE=unset:
  LOCKSTEP_FUZZ_BACKEND=unset:
  QEMU_CPU=unset:)

foreach(model qemu64 Nehalem SandyBridge Haswell)
  set(_expect "sha256=${_select_${model}},sha224=${_select_${model}}")
  add_test(NAME x86-model.${model}
    COMMAND ${_run_model} --qemu ${LOCKSTEP_QEMU_X86_64} ${model} --
            $<TARGET_FILE:conformance_tests> --gtest_filter=${_gtest_filter})
  add_test(NAME x86-model.${model}.fuzz
    COMMAND ${_run_model} --qemu ${LOCKSTEP_QEMU_X86_64} --report $<TARGET_FILE:lockstep_cpu_report>
            ${model} -- $<TARGET_FILE:fuzz_sha256_replay>
            --runs ${_fuzz_runs} --seed 1 ${_corpus})
  set_tests_properties(x86-model.${model} PROPERTIES
    ENVIRONMENT_MODIFICATION "${_clean_env};LOCKSTEP_EXPECT_SELECTED=set:${_expect}")
  set_tests_properties(x86-model.${model}.fuzz PROPERTIES
    ENVIRONMENT_MODIFICATION "${_clean_env};LOCKSTEP_EXPECT_SELECTED=unset:")
  set_tests_properties(x86-model.${model} x86-model.${model}.fuzz PROPERTIES
    SKIP_RETURN_CODE 77
    LABELS "emulation;x86-model"
    TIMEOUT 900)
endforeach()

# Intel SDE: one line per CPU; skipped (77) where SDE_PATH is not set.
add_test(NAME sde
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/sde/run-sde --log-dir ${CMAKE_CURRENT_BINARY_DIR}/sde-logs
          $<TARGET_FILE:conformance_tests> --gtest_filter=${_gtest_filter})
set_tests_properties(sde PROPERTIES
  ENVIRONMENT_MODIFICATION "${_clean_env}"
  SKIP_RETURN_CODE 77
  LABELS "emulation;sde"
  TIMEOUT 7200)
