# lcpsolve: a solver workbench for contact problems.
#   make            build ./lcpsolve
#   make test       run every test (unit tests, then end-to-end tests)
#   make install    PREFIX=/usr/local: binary and man page
#   make bench      the benchmarks of BENCHMARKS.md
#   make test SANITIZE=1   the same with AddressSanitizer and UBSan (rebuild: make clean first)
# Overridable: CC, CFLAGS, PREFIX, OPENMP=0 to build without OpenMP.

CC      ?= cc
PREFIX  ?= /usr/local
OPENMP  ?= 1
override CFLAGS += -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -O2 -g \
                   -Wall -Wextra -Wshadow -Wstrict-prototypes -Wwrite-strings \
                   -I/usr/include/suitesparse -I/usr/include/hdf5/serial -MMD -MP
ifeq ($(OPENMP),1)
override CFLAGS += -fopenmp
LDOMP = -fopenmp
endif
SANITIZE ?= 0
ifeq ($(SANITIZE),1)
override CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer
override LDFLAGS += -fsanitize=address,undefined
endif
LDLIBS  = -lcholmod -lumfpack -lamd -lcamd -lcolamd -lccolamd -lsuitesparseconfig \
          -lfclib -lhdf5_serial -lcjson -lyaml -lopenblas -llapack -lm $(LDOMP)

SRC     = $(wildcard src/*.c src/io/*.c src/solvers/*.c src/precond/*.c src/graph/*.c)
OBJ     = $(SRC:%.c=build/%.o)
LIBOBJ  = $(filter-out build/src/main.o,$(OBJ))
TESTSRC = $(wildcard tests/unit/*.c)
TESTBIN = $(TESTSRC:tests/unit/%.c=build/tests/%)

all: lcpsolve

lcpsolve: $(OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

build/tests/%: tests/unit/%.c $(LIBOBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -Isrc -o $@ $< $(LIBOBJ) $(LDLIBS)

test: lcpsolve $(TESTBIN)
	@sh tests/run.sh $(TESTBIN)

build/bench/%: bench/%.c $(LIBOBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -Isrc -o $@ $< $(LIBOBJ) $(LDLIBS)

bench: lcpsolve build/bench/sweeps
	@sh scripts/bench-sweeps

# the peer (Siconos Numerics), where libsiconos-numerics-dev is installed
SICONOS_INC = /usr/include/siconos
peer: build/peer/siconos_lcp build/peer/siconos_fc3d
build/peer/%: peer/%.c $(LIBOBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -Isrc -I$(SICONOS_INC) -I$(SICONOS_INC)/numerics -o $@ $< $(LIBOBJ) \
	    -lsiconos_numerics $(LDLIBS)

install: lcpsolve
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 lcpsolve $(DESTDIR)$(PREFIX)/bin/lcpsolve
	install -m 644 man/lcpsolve.1 $(DESTDIR)$(PREFIX)/share/man/man1/lcpsolve.1

clean:
	rm -rf build lcpsolve

.PHONY: all test bench peer install clean
-include $(OBJ:.o=.d)
