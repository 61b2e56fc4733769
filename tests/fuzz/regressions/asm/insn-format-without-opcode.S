.insn i
