# lcpsolve: a solver workbench for contact problems.
#   make            build ./lcpsolve and the library: $(BUILD)/liblcpsolve.a, $(BUILD)/liblcpsolve.so.*
#                   (include/lcpsolve.h; the binary links the same objects statically)
#   make check      the quick tier, after each edit (a few minutes): unit tests, fuzz replays, the
#                   contract, options, bad inputs and standard input of the command, every solver once
#   make test       run every test (unit tests, then end-to-end tests; TEST_JOBS=N: N at a time)
#   make valgrind   end-to-end tests with lcpsolve under valgrind memcheck (scripts/valgrind-e2e)
#   make install    PREFIX=/usr/local: binary, library, header, lcpsolve.pc, man pages (DESTDIR too)
#   make examples   examples/*.c built against the installed library through pkg-config
#                   (PREFIX, PKG_CONFIG_PATH), into $(BUILD)/examples/
#   make bench      lcpsolve against Siconos, then against the engines' solvers (Bullet, ODE) and CVXOPT
#                   (make bench-engines alone; BENCH_QUICK=1: a few minutes); make bench-sweeps: PGS sweeps/s;
#                   make bench-api: the cost of lcps_solve beside the solver and the binary (10 contacts);
#                   make bench-update: the update path's saving in a time-stepping loop
#                   make bench-diff: the derivatives of a solution (JVP, VJP) beside the solve
#   make test SANITIZE=1   the same with AddressSanitizer and UBSan (rebuild: make clean first,
#                   or keep both: make test SANITIZE=1 BUILD=build-san BIN=build-san/lcpsolve LCPSOLVE=build-san/lcpsolve)
#   make check-san  the sanitizer tier of CI: make check and the scripts of SAN_E2E under ASan+UBSan,
#                   in build-san/ (the plain build stays)
#   make fuzz       the libFuzzer harnesses tests/fuzz/fuzz_*.c (clang) into build-fuzz/;
#                   tests/fuzz/run-all SECONDS runs each (tests/fuzz/fuzz.h)
#   make CUDA=1     also the CUDA kernels (src/parallel/pgs_cuda.cu, nvcc): solver pgs-cuda,
#                   batch --device gpu; objects in build-cuda/ (BUILD=DIR, BIN=FILE to move them)
# Overridable: CC, CFLAGS, PREFIX, OPENMP=0 to build without OpenMP, NVCC, CUDA_ARCHS (80 90).

CC      ?= cc
PREFIX  ?= /usr/local
OPENMP  ?= 1
# -fPIC: the same objects make the binary, liblcpsolve.a and liblcpsolve.so
# (-fno-semantic-interposition: calls inside the library stay direct)
override CFLAGS += -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -O2 -g \
                   -Wall -Wextra -Wshadow -Wstrict-prototypes -Wwrite-strings \
                   -fPIC -fno-semantic-interposition -Iinclude \
                   -I/usr/include/suitesparse -I/usr/include/hdf5/serial -MMD -MP
ifeq ($(OPENMP),1)
override CFLAGS += -fopenmp
LDOMP = -fopenmp
endif
MPI     ?= 0
ifeq ($(MPI),1)
BUILD   ?= build-mpi
endif
CUDA    ?= 0
ifeq ($(CUDA),1)
BUILD   ?= build-cuda
else
BUILD   ?= build
endif
BIN     ?= lcpsolve
SANITIZE ?= 0
ifeq ($(SANITIZE),1)
override CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
override LDFLAGS += -fsanitize=address,undefined
endif
LDLIBS  = -lcholmod -lumfpack -lamd -lcamd -lcolamd -lccolamd -lsuitesparseconfig \
          -lfclib -lhdf5_serial -lcjson -lyaml -lopenblas -llapack -lm $(LDOMP)

# CUDA=1: nvcc compiles the kernels; the C files see LCP_HAVE_CUDA (registry, batch).
# Nothing here runs nvcc, or needs it, without CUDA=1.
ifeq ($(CUDA),1)
NVCC      ?= nvcc
# CUDA_ARCHS: the compute capabilities the kernels are compiled for, machine
# code (SASS) for each -- 80 an A100, 90 an H100/H200: no JIT at the first
# launch -- and the PTX of the last for the JIT of newer devices.
# CUDA_ARCH=sm_NN (one) is taken too.  The flags go to a stamp file
# ($(BUILD)/cuda.flags): the kernels rebuild when they change.
ifdef CUDA_ARCH
CUDA_ARCHS ?= $(patsubst sm_%,%,$(patsubst compute_%,%,$(CUDA_ARCH)))
endif
CUDA_ARCHS ?= 80 90
NVCC_ARCH := $(foreach a,$(CUDA_ARCHS),-gencode arch=compute_$(a),code=sm_$(a)) \
             -gencode arch=compute_$(lastword $(CUDA_ARCHS)),code=compute_$(lastword $(CUDA_ARCHS))
NVCC_FLAGS := -O2 $(NVCC_ARCH) -Xcompiler -Wall,-Wextra,-fPIC
# CUDA_HOME: where nvcc says it runs from (_HERE_ of its -dryrun: right also
# where nvcc on PATH is a wrapper script or a link), else nvcc's folder on PATH
ifeq ($(origin CUDA_HOME),undefined)
CUDA_HOME := $(or $(patsubst %/bin,%,$(shell $(NVCC) -dryrun -x cu -c /dev/null -o /dev/null 2>&1 | \
                 sed -n 's/^\#. _HERE_=//p' | head -1)),$(patsubst %/bin/nvcc,%,$(shell command -v $(NVCC))))
endif
override CFLAGS += -DLCP_HAVE_CUDA
CUOBJ   = $(BUILD)/src/parallel/pgs_cuda.o
LDLIBS += -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcudart -lstdc++
endif

# MPI=1: mpicc, the distributed solvers of src/mpi (METIS partitions); objects in
# build-mpi/.  The plain build has no MPI in it.
ifeq ($(MPI),1)
CC      := mpicc
override CFLAGS += -DLCP_HAVE_MPI
MPISRC  = $(wildcard src/mpi/*.c)
LDLIBS += -lmetis
endif

SRC     = $(wildcard src/scenes/*.c src/core/*.c src/diff/*.c src/cli/*.c src/la/*.c src/io/*.c src/solvers/*.c src/precond/*.c src/graph/*.c) $(MPISRC)
OBJ     = $(SRC:%.c=$(BUILD)/%.o) $(CUOBJ)
LIBOBJ  = $(filter-out $(BUILD)/src/cli/%,$(OBJ))
OBJ    += $(BUILD)/gen/auto_model.o # models/auto.model, built in: --solver auto's default model
TESTSRC = $(wildcard tests/unit/*.c)
TESTBIN = $(TESTSRC:tests/unit/%.c=$(BUILD)/tests/%)
# one harness a reader: tests/fuzz/fuzz_NAME.c; `make test` replays its seeds
# and tests/fuzz/regress/NAME/ through $(BUILD)/fuzz/replay_NAME
FUZZSRC   = $(wildcard tests/fuzz/fuzz_*.c)
FUZZNAMES = $(FUZZSRC:tests/fuzz/fuzz_%.c=%)
REPLAYBIN = $(FUZZNAMES:%=$(BUILD)/fuzz/replay_%)
FUZZ    ?= 0
ifeq ($(FUZZ),1)
override CFLAGS += -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
endif

# the library: every object but the command line's (src/cli/); the shared
# one exports the lcps_ calls of include/lcpsolve.h alone (src/core/lcpsolve.map)
LIBVERSION = 0.1.0
LIBSONAME  = liblcpsolve.so.0
LIBA    = $(BUILD)/liblcpsolve.a
LIBSO   = $(BUILD)/liblcpsolve.so.$(LIBVERSION)

all: $(BIN) $(LIBA) $(LIBSO)

$(BIN): $(OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(LIBA): $(LIBOBJ)
	rm -f $@
	ar rcs $@ $^

$(LIBSO): $(LIBOBJ) src/core/lcpsolve.map
	$(CC) -shared $(LDFLAGS) -Wl,-soname,$(LIBSONAME) -Wl,--version-script=src/core/lcpsolve.map -o $@ \
	    $(LIBOBJ) $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/%.o: %.cu src/parallel/pgs_cuda.h $(BUILD)/cuda.flags
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCC_FLAGS) -c -o $@ $<

# the stamp of nvcc's flags: rewritten (and the kernels rebuilt) only when they change
$(BUILD)/cuda.flags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(NVCC) $(NVCC_FLAGS)' | cmp -s - $@ || echo '$(NVCC) $(NVCC_FLAGS)' > $@
FORCE:

# a unit test links the library, and the object of a command it drives
# (src/cli/, named below as a prerequisite of that test)
$(BUILD)/tests/%: tests/unit/%.c $(LIBOBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -Isrc -o $@ $< $(LIBOBJ) $(filter $(BUILD)/src/cli/%.o,$^) $(LDLIBS)
$(BUILD)/tests/test_generate $(BUILD)/tests/test_api: $(BUILD)/src/cli/generate.o

test: $(BIN) $(LIBA) $(LIBSO) $(TESTBIN) $(REPLAYBIN)
	@[ ! -d $(SICONOS_INC)/numerics ] || $(MAKE) -s peer >/dev/null 2>&1 || true # once, before scripts run side by side (TEST_JOBS)
	@[ ! -d $(BULLET_INC)/BulletDynamics ] || $(MAKE) -s peer-engines $(BUILD)/bench/solve_loop >/dev/null 2>&1 || true
	@sh tests/run.sh $(TESTBIN) $(REPLAYBIN)

# the quick tier: everything of the unit tests and replays, and the end-to-end
# scripts that check the command's contract and run every solver once
CHECK_E2E = tests/e2e/contract.sh tests/e2e/options_table.sh tests/e2e/bad_inputs.sh tests/e2e/stdin.sh \
            tests/e2e/solvers_once.sh
check: $(BIN) $(LIBA) $(LIBSO) $(TESTBIN) $(REPLAYBIN)
	@E2E="$(CHECK_E2E)" TEST_JOBS=$(or $(TEST_JOBS),2) sh tests/run.sh $(TESTBIN) $(REPLAYBIN)

# the sanitizer tier (CI): the quick tier and the scripts that drive the most
# code paths of the binary -- every solver on hostile, degenerate and
# decomposed problems, sequences, batches, scenes, graphs, preconditioners --
# built with ASan+UBSan in build-san/ (RELIABILITY.md, Sanitizers)
SAN_E2E = tests/e2e/robust.sh tests/e2e/decide.sh tests/e2e/decompose.sh tests/e2e/batch.sh \
          tests/e2e/sequence.sh tests/e2e/generate_scenes.sh tests/e2e/graph.sh tests/e2e/precond.sh \
          tests/e2e/multigrid.sh tests/e2e/socp_ipm.sh tests/e2e/friction_nsgs.sh tests/e2e/si_bgs.sh \
          tests/e2e/ipm_polish.sh tests/e2e/max_memory.sh
check-san:
	@LCPSOLVE=build-san/lcpsolve $(MAKE) --no-print-directory check SANITIZE=1 BUILD=build-san \
	    BIN=build-san/lcpsolve CHECK_E2E="$(CHECK_E2E) $(SAN_E2E)"

# the end-to-end tests with every lcpsolve run under valgrind memcheck (RELIABILITY.md)
valgrind: $(BIN)
	@sh scripts/valgrind-e2e

FUZZDEP = tests/fuzz/util.c tests/fuzz/fuzz.h $(LIBOBJ)
$(BUILD)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(FUZZDEP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -Isrc -Itests/fuzz -DFUZZ_NAME='"$*"' -o $@ $< tests/fuzz/replay.c \
	    tests/fuzz/util.c $(LIBOBJ) $(LDLIBS)
$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZDEP)
	$(CC) $(CFLAGS) $(LDFLAGS) -fsanitize=fuzzer,address,undefined -Isrc -Itests/fuzz -o $@ $< \
	    tests/fuzz/util.c $(LIBOBJ) $(LDLIBS)

# libFuzzer builds: clang, objects in build-fuzz/ (OpenMP off: one thread a run)
FUZZCC ?= clang
fuzz:
	$(MAKE) BUILD=build-fuzz BIN=build-fuzz/lcpsolve CC=$(FUZZCC) OPENMP=0 FUZZ=1 fuzz-harnesses
fuzz-harnesses: $(FUZZNAMES:%=$(BUILD)/fuzz_%)

$(BUILD)/bench/%: bench/%.c $(LIBOBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -Isrc -o $@ $< $(LIBOBJ) $(LDLIBS)

# every solver against the reference of every folder in problems/ (PROVENANCE)
regress: $(BIN)
	@python3 scripts/regress problems

# lcpsolve against the peer, Siconos (scripts/bench-peers: installs and builds
# the peer, or skips); BENCH_QUICK=1 for the few-minute run, BENCH_ARGS for more
bench: $(BIN)
	@python3 scripts/bench-peers all $(if $(filter-out 0,$(BENCH_QUICK)),--quick) $(BENCH_ARGS)
	@$(MAKE) -s bench-engines

bench-sweeps: $(BIN) $(BUILD)/bench/sweeps
	@sh scripts/bench-sweeps

# the per-solve cost of lcps_solve beside the solver's own work, and against
# the same solve through the binary, on a 10-contact column (BENCHMARKS.md)
bench-api: $(BIN) $(BUILD)/bench/api_overhead
	@d=$$(mktemp -d) && ./$(BIN) generate column --bodies 10 -o $$d/col10 >/dev/null 2>&1 && \
	    $(BUILD)/bench/api_overhead $$d/col10 ./$(BIN) $(or $(API_REPEATS),200); rc=$$?; rm -rf $$d; exit $$rc

# what the update path saves a time-stepping loop: solves kept against solves
# analysed afresh, on generated scenes (BENCHMARKS.md; UPDATE_REPEATS rounds)
bench-update: $(BIN) $(BUILD)/bench/update_path
	@d=$$(mktemp -d) && r=$(or $(UPDATE_REPEATS),7) && u=$(BUILD)/bench/update_path && \
	    ./$(BIN) generate pyramid --base 40 -o $$d/pyramid-40 2>/dev/null && \
	    ./$(BIN) generate pyramid --base 12 --mu 0.5 -o $$d/pyramid-12-fc3d 2>/dev/null && \
	    ./$(BIN) generate pyramid --base 12 --mu 0.5 --kind ccp -o $$d/pyramid-12-ccp 2>/dev/null && \
	    $$u $$d/pyramid-40 $$r ipm linsolve sparse && $$u $$d/pyramid-40 $$r newton-fb linsolve sparse && \
	    $$u $$d/pyramid-40 $$r ipm linsolve sparse order nd && \
	    $$u $$d/pyramid-12-fc3d $$r nsn && $$u $$d/pyramid-12-fc3d $$r admm && \
	    $$u $$d/pyramid-12-ccp $$r socp-ipm; rc=$$?; rm -rf $$d; exit $$rc

# what the derivatives of a solution cost beside the solve itself, on a
# 10,000-contact pyramid (A + 1e-3 I: the pyramid's A is singular), lcp by ipm
# (DIFF_REPEATS rounds), fc3d by admm and by nsn and ccp by admm, to 1e-7 (one round each: about 3 minutes)
# (BENCHMARKS.md; DIFF_BASE: a smaller pyramid)
bench-diff: $(BUILD)/bench/diff_cost
	@export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1; \
	    $(BUILD)/bench/diff_cost lcp $(or $(DIFF_BASE),50) 1e-3 $(or $(DIFF_REPEATS),3) ipm linsolve sparse && \
	    $(BUILD)/bench/diff_cost lcp $(or $(DIFF_BASE),50) 0 1 ipm linsolve sparse && \
	    $(BUILD)/bench/diff_cost fc3d $(or $(DIFF_BASE),50) 1e-3 1 admm tol 1e-7 && \
	    $(BUILD)/bench/diff_cost fc3d $(or $(DIFF_BASE),50) 1e-3 1 nsn tol 1e-7 && \
	    $(BUILD)/bench/diff_cost ccp $(or $(DIFF_BASE),50) 1e-3 1 admm tol 1e-7

# the peer (Siconos Numerics), where libsiconos-numerics-dev is installed
SICONOS_INC = /usr/include/siconos
peer: $(BUILD)/peer/siconos_lcp $(BUILD)/peer/siconos_fc3d
$(BUILD)/peer/%: peer/%.c $(LIBOBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -Isrc -I$(SICONOS_INC) -I$(SICONOS_INC)/numerics -o $@ $< $(LIBOBJ) \
	    -lsiconos_numerics $(LDLIBS)

LIBDIR ?= $(PREFIX)/lib
install: $(BIN) $(LIBA) $(LIBSO)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man3 \
	    $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/lcpsolve
	install -m 644 man/lcpsolve.1 $(DESTDIR)$(PREFIX)/share/man/man1/lcpsolve.1
	install -m 644 man/lcpsolve.3 $(DESTDIR)$(PREFIX)/share/man/man3/lcpsolve.3
	install -m 644 include/lcpsolve.h $(DESTDIR)$(PREFIX)/include/lcpsolve.h
	install -m 644 $(LIBA) $(DESTDIR)$(LIBDIR)/liblcpsolve.a
	install -m 755 $(LIBSO) $(DESTDIR)$(LIBDIR)/liblcpsolve.so.$(LIBVERSION)
	ln -sf liblcpsolve.so.$(LIBVERSION) $(DESTDIR)$(LIBDIR)/$(LIBSONAME)
	ln -sf $(LIBSONAME) $(DESTDIR)$(LIBDIR)/liblcpsolve.so
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@VERSION@|$(LIBVERSION)|g' \
	    -e 's|@LIBS_PRIVATE@|$(subst -fopenmp,-lgomp,$(LDLIBS))|g' lcpsolve.pc.in >$(DESTDIR)$(LIBDIR)/pkgconfig/lcpsolve.pc

# the examples, each built against the installed library through pkg-config
# as a user builds them (make install PREFIX=... first)
EXAMPLES = $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))
examples: $(EXAMPLES)
$(BUILD)/examples/%: examples/%.c
	@mkdir -p $(dir $@)
	PKG_CONFIG_PATH=$(DESTDIR)$(LIBDIR)/pkgconfig:$$PKG_CONFIG_PATH; \
	    $(CC) -o $@ $< $$(PKG_CONFIG_PATH=$(DESTDIR)$(LIBDIR)/pkgconfig:$$PKG_CONFIG_PATH pkg-config --cflags --libs lcpsolve)

clean:
	rm -rf build build-cuda build-mpi build-fuzz build-san lcpsolve $(BUILD) $(BIN)

.PHONY: all check check-san test valgrind bench bench-sweeps bench-api bench-update bench-diff peer install examples clean regress fuzz fuzz-harnesses
-include $(SRC:%.c=$(BUILD)/%.d)

# the engines' solvers as peers (peer/engines_lcp.cpp): Bullet 3's double build
# (libbullet-dev) and, where libode-dev is installed, ODE's dLCP (dxSolveLCP);
# make peer-engines builds build/peer/engines_lcp, or says what is missing
CXX ?= c++
BULLET_INC = /usr/include/bullet
ODE_LIB = $(firstword $(wildcard /usr/lib/*/libode.so /usr/lib/libode.so))
ENGINES_FLAGS = -DBT_USE_DOUBLE_PRECISION -Drestrict=__restrict -isystem $(BULLET_INC) $(if $(ODE_LIB),-DLCP_PEER_ODE)
ENGINES_LIBS = -lBulletDynamics-float64 -lLinearMath-float64 $(if $(ODE_LIB),-lode)
peer-engines: $(BUILD)/peer/engines_lcp
$(BUILD)/peer/engines_lcp: peer/engines_lcp.cpp $(LIBOBJ)
	@[ -d $(BULLET_INC)/BulletDynamics/MLCPSolvers ] || { echo "Bullet 3 is not installed (scripts/install-deps --peer)"; exit 1; }
	@mkdir -p $(dir $@)
	$(CXX) -std=c++14 -O2 -g -Wall -Wextra -Iinclude -Isrc $(ENGINES_FLAGS) $(if $(filter 1,$(OPENMP)),-fopenmp) \
	    $(LDFLAGS) -o $@ $< $(LIBOBJ) $(ENGINES_LIBS) $(LDLIBS)
# lcpsolve against the engines' solvers and CVXOPT, every solve in one process
# over many solves (scripts/bench-engines; BENCH_QUICK=1: the smaller set)
bench-engines: $(BIN) $(BUILD)/bench/solve_loop
	@python3 scripts/bench-engines $(if $(filter-out 0,$(BENCH_QUICK)),--quick)
# -j 2 against -j 1 with a CPU hog beside the run and without (scripts/bench-threads)
bench-threads: $(BIN)
	@sh scripts/bench-threads
# nsn on generated granular piles to 1e-10 beside Siconos' nsn-ac (scripts/bench-nsn; BASELINE=DIR
# adds another checkout's nsn)
bench-nsn: $(BIN) $(LIBSO)
	@/usr/bin/python3 scripts/bench-nsn
.PHONY: peer-engines bench-engines bench-threads bench-nsn

# the Python package (python/lcpsolve, ctypes on liblcpsolve; docs/python.md): installed with the
# library where Debian's python3 finds it for PREFIX (PYTHONDIR), told the LIBDIR it loads from
PYVER    = $(shell /usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
PYTHONDIR ?= $(if $(filter /usr,$(PREFIX)),$(PREFIX)/lib/python3/dist-packages,$(PREFIX)/lib/python$(PYVER)/dist-packages)
install: install-python
install-python:
	install -d $(DESTDIR)$(PYTHONDIR)/lcpsolve
	install -m 644 python/lcpsolve/*.py $(DESTDIR)$(PYTHONDIR)/lcpsolve/
	printf '"""Written by make install: where liblcpsolve was installed."""\nLIBDIR = %s\n' "'$(LIBDIR)'" \
	    >$(DESTDIR)$(PYTHONDIR)/lcpsolve/_install.py

# the Python package's batches against `lcpsolve batch`, and its per-call overhead (BENCHMARKS.md)
bench-python: $(BIN) $(LIBSO)
	@OPENBLAS_NUM_THREADS=1 /usr/bin/python3 scripts/bench-python $(BENCH_PYTHON_ARGS)
.PHONY: install-python bench-python

# --solver auto's built-in model: models/auto.model as a C string
$(BUILD)/gen/auto_model.c: models/auto.model
	@mkdir -p $(dir $@)
	awk 'BEGIN { print "const char lcp_auto_model_default[] =" } { gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); print "\"" $$0 "\\n\"" } END { print "\"\";" }' $< >$@.tmp && mv $@.tmp $@
$(BUILD)/gen/auto_model.o: $(BUILD)/gen/auto_model.c
	$(CC) $(CFLAGS) -c -o $@ $<

# --solver auto's default model: the corpus (scripts/auto-corpus, into
# build/auto-corpus), every candidate configuration measured on it (one
# thread, thread CPU clock), written to models/auto.model; then rebuild.
# About 10 minutes on one core.  auto-lofo: leave-one-family-out validation
# of that model on the same corpus (BENCHMARKS.md).
AUTO_ENV = LCPSOLVE_CLOCK=thread OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
auto-corpus: $(BIN)
	python3 scripts/auto-corpus $(BUILD)/auto-corpus
auto-model: auto-corpus
	$(AUTO_ENV) ./$(BIN) tune $(BUILD)/auto-corpus -o models/auto.model
	$(MAKE) all
auto-lofo: $(BIN)
	@[ -d $(BUILD)/auto-corpus ] || python3 scripts/auto-corpus $(BUILD)/auto-corpus
	$(AUTO_ENV) ./$(BIN) tune --lofo models/auto.model $(BUILD)/auto-corpus
.PHONY: auto-corpus auto-model auto-lofo
