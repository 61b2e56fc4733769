"""Every program takes a ticket with a scalar tl.atomic_add on one counter and records it; an
integer tl.atomic_cas on a per-program slot returns the value it found."""
import triton
import triton.language as tl


@triton.jit
def atomic_ticket_kernel(counter_ptr, tickets_ptr, slots_ptr, found_ptr, ROUNDS: tl.constexpr):
    pid = tl.program_id(0)
    for r in range(ROUNDS):
        t = tl.atomic_add(counter_ptr, 1)
        tl.store(tickets_ptr + pid * ROUNDS + r, t)
    found = tl.atomic_cas(slots_ptr + pid, pid, -pid)
    tl.store(found_ptr + pid, found)
