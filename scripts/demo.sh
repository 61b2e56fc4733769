#!/usr/bin/env bash
# demo.sh BUILD_DIR - the main job on the embedded default (mtia-2i).
#
# Runs the most complete flow that exists end to end:
#   1. resolve the default chip configuration;
#   2. record the OpInfo ATen calls of the seed operators with the pinned
#      PyTorch of the project venv (.venv; a small corpus, under results/);
#   3. validate the seed kernel library (generator/library/aten) against every
#      recorded call, through the Triton frontend and the IR interpreter;
#   4. the quickstart scenario (scenarios/quickstart.json): the core ATen
#      overloads from the kernel library compiled through LLVM to RISC-V/RVV
#      machine code, run on the SystemC model of mtia-2i (loosely timed) and
#      checked; a table, and results/quickstart.h5;
#   5. Triton kernels at large shapes on mtia-2i, with cycles and the
#      roofline bound;
#   6. the generation loop itself (opforge generate --verbose: every state
#      transition): four overloads from the inductor provider on the chip, then
#      aten::sigmoid answered by a scripted model (a replay of
#      docs/generator/demo_sigmoid.runlog.jsonl) whose first candidate fails
#      verification on the chip; the feedback printed is the one this run makes
#      from that failure, and the second candidate passes every recorded call.
set -euo pipefail
BUILD=${1:-build}
OPFORGE=$BUILD/harness/opforge
# The project venv's python (scripts/install-deps.sh makes .venv from requirements.txt).
PYTHON=$(dirname "$0")/../.venv/bin/python
if [ ! -x "$PYTHON" ]; then
  echo "demo: no project venv python at $PYTHON; run 'make deps' (scripts/install-deps.sh)" >&2
  exit 1
fi
SEEDS=aten::add.Tensor,aten::mul.Tensor,aten::exp,aten::sigmoid,aten::sum.dim_IntList,aten::_softmax,aten::mm,aten::index_select,aten::cat,aten::where.self
mkdir -p results

echo "== opforge $($OPFORGE version)"
echo
echo "== 1. default chip (scenarios/arch/mtia-2i.json, resolved; first lines)"
$OPFORGE config show | head -n 25
echo "   ... (full: opforge config show)"
echo
echo "== 2. OpInfo calls of the seed operators (the venv's pinned torch, requirements.txt)"
"$PYTHON" scripts/export-opinfo.py \
  --ops add,mul,exp,sigmoid,sum,softmax,mm,index_select,cat,where \
  --out results/demo-corpus.h5
echo
echo "== 3. validate the kernel library on every recorded call (IR interpreter)"
$OPFORGE validate --ops "$SEEDS" --corpus results/demo-corpus.h5 --library generator/library/aten
echo
echo "== 4. quickstart scenario: core overloads on the mtia-2i model (lt), checked"
# --fresh: the demo recomputes every point (a rerun without it refuses to delete finished work)
$OPFORGE sweep scenarios/quickstart.json --fresh
echo
echo "== 5. Triton -> LLVM -> RISC-V/RVV at large shapes on the mtia-2i SystemC model (lt timing)"
# Every bench_kernels entry but matmul_bf16_4k (4096^3: minutes of simulation; `make bench` runs it).
"$BUILD"/bench/kernels/bench_kernels mtia-2i vector_add softmax layer_norm argmax_rows matmul_fp32 \
  matmul_bf16 matmul_bf16_2k matmul_bf16_2k_ld
echo
echo "== 6. the generation loop: generate -> lint -> compile -> run -> verify (feedback on failure),"
echo "   every recorded call of every dtype, on the mtia-2i model; the inductor provider (offline)"
# A run log appends: start both from empty, so the tables below count this run only.
rm -rf results/demo-generate results/demo-generate-replay
$OPFORGE generate --ops aten::add.Tensor,aten::mul.Tensor,aten::exp,aten::where.self \
  --corpus results/demo-corpus.h5 --out results/demo-generate --force --executor chip --verbose
echo
echo "   a scripted model (replay of docs/generator/demo_sigmoid.runlog.jsonl): its first candidate"
echo "   drops the sign of the exponent; the feedback below is computed by this run on the chip"
$OPFORGE generate --ops aten::sigmoid --provider replay --replay docs/generator/demo_sigmoid.runlog.jsonl \
  --max-dialogs 1 --max-calls-per-dialog 2 --corpus results/demo-corpus.h5 \
  --out results/demo-generate-replay --force --executor chip --verbose
