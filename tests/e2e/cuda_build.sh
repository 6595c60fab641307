#!/bin/sh
# tests/e2e/cuda_build.sh: the optional CUDA build (make CUDA=1) compiles and
# links where nvcc is present (skipped cleanly where it is not): the kernels
# (src/parallel/pgs_cuda.cu) and the three C files that see LCP_HAVE_CUDA
# are compiled by the Makefile's own rules into a separate build folder, the
# other objects are this build's; the binary lists pgs-cuda, and without a
# GPU pgs-cuda and batch --device gpu fail cleanly (exit 5, one line "no
# CUDA device").  With a GPU they are run and checked against the CPU
# (scripts/gpu-check measures more).  The kernels carry machine code for
# sm_80 and sm_90 and the PTX of compute_90, rebuild when CUDA_ARCHS
# changes and not otherwise.  The default build's binary has neither.
# Run from the repository root.
. tests/lib.sh
"$LCP" --list-solvers | grep -q '^pgs-cuda'
check "the default build has no pgs-cuda" [ $? -ne 0 ]
if ! command -v "${NVCC:-nvcc}" >/dev/null 2>&1; then
    skip "CUDA build: nvcc not found"
    finish; exit $?
fi
if [ ! -f build/src/cli/main.o ]; then
    skip "CUDA build: no build/ objects to reuse (run make first)"
    finish; exit $?
fi
B="$T/bc"
mkdir -p "$B"
cp -rp build/src "$B/src"
rm -f "$B/src/cli/batch.o" "$B/src/solvers/registry.o" "$B/src/solvers/pgs_cuda.o" "$B/src/parallel/pgs_cuda.o"
make -s CUDA=1 BUILD="$B" BIN="$B/lcpsolve" "$B/lcpsolve" >"$T/make.log" 2>&1; rc=$?
check "make CUDA=1: builds" [ $rc -eq 0 ]
grep -v "^make" "$T/make.log" >"$T/warn.log"
check "make CUDA=1: no compiler warnings" [ ! -s "$T/warn.log" ]
[ $rc -eq 0 -a ! -s "$T/warn.log" ] || cat "$T/make.log"
check "the kernels compiled" [ -s "$B/src/parallel/pgs_cuda.o" ]
strings "$B/src/parallel/pgs_cuda.o" | grep -o 'sm_[0-9]*\|compute_[0-9]*' | sort -u >"$T/arch"
check "the kernels: machine code for sm_80 and sm_90, PTX for compute_90 ($(tr '\n' ' ' <"$T/arch"))" \
    sh -c "grep -qx sm_80 '$T/arch' && grep -qx sm_90 '$T/arch' && grep -qx compute_90 '$T/arch'"
make CUDA=1 BUILD="$B" BIN="$B/lcpsolve" "$B/lcpsolve" >"$T/make2.log" 2>&1
check "make CUDA=1 again, nothing changed: nvcc does not run" sh -c "! grep -q nvcc '$T/make2.log'"
check "CUDA build lists pgs-cuda" sh -c "'$B/lcpsolve' --list-solvers | grep -q '^pgs-cuda'"
"$B/lcpsolve" batch --help >"$T/out"
check "CUDA build: batch --help has --device gpu" grep -q "gpu: batched PGS" "$T/out"

"$LCP" generate pyramid --base 4 -o "$T/pyr" 2>/dev/null
"$LCP" generate pyramid --base 2 --envs 16 -o "$T/envs" 2>/dev/null
"$B/lcpsolve" -s pgs-cuda -o "$T/xg.mtx" "$T/pyr" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 5 ] && grep -q "no CUDA device" "$T/err"; then
    ok "pgs-cuda without a device: exit 5, no CUDA device"
    check "pgs-cuda without a device: one line" [ "$(wc -l <"$T/err")" -eq 1 ]
    "$B/lcpsolve" batch --device gpu "$T/envs" >/dev/null 2>"$T/err"; rc=$?
    check "batch --device gpu without a device: exit 5, one line" [ $rc -eq 5 -a "$(wc -l <"$T/err")" -eq 1 ]
    check "batch --device gpu without a device: says so" grep -q "no CUDA device" "$T/err"
else
    check "pgs-cuda on the device: solved" [ $rc -eq 0 ]
    check "pgs-cuda: independent residual" indep "$T/pyr/A.mtx" "$T/pyr/b.mtx" "$T/xg.mtx" --max 1e-8
    "$B/lcpsolve" batch --device gpu --json -o "$T/og" "$T/envs" >"$T/out"; rc=$?
    check "batch --device gpu: all solved" [ $rc -eq 0 -a "$(json_field solved)" = 16 ]
    check "batch --device gpu: independent residual" indep "$T/envs/env00003/A.mtx" "$T/envs/env00003/b.mtx" "$T/og/env00003.mtx" --max 1e-8
fi
"$B/lcpsolve" batch --device gpu -s lemke "$T/envs" >/dev/null 2>&1; rc=$?
check "batch --device gpu -s lemke: refused (exit 2)" [ $rc -eq 2 ]
# other architectures: the flags' stamp changes, the kernels rebuild for them alone
make CUDA=1 CUDA_ARCHS=90 BUILD="$B" BIN="$B/lcpsolve" "$B/lcpsolve" >"$T/make3.log" 2>&1
check "make CUDA=1 CUDA_ARCHS=90: the kernels rebuilt, for sm_90 alone" \
    sh -c "grep -q 'code=sm_90' '$T/make3.log' && ! grep -q 'sm_80' '$T/make3.log'"
make CUDA=1 CUDA_ARCH=sm_80 BUILD="$B" BIN="$B/lcpsolve" "$B/lcpsolve" >"$T/make4.log" 2>&1
check "make CUDA=1 CUDA_ARCH=sm_80 (one, the older name): rebuilt for sm_80 alone" \
    sh -c "grep -q 'code=sm_80' '$T/make4.log' && ! grep -q 'sm_90' '$T/make4.log'"
finish
