# The CPU model table, emulation/cpu_models.json, for CMake: the models each
# emulator runs and the cases it must leave out. The same file is compiled
# into lockstep_cpu_models for the dispatch test and `lockstep run`.
set(LOCKSTEP_CPU_MODELS_FILE ${CMAKE_CURRENT_LIST_DIR}/cpu_models.json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${LOCKSTEP_CPU_MODELS_FILE})
file(READ ${LOCKSTEP_CPU_MODELS_FILE} LOCKSTEP_CPU_MODELS_JSON)
# Functions run in their caller's scope: they read the table from here.
set_property(GLOBAL PROPERTY LOCKSTEP_CPU_MODELS_JSON "${LOCKSTEP_CPU_MODELS_JSON}")

# lockstep_cpu_models_of(<emulator> <out>): the model names ("Haswell", "skx")
# of one emulator, in table order.
function(lockstep_cpu_models_of emulator out)
  get_property(LOCKSTEP_CPU_MODELS_JSON GLOBAL PROPERTY LOCKSTEP_CPU_MODELS_JSON)
  set(cpus)
  string(JSON count LENGTH "${LOCKSTEP_CPU_MODELS_JSON}" models)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON e GET "${LOCKSTEP_CPU_MODELS_JSON}" models ${i} emulator)
    if(e STREQUAL emulator)
      string(JSON cpu GET "${LOCKSTEP_CPU_MODELS_JSON}" models ${i} cpu)
      list(APPEND cpus ${cpu})
    endif()
  endforeach()
  set(${out} ${cpus} PARENT_SCOPE)
endfunction()

# lockstep_emulator_skip_tests(<emulator> <out>): the gtest filter that runs
# everything the emulator can ("-A:B" leaves A and B out; "" runs all).
function(lockstep_emulator_skip_tests emulator out)
  get_property(LOCKSTEP_CPU_MODELS_JSON GLOBAL PROPERTY LOCKSTEP_CPU_MODELS_JSON)
  string(JSON skip GET "${LOCKSTEP_CPU_MODELS_JSON}" emulators ${emulator} skip_tests)
  if(skip STREQUAL "")
    set(${out} "*" PARENT_SCOPE)
  else()
    set(${out} "-${skip}" PARENT_SCOPE)
  endif()
endfunction()

# The table compiled in, for the code that derives expectations from it.
configure_file(${CMAKE_CURRENT_LIST_DIR}/models/cpu_models_json.cpp.in
               ${CMAKE_CURRENT_BINARY_DIR}/cpu_models_json.cpp @ONLY)
# cpu_fields.h, its reader of a CPU's fields, is the dispatch profiles' too.
add_library(lockstep_cpu_models STATIC
  ${CMAKE_CURRENT_LIST_DIR}/models/cpu_models.cpp
  ${CMAKE_CURRENT_LIST_DIR}/models/cpu_fields.cpp
  ${CMAKE_CURRENT_BINARY_DIR}/cpu_models_json.cpp)
target_include_directories(lockstep_cpu_models PUBLIC ${CMAKE_CURRENT_LIST_DIR}/models)
target_link_libraries(lockstep_cpu_models PUBLIC lockstep_cpu nlohmann_json::nlohmann_json)
