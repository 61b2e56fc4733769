//===- sc_main.cpp - the sc_main symbol libsystemc requires ---------------===//
//
// libsystemc.so references sc_main (its own main() would call it). opforge
// programs have their own main and drive SystemC through model::Device, so
// this one is never called; it only satisfies the link (CMake forces it in
// with --undefined=sc_main).
//
//===----------------------------------------------------------------------===//
#include "opforge/model/sc_common.h"

extern "C" int sc_main(int, char **) { return 1; }
