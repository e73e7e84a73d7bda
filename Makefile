# OpenBench (and anyone used to C engines) builds with `make EXE=<path>`: cargo does
# the work, the binary is copied to EXE. `make bench` prints the bench signature.
EXE ?= lancer
CARGO ?= cargo

.PHONY: all bench clean

all:
	$(CARGO) build --release
	cp target/release/lancer$(if $(filter Windows_NT,$(OS)),.exe,) $(EXE)

bench: all
	$(abspath $(EXE)) bench

clean:
	$(CARGO) clean
