# x86 CPU models under qemu-x86_64 and Intel SDE, as ctest entries
# (included from emulation/CMakeLists.txt in non-ASan x86-64 Linux builds).
#
#   x86-model.<model>       conformance_tests under qemu-x86_64 -cpu <model>
#   x86-model.<model>.fuzz.<harness>  fuzz_<harness>_replay, corpus + random programs
#   sde                     conformance_tests under each Intel SDE CPU
#
# Without qemu-x86_64 (or SDE) the entries stay and report SKIP with the
# reason (exit 77); LOCKSTEP_REQUIRE_ALL=1 makes that a failure.

find_program(LOCKSTEP_QEMU_X86_64 qemu-x86_64)
set(_run_model ${CMAKE_CURRENT_LIST_DIR}/qemu/run-x86-model)
set(_corpus ${PROJECT_SOURCE_DIR}/fuzz/corpus)

# The default backend each model must select, from what the model reports
# under QEMU 7.2 (lockstep_cpu_report); SHA-256 and SHA-512 alike, then ChaCha:
#   qemu64       sse2                                generic    generic
#   Nehalem      sse2 ssse3 sse4_1                   generic    x86-ssse3
#   SandyBridge  sse2 ssse3 sse4_1 avx               generic    x86-ssse3 (no AVX2)
#   Haswell      sse2 ssse3 sse4_1 avx avx2 bmi2     x86-avx2   x86-avx2 (no SHA-NI, SHA512, AVX-512)
set(_select_qemu64 generic generic)
set(_select_Nehalem generic x86-ssse3)
set(_select_SandyBridge generic x86-ssse3)
set(_select_Haswell x86-avx2 x86-avx2)

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
  list(GET _select_${model} 0 _s)
  list(GET _select_${model} 1 _c)
  set(_expect "sha256=sha256/${_s},sha224=sha256/${_s},sha512=sha512/${_s},sha384=sha512/${_s}")
  string(APPEND _expect ",chacha20=chacha/${_c},chacha12=chacha/${_c}")
  add_test(NAME x86-model.${model}
    COMMAND ${_run_model} --qemu ${LOCKSTEP_QEMU_X86_64} ${model} --
            $<TARGET_FILE:conformance_tests> --gtest_filter=${_gtest_filter})
  set_tests_properties(x86-model.${model} PROPERTIES
    ENVIRONMENT_MODIFICATION "${_clean_env};LOCKSTEP_EXPECT_SELECTED=set:${_expect}"
    SKIP_RETURN_CODE 77
    LABELS "emulation;x86-model"
    TIMEOUT 900)
  foreach(harness sha256 sha512 chacha)
    add_test(NAME x86-model.${model}.fuzz.${harness}
      COMMAND ${_run_model} --qemu ${LOCKSTEP_QEMU_X86_64} --report $<TARGET_FILE:lockstep_cpu_report>
              ${model} -- $<TARGET_FILE:fuzz_${harness}_replay>
              --runs ${_fuzz_runs} --seed 1 ${_corpus}/${harness})
    set_tests_properties(x86-model.${model}.fuzz.${harness} PROPERTIES
      ENVIRONMENT_MODIFICATION "${_clean_env};LOCKSTEP_EXPECT_SELECTED=unset:"
      SKIP_RETURN_CODE 77
      LABELS "emulation;x86-model"
      TIMEOUT 900)
  endforeach()
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
