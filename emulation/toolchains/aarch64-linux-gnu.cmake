# Cross toolchain: Debian's g++-aarch64-linux-gnu, run under qemu-aarch64
# (qemu-user). Used by the aarch64-* presets in CMakePresets.json:
#
#   cmake --preset aarch64-max && cmake --build --preset aarch64-max
#   ctest --preset aarch64-max     # or aarch64-a57, aarch64-a53, aarch64-a72
#
# The binaries do not depend on the CPU model, so every aarch64-<model>
# preset shares one build directory, build/aarch64. The emulator command has
# no -cpu: each preset sets QEMU_CPU, which qemu-aarch64 reads itself, and
# which its build and test presets inherit. By hand, outside a preset:
#   QEMU_CPU=cortex-a57 ctest --test-dir build/aarch64
# Without QEMU_CPU, qemu-aarch64 runs its default model, max. Run one model
# at a time: the presets share build/aarch64/Testing.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# Libraries, headers and CMake packages come from the target's directory
# only: finding the host's x86-64 ones would fail at link time, or worse.
# Programs (ninja, pkg-config, qemu) are the host's.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The host's pkg-config would report the host's x86-64 libraries; search
# only the target's .pc directories (the cross sysroot and Debian multiarch).
set(ENV{PKG_CONFIG_LIBDIR} "/usr/aarch64-linux-gnu/lib/pkgconfig:/usr/lib/aarch64-linux-gnu/pkgconfig")

# ctest, gtest_discover_tests and add_test run target programs through this.
# The presets set it (with the CPU model left to QEMU_CPU); this default
# makes the file usable on its own. QEMU's -L finds the target's dynamic
# loader and libraries.
if(NOT DEFINED CMAKE_CROSSCOMPILING_EMULATOR)
  set(CMAKE_CROSSCOMPILING_EMULATOR "qemu-aarch64;-L;/usr/aarch64-linux-gnu"
      CACHE STRING "Runs target programs on the host")
endif()
