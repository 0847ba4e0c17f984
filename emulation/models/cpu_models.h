// The CPU model table (emulation/cpu_models.json), compiled in: which CPU
// models lockstep runs under, through which emulator, and what each one
// executes. The expected backend of every family on a model is worked out
// from `features` and the registries, never written down.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cpu/cpu.h"

namespace lockstep::models {

// Emulator is how a model runs: "qemu-x86_64", "sde", "qemu-aarch64".
struct Emulator {
  std::string name;
  cpu::Arch arch = cpu::Arch::kOther;
  std::string skip_tests;  // a gtest filter of cases that cannot run under it
  std::string why;         // the reason for skip_tests, for people
};

struct Model {
  std::string id;        // "<emulator>-<cpu>": "qemu-x86_64-Haswell", "sde-skx"
  std::string emulator;  // a key of Table::emulators
  std::string cpu;       // the emulator's own name for it: "Haswell", "skx"
  cpu::Arch arch = cpu::Arch::kOther;
  cpu::FeatureSet features;  // what it executes, in lockstep's features
  std::string source;        // where `features` comes from
};

struct Table {
  std::vector<Emulator> emulators;
  std::vector<Model> models;
};

// parse reads a table in the format of emulation/cpu_models.json. On bad
// input it returns an empty table and sets `error` to a message naming
// `file`, the model and the field.
Table parse(std::string_view json, std::string_view file, std::string& error);

// table is the compiled-in emulation/cpu_models.json. It was checked when
// built, so a failure here is a build fault: it prints and aborts.
const Table& table();

const Model* find(std::string_view id);
const Emulator* find_emulator(std::string_view name);

}  // namespace lockstep::models
