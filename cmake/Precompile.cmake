# lockstep_precompile(<target> <header>...): a target's heavy third-party
# headers parsed once per target instead of once per file. It pays where
# parsing is the cost: GoogleTest in conformance_tests' 22 files (118 -> 78
# CPU seconds with GCC). Not for nlohmann/json, whose cost is instantiating
# and optimising its templates in every file: there a precompiled header
# made lockstep_cli and the vector readers slower. LOCKSTEP_PCH=OFF builds
# without, which also shows a file that forgot one of its own #includes.
option(LOCKSTEP_PCH "Precompile the heavy third-party headers of the targets that gain" ON)
function(lockstep_precompile target)
  if(LOCKSTEP_PCH)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()
