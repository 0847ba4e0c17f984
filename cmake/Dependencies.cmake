# Third-party libraries, all Debian packages (ci/install-deps installs them).
#
# A native build requires every one but Google Benchmark (lockstep_bench is
# built where it is found). A cross build (the aarch64 presets) cannot link
# the host's x86-64 libraries and has no target builds of them here, so there:
#   - Crypto++ and OpenSSL are optional; without both, the oracle is built in
#     its "none" mode (oracle/none.cpp: nothing available);
#   - GoogleTest is built from the sources Debian's libgtest-dev ships;
#   - nlohmann_json, fmt and CLI11 are used header-only, from the host's
#     headers, which are the same for every architecture.
if(NOT LOCKSTEP_TESTS)
  return()
endif()

find_package(Threads REQUIRED)

# OSS-Fuzz runners have neither Crypto++ nor OpenSSL: its build.sh links them
# (and fmt, header-only) into the fuzzers.
option(LOCKSTEP_STATIC_ORACLE "Link the oracle's libraries statically" OFF)
# OSS-Fuzz and ClusterFuzzLite build the oracle from source with the
# fuzzers' own flags (.clusterfuzzlite/build.sh): Crypto++ alone there.
option(LOCKSTEP_ORACLE_OPENSSL "Ask OpenSSL too (the oracle's second opinion)" ON)

if(NOT CMAKE_CROSSCOMPILING)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(CRYPTOPP REQUIRED IMPORTED_TARGET libcrypto++)
  if(LOCKSTEP_STATIC_ORACLE)
    set(OPENSSL_USE_STATIC_LIBS TRUE)
    find_library(LOCKSTEP_CRYPTOPP_ARCHIVE NAMES libcrypto++.a libcryptopp.a
                 HINTS ${CRYPTOPP_LIBRARY_DIRS} REQUIRED)
    set_target_properties(PkgConfig::CRYPTOPP PROPERTIES INTERFACE_LINK_LIBRARIES
                          ${LOCKSTEP_CRYPTOPP_ARCHIVE})
  endif()
  if(LOCKSTEP_ORACLE_OPENSSL)
    find_package(OpenSSL 3.0 REQUIRED COMPONENTS Crypto)
  endif()
  find_package(nlohmann_json 3.10 REQUIRED)
  find_package(GTest REQUIRED)
  find_package(CLI11 REQUIRED)
  find_package(fmt REQUIRED)
  # The isa check disassembles backends (Zydis: it decodes all of AVX-512,
  # where Debian 12's Capstone 4 fails on vprold) found through their ELF
  # symbols (libelf); without either it is not built and says so.
  find_package(zydis QUIET)
  pkg_check_modules(LIBELF QUIET IMPORTED_TARGET libelf)
  # The arm64 backends' isa check: Capstone reads AArch64 code on this
  # host (isa/arm64_reader), for the aarch64 build under QEMU.
  pkg_check_modules(CAPSTONE QUIET IMPORTED_TARGET capstone)
  set(LOCKSTEP_ORACLE_LIBRARIES ON)
  # Google Benchmark is for lockstep_bench alone, so it is optional: without
  # it the benchmarks are not built and every check still is.
  find_package(benchmark QUIET)
  if(benchmark_FOUND)
    # --benchmark_min_time takes a unit ("0.5s") from 1.8 on; 1.7 rejects one.
    if(benchmark_VERSION VERSION_GREATER_EQUAL 1.8)
      set(LOCKSTEP_BENCH_SECONDS_SUFFIX s)
    else()
      set(LOCKSTEP_BENCH_SECONDS_SUFFIX "")
    endif()
  else()
    message(STATUS "lockstep: Google Benchmark (libbenchmark-dev) not found: no lockstep_bench")
  endif()
  return()
endif()

# --- Cross build from here on. ---

# The oracle's libraries, for the target (the toolchain file points
# pkg-config and find_* at the target's directories only).
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(CRYPTOPP QUIET IMPORTED_TARGET libcrypto++)
endif()
find_package(OpenSSL 3.0 QUIET COMPONENTS Crypto)
if(CRYPTOPP_FOUND AND OpenSSL_FOUND)
  set(LOCKSTEP_ORACLE_LIBRARIES ON)
else()
  set(LOCKSTEP_ORACLE_LIBRARIES OFF)
  message(STATUS "lockstep: no Crypto++/OpenSSL for ${CMAKE_SYSTEM_PROCESSOR}: "
                 "oracle in none mode (suites compare with vector files and sha256/generic)")
endif()

# GoogleTest from Debian's sources, providing the targets find_package(GTest)
# gives natively. Built without this project's warning flags (-Werror must
# not judge third-party code) and never installed.
set(LOCKSTEP_GTEST_SOURCE_DIR /usr/src/googletest CACHE PATH
    "GoogleTest sources for cross builds (Debian: libgtest-dev, libgmock-dev)")
if(NOT EXISTS ${LOCKSTEP_GTEST_SOURCE_DIR}/CMakeLists.txt)
  message(FATAL_ERROR "GoogleTest sources not found in ${LOCKSTEP_GTEST_SOURCE_DIR}: "
                      "install libgtest-dev and libgmock-dev (ci/install-deps does)")
endif()
set(INSTALL_GTEST OFF CACHE BOOL "Install GoogleTest (off: built for tests only)")
set(BUILD_GMOCK ON CACHE BOOL "Build GoogleMock")
get_directory_property(_lockstep_compile_options COMPILE_OPTIONS)
set_directory_properties(PROPERTIES COMPILE_OPTIONS "")
add_subdirectory(${LOCKSTEP_GTEST_SOURCE_DIR} ${CMAKE_BINARY_DIR}/_deps/googletest EXCLUDE_FROM_ALL)
set_directory_properties(PROPERTIES COMPILE_OPTIONS "${_lockstep_compile_options}")
# GoogleTest 1.12 names its targets GTest::* itself; older sources do not.
foreach(_lib gtest gtest_main gmock gmock_main)
  if(NOT TARGET GTest::${_lib})
    add_library(GTest::${_lib} ALIAS ${_lib})
  endif()
endforeach()

# Header-only libraries: a directory holding links to just their include
# trees, because adding the host's whole /usr/include would put its C library
# headers before the target's.
set(_lockstep_headers ${CMAKE_BINARY_DIR}/_deps/host-headers)
file(MAKE_DIRECTORY ${_lockstep_headers})
foreach(_dir nlohmann fmt CLI)
  if(NOT IS_DIRECTORY /usr/include/${_dir})
    message(FATAL_ERROR "/usr/include/${_dir} not found: install nlohmann-json3-dev, "
                        "libfmt-dev and libcli11-dev (ci/install-deps does)")
  endif()
  if(NOT EXISTS ${_lockstep_headers}/${_dir})
    file(CREATE_LINK /usr/include/${_dir} ${_lockstep_headers}/${_dir} SYMBOLIC)
  endif()
endforeach()

# Imported, so their include directory is a system one: no warnings from it.
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${_lockstep_headers})
add_library(CLI11::CLI11 INTERFACE IMPORTED)
set_target_properties(CLI11::CLI11 PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${_lockstep_headers})
# fmt's compiled part is a library this target lacks; FMT_HEADER_ONLY
# compiles it inline instead. Both of fmt's target names work.
foreach(_fmt fmt::fmt fmt::fmt-header-only)
  add_library(${_fmt} INTERFACE IMPORTED)
  set_target_properties(${_fmt} PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES ${_lockstep_headers}
    INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1)
endforeach()
