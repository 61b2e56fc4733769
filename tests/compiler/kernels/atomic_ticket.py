"""Every program takes a ticket with a scalar tl.atomic_add on one counter and records it; an
integer tl.atomic_cas on a per-program slot returns the value it found."""
import torch
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


def arange_default(end, *, dtype=None, layout=None, device=None, pin_memory=None):
    counter = torch.zeros(1, dtype=torch.int32, device=device)
    tickets = torch.empty(end, dtype=torch.int32, device=device)
    slots = torch.zeros(max(end, 1), dtype=torch.int32, device=device)
    found = torch.empty(max(end, 1), dtype=torch.int32, device=device)
    if end == 0:
        return tickets
    atomic_ticket_kernel[(end, )](counter, tickets, slots, found, ROUNDS=1)
    return tickets
