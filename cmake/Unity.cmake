# lockstep_unity(<target> <files per batch>): compile a target's files in
# batches, each batch as one translation unit. It pays where every file
# instantiates the same heavy templates (nlohmann/json, GoogleTest, fmt):
# a batch instantiates and optimises them once instead of once per file.
# Two or more batches keep both cores of a small machine busy. Not for
# impl/, whose files carry their own ISA flags and macros. LOCKSTEP_UNITY=OFF
# builds file by file (what an editor's single-file compile sees).
option(LOCKSTEP_UNITY "Compile the json- and test-heavy targets in batches" ON)
function(lockstep_unity target batch)
  if(LOCKSTEP_UNITY)
    set_target_properties(${target} PROPERTIES
      UNITY_BUILD ON UNITY_BUILD_MODE BATCH UNITY_BUILD_BATCH_SIZE ${batch})
    # GCC takes every file after a batch's first for a header, and warns of
    # a test fixture in its anonymous namespace as it would in a header.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
    endif()
  endif()
endfunction()
