//===- csr.h - CSR numbers and bit fields the ISS implements --------------===//
#pragma once

#include <cstdint>

namespace opforge::isa::csr {

// Floating point.
inline constexpr uint16_t kFflags = 0x001, kFrm = 0x002, kFcsr = 0x003;
// Vector.
inline constexpr uint16_t kVstart = 0x008, kVxsat = 0x009, kVxrm = 0x00a, kVcsr = 0x00f;
inline constexpr uint16_t kVl = 0xc20, kVtype = 0xc21, kVlenb = 0xc22;
// Unprivileged counters (read-only shadows).
inline constexpr uint16_t kCycle = 0xc00, kTime = 0xc01, kInstret = 0xc02;
inline constexpr uint16_t kHpmcounter3 = 0xc03, kHpmcounter31 = 0xc1f;
// Machine mode.
inline constexpr uint16_t kMvendorid = 0xf11, kMarchid = 0xf12, kMimpid = 0xf13, kMhartid = 0xf14;
inline constexpr uint16_t kMstatus = 0x300, kMisa = 0x301, kMie = 0x304, kMtvec = 0x305;
inline constexpr uint16_t kMcounteren = 0x306, kMcountinhibit = 0x320;
inline constexpr uint16_t kMscratch = 0x340, kMepc = 0x341, kMcause = 0x342, kMtval = 0x343,
                          kMip = 0x344;
inline constexpr uint16_t kMcycle = 0xb00, kMinstret = 0xb02;
inline constexpr uint16_t kMhpmcounter3 = 0xb03, kMhpmcounter31 = 0xb1f;
inline constexpr uint16_t kMhpmevent3 = 0x323, kMhpmevent31 = 0x33f;
// Xmtia read-only machine CSRs (docs/isa/xmtia-contract.md).
inline constexpr uint16_t kMtiaPidX = 0xfc0, kMtiaPidY = 0xfc1, kMtiaPidZ = 0xfc2;
inline constexpr uint16_t kMtiaNprogX = 0xfc3, kMtiaNprogY = 0xfc4, kMtiaNprogZ = 0xfc5;
inline constexpr uint16_t kMtiaPeId = 0xfc6, kMtiaGridRows = 0xfc7, kMtiaGridCols = 0xfc8;
inline constexpr uint16_t kMtiaSfuPrec = 0xfc9;

// mstatus fields.
inline constexpr uint64_t kMstatusMie = 1ull << 3, kMstatusMpie = 1ull << 7;
inline constexpr uint64_t kMstatusVs = 3ull << 9, kMstatusMpp = 3ull << 11, kMstatusFs = 3ull << 13;
inline constexpr uint64_t kMstatusSd = 1ull << 63;

// fflags bits.
inline constexpr uint32_t kFflagNx = 1, kFflagUf = 2, kFflagOf = 4, kFflagDz = 8, kFflagNv = 16;

}  // namespace opforge::isa::csr

namespace opforge::isa::cause {
inline constexpr uint64_t kInsnMisaligned = 0, kInsnAccessFault = 1, kIllegalInsn = 2,
                          kBreakpoint = 3;
inline constexpr uint64_t kLoadMisaligned = 4, kLoadAccessFault = 5, kStoreMisaligned = 6,
                          kStoreAccessFault = 7;
inline constexpr uint64_t kEcallU = 8, kEcallS = 9, kEcallM = 11;
// Name of an exception cause ("illegal instruction"), "unknown" otherwise.
const char *name(uint64_t cause);
}  // namespace opforge::isa::cause
