# x86 CPU models under qemu-x86_64 and Intel SDE, as ctest entries
# (included from emulation/CMakeLists.txt in non-ASan x86-64 Linux builds).
#
#   x86-model.<model>.part<n>  conformance_tests under qemu-x86_64 -cpu <model>,
#                           in thirds
#   x86-model.<model>.fuzz.<harness>  fuzz_<harness>_replay, corpus + random programs
#   sde                     conformance_tests under each Intel SDE CPU
#
# Each model's entries carry the label qemu-x86_64:<model> too, so that a
# run can pick one model (ci/test's every-commit tier runs SandyBridge).
#
# Without qemu-x86_64 (or SDE) the entries stay and report SKIP with the
# reason (exit 77); LOCKSTEP_REQUIRE_ALL=1 makes that a failure.

find_program(LOCKSTEP_QEMU_X86_64 qemu-x86_64)
set(_run_model ${CMAKE_CURRENT_LIST_DIR}/qemu/run-x86-model)
set(_corpus ${PROJECT_SOURCE_DIR}/fuzz/corpus)

# The models and what they execute come from cpu_models.json; what each
# must select is worked out by the dispatch test from LOCKSTEP_CPU_MODEL.
lockstep_cpu_models_of(qemu-x86_64 _qemu_models)
lockstep_emulator_skip_tests(qemu-x86_64 _gtest_filter)
lockstep_cpu_models_of(sde _sde_models)
lockstep_emulator_skip_tests(sde _sde_filter)
string(REPLACE ";" " " _sde_models "${_sde_models}")  # run-sde takes one word list
set(_fuzz_runs 5000)  # random programs per model, after the corpus
get_property(_families GLOBAL PROPERTY LOCKSTEP_FAMILIES)  # one harness each

# Everything these runs execute, as one target: `cmake --build --target
# x86_model_binaries` builds just that.
add_custom_target(x86_model_binaries)
add_dependencies(x86_model_binaries conformance_tests lockstep_cpu_report)
foreach(family ${_families})
  add_dependencies(x86_model_binaries fuzz_${family}_replay)
endforeach()

# The model's expectations must hold whatever the caller's environment says.
set(_clean_env
  LOCKSTEP_CPU=unset:
  LOCKSTEP_CPU_MODEL=unset:
  LOCKSTEP_CPU_EMULATED_BY=unset:
  LOCKSTEP_EMULATE=unset:
  LOCKSTEP_FUZZ_BACKEND=unset:
  QEMU_CPU=unset:)

# The suite in thirds (GoogleTest's sharding), so that one model's run
# keeps both cores busy: under QEMU the whole suite is one long process.
# Three, not two: GoogleTest deals the cases out in turn, and with two the
# backends a model lacks (skipped at once) fell mostly into one half.
set(_shards 3)
math(EXPR _last_shard "${_shards} - 1")
foreach(model ${_qemu_models})
  foreach(shard RANGE ${_last_shard})
    add_test(NAME x86-model.${model}.part${shard}
      COMMAND ${_run_model} --qemu ${LOCKSTEP_QEMU_X86_64} ${model} --
              $<TARGET_FILE:conformance_tests> --gtest_filter=${_gtest_filter})
    set_tests_properties(x86-model.${model}.part${shard} PROPERTIES
      ENVIRONMENT_MODIFICATION "${_clean_env};LOCKSTEP_CPU_MODEL=set:qemu-x86_64-${model};GTEST_TOTAL_SHARDS=set:${_shards};GTEST_SHARD_INDEX=set:${shard}"
      SKIP_RETURN_CODE 77
      LABELS "emulation;x86-model;qemu-x86_64:${model}"
      TIMEOUT 900)
  endforeach()
  foreach(harness ${_families})
    add_test(NAME x86-model.${model}.fuzz.${harness}
      COMMAND ${_run_model} --qemu ${LOCKSTEP_QEMU_X86_64} --report $<TARGET_FILE:lockstep_cpu_report>
              ${model} -- $<TARGET_FILE:fuzz_${harness}_replay>
              --runs ${_fuzz_runs} --seed 1 ${_corpus}/${harness})
    set_tests_properties(x86-model.${model}.fuzz.${harness} PROPERTIES
      ENVIRONMENT_MODIFICATION "${_clean_env};LOCKSTEP_CPU_MODEL=unset:"
      SKIP_RETURN_CODE 77
      LABELS "emulation;x86-model;qemu-x86_64:${model}"
      TIMEOUT 900)
  endforeach()
endforeach()

# Intel SDE: one line per CPU; skipped (77) where SDE_PATH is not set.
add_test(NAME sde
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/sde/run-sde --cpus "${_sde_models}"
          --log-dir ${CMAKE_CURRENT_BINARY_DIR}/sde-logs
          $<TARGET_FILE:conformance_tests> --gtest_filter=${_sde_filter})
set_tests_properties(sde PROPERTIES
  ENVIRONMENT_MODIFICATION "${_clean_env}"
  SKIP_RETURN_CODE 77
  LABELS "emulation;sde"
  TIMEOUT 7200)
