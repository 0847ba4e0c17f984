# lockstep_add_module(<target> SOURCES <files...> [LIBRARIES <libs...>]
#                     [INCLUDE_DIRS <dirs...>])
#
# Builds a lockstep module, lib<target>.so, for `lockstep --module`: see
# include/lockstep/module.h. Usable from lockstep's tree and from any other
# project, which includes this file by path:
#
#   project(mymodule LANGUAGES C ASM)   # ASM only for assembly sources
#   include(<lockstep>/cmake/LockstepModule.cmake)
#   lockstep_add_module(mine SOURCES mine.c mine.S)
#
# The caller enables the languages: CMake cannot do it inside a function.

function(lockstep_add_module target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;LIBRARIES;INCLUDE_DIRS")
  if(NOT arg_SOURCES OR arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "lockstep_add_module(${target}): SOURCES <files...> "
                        "[LIBRARIES <libs...>] [INCLUDE_DIRS <dirs...>], "
                        "not '${arg_UNPARSED_ARGUMENTS}'")
  endif()

  # MODULE, not SHARED: nothing links against it, lockstep dlopens it.
  add_library(${target} MODULE ${arg_SOURCES})
  # This file's directory, not the caller's, so an out-of-tree project
  # finds lockstep's headers wherever it includes this from.
  target_include_directories(${target} PRIVATE
    "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../include" ${arg_INCLUDE_DIRS})
  target_link_libraries(${target} PRIVATE ${arg_LIBRARIES})
  # C11 with GNU extensions left on: kernel and library code uses them.
  set_target_properties(${target} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra>)

  # Export the entry point, and the kernel environment's pointer which the
  # loader fills in (lockstep/kernel_host.h: a module built with
  # kernel_compat.h gets the environment, built this way or with cc
  # -shared), and nothing else, without asking the sources to mark
  # anything: a module's other symbols (kernel code has generic names such
  # as sha256_transform) must not interpose on lockstep's own or on another
  # module's.
  set(map "${CMAKE_CURRENT_BINARY_DIR}/${target}.map")
  file(CONFIGURE OUTPUT "${map}"
       CONTENT "{ global: lockstep_module_v1; lockstep_kernel_host_v1; local: *; };\n")
  target_link_options(${target} PRIVATE "LINKER:--version-script=${map}")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${map}")
endfunction()
