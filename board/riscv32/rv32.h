// The RISC-V machine-mode registers and the CLINT of QEMU's `virt` machine that the board
// code uses (RISC-V Privileged Architecture 1.11; the SiFive CLINT layout QEMU emulates),
// as inline functions: CSR reads and writes, the CLINT's memory-mapped words, interrupt
// masking.
//
// GCC 12 wants the Zicsr extension named for csrr/csrw/csrs/csrc, while the multilib
// spelling the toolchain compiles with (-march=rv32imac) leaves it out: each access turns
// it on for its own instruction only (.option arch, +zicsr).
#ifndef BOARD_RISCV32_RV32_H_
#define BOARD_RISCV32_RV32_H_

#include <cstdint>

#define TICKBENCH_CSR_ASM(insn) ".option push\n.option arch, +zicsr\n" insn "\n.option pop"
#define TICKBENCH_CSR_READ(csr, out) asm volatile(TICKBENCH_CSR_ASM("csrr %0, " #csr) : "=r"(out))
#define TICKBENCH_CSR_WRITE(op, csr, value) \
  asm volatile(TICKBENCH_CSR_ASM(op " " #csr ", %0") : : "r"(value) : "memory")

namespace tickbench::board::riscv32 {

// mstatus.MIE, mie/mip bits: machine software (3) and timer (7) interrupts.
inline constexpr uint32_t kMstatusMie = 1u << 3;
inline constexpr uint32_t kMachineSoftware = 1u << 3;
inline constexpr uint32_t kMachineTimer = 1u << 7;
// mcause of a machine software / timer interrupt.
inline constexpr uint32_t kCauseSoftware = 0x80000003u;
inline constexpr uint32_t kCauseTimer = 0x80000007u;

#define TICKBENCH_CSR_GETTER(Name, csr) \
  inline uint32_t Name() {              \
    uint32_t value;                     \
    TICKBENCH_CSR_READ(csr, value);     \
    return value;                       \
  }
TICKBENCH_CSR_GETTER(Mcause, mcause)
TICKBENCH_CSR_GETTER(Mepc, mepc)
TICKBENCH_CSR_GETTER(Mstatus, mstatus)
TICKBENCH_CSR_GETTER(Mip, mip)
#undef TICKBENCH_CSR_GETTER

inline void SetMtvec(uint32_t value) { TICKBENCH_CSR_WRITE("csrw", mtvec, value); }
inline void SetMepc(uint32_t value) { TICKBENCH_CSR_WRITE("csrw", mepc, value); }
inline void SetMstatus(uint32_t value) { TICKBENCH_CSR_WRITE("csrw", mstatus, value); }
inline void EnableInterruptSources(uint32_t bits) { TICKBENCH_CSR_WRITE("csrs", mie, bits); }
inline void EnableInterrupts() { TICKBENCH_CSR_WRITE("csrs", mstatus, kMstatusMie); }

// Masks interrupts (mstatus.MIE) and returns the previous mstatus, for RestoreInterrupts.
inline uint32_t DisableInterrupts() {
  uint32_t previous;
  asm volatile(TICKBENCH_CSR_ASM("csrrc %0, mstatus, %1")
               : "=r"(previous)
               : "r"(kMstatusMie)
               : "memory");
  return previous;
}
inline void RestoreInterrupts(uint32_t previous) {
  if (previous & kMstatusMie) EnableInterrupts();
}

// The cycle counter (mcycle, mcycleh): 64 bits read as high, low, high until the high word
// holds.
inline uint64_t Mcycle() {
  uint32_t high, low, again;
  do {
    TICKBENCH_CSR_READ(mcycleh, high);
    TICKBENCH_CSR_READ(mcycle, low);
    TICKBENCH_CSR_READ(mcycleh, again);
  } while (high != again);
  return (uint64_t{high} << 32) | low;
}

// The CLINT of QEMU's `virt` machine, hart 0.
inline volatile uint32_t& At(uintptr_t address) {
  return *reinterpret_cast<volatile uint32_t*>(address);
}
inline volatile uint32_t& Msip() { return At(0x02000000); }
inline volatile uint32_t& MtimecmpLow() { return At(0x02004000); }
inline volatile uint32_t& MtimecmpHigh() { return At(0x02004004); }
inline volatile uint32_t& MtimeLow() { return At(0x0200BFF8); }
inline volatile uint32_t& MtimeHigh() { return At(0x0200BFFC); }

inline constexpr double kMtimeHz = 10e6;  // `virt`'s timebase-frequency

// mtime: 64 bits read as high, low, high until the high word holds.
inline uint64_t Mtime() {
  uint32_t high, low;
  do {
    high = MtimeHigh();
    low = MtimeLow();
  } while (MtimeHigh() != high);
  return (uint64_t{high} << 32) | low;
}

// mtimecmp, written so that it never passes through a value below both the old and the
// new one (which would raise a spurious interrupt): high word to all ones, low, high.
inline void SetMtimecmp(uint64_t value) {
  MtimecmpHigh() = 0xFFFFFFFFu;
  MtimecmpLow() = static_cast<uint32_t>(value);
  MtimecmpHigh() = static_cast<uint32_t>(value >> 32);
}

}  // namespace tickbench::board::riscv32

#endif  // BOARD_RISCV32_RV32_H_
