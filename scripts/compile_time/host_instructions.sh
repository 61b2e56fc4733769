#!/bin/bash
# host_instructions.sh OPFORGE_BINARY SOURCE_ROOT: host instructions (callgrind Ir) spent in
# llvm_ir_to_object per bench kernel, one opforge process each (a compile-time
# figure that does not depend on the machine's load; docs/compiler/compile_time.md).
# The runtime library's one compile per process (compile_runtime_library, which
# calls llvm_ir_to_object) is left out of the kernels' figures and printed on a
# line of its own (the second toggle turns collection off inside it).
# Needs valgrind. Example: scripts/compile_time/host_instructions.sh build/harness/opforge .
set -eu
if [ $# -ne 2 ]; then echo "usage: $0 OPFORGE_BINARY SOURCE_ROOT" >&2; exit 2; fi
command -v valgrind > /dev/null || { echo "host_instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
O=$1; R=$2; K=$R/tests/compiler/kernels
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
M="M=i32,N=i32,K=i32,stride_am=i32,stride_ak=i32,stride_bk=i32,stride_bn=i32,stride_cm=i32,stride_cn=i32"
run() { name=$1; shift
  if ! valgrind --tool=callgrind --toggle-collect='*llvm_ir_to_object*' \
      --toggle-collect='*compile_runtime_library*' --callgrind-out-file="$tmp/$name.out" \
      "$O" compile "$@" --dump bin > /dev/null 2> "$tmp/$name.err"; then
    echo "host_instructions.sh: $name did not compile:" >&2; tail -5 "$tmp/$name.err" >&2; exit 1
  fi
  awk -v n="$name" '/^totals:/ {printf "%-15s %8.1f M\n", n, $2 / 1e6}' "$tmp/$name.out"
}
run vector_add $K/vector_add.py --signature "x_ptr=*fp32,y_ptr=*fp32,output_ptr=*fp32,n_elements=i32,alpha=fp32" --constexpr BLOCK_SIZE=1024
run softmax $K/fused_softmax.py --signature "output_ptr=*fp32,input_ptr=*fp32,input_row_stride=i32,output_row_stride=i32,n_rows=i32,n_cols=i32" --constexpr BLOCK_SIZE=1024
run layer_norm $K/layer_norm.py --kernel _layer_norm_fwd_rows --signature "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,M=i32,N=i32,eps=fp32" --constexpr BLOCK_SIZE=1024
run argmax_rows $K/argmax.py --kernel argmax_rows_kernel --signature "x_ptr=*fp32,out_ptr=*i64,n_rows=i32,n_cols=i32,row_stride=i32" --constexpr BLOCK_SIZE=1024
run matmul_fp32 $K/matmul.py --signature "a_ptr=*fp32,b_ptr=*fp32,c_ptr=*fp32,$M" --constexpr BLOCK_SIZE_M=32 --constexpr BLOCK_SIZE_N=32 --constexpr BLOCK_SIZE_K=32 --constexpr GROUP_SIZE_M=4
run matmul_bf16 $K/matmul.py --signature "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,$M" --constexpr BLOCK_SIZE_M=64 --constexpr BLOCK_SIZE_N=64 --constexpr BLOCK_SIZE_K=64 --constexpr GROUP_SIZE_M=8
run matmul_bf16_2k $K/matmul.py --signature "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,$M" --constexpr BLOCK_SIZE_M=128 --constexpr BLOCK_SIZE_N=256 --constexpr BLOCK_SIZE_K=64 --constexpr GROUP_SIZE_M=8
# The runtime library's compile alone (once per process), in a matmul's process.
if valgrind --tool=callgrind --toggle-collect='*compile_runtime_library*' --callgrind-out-file="$tmp/rt.out" \
    "$O" compile $K/matmul.py --signature "a_ptr=*bf16,b_ptr=*bf16,c_ptr=*fp32,$M" --constexpr BLOCK_SIZE_M=64 \
    --constexpr BLOCK_SIZE_N=64 --constexpr BLOCK_SIZE_K=64 --constexpr GROUP_SIZE_M=8 --dump bin > /dev/null 2> "$tmp/rt.err"; then
  awk '/^totals:/ {printf "%-15s %8.1f M (once per process, not in the figures above)\n", "runtime_library", $2 / 1e6}' "$tmp/rt.out"
fi
