# OpenBench (and anyone used to C engines) builds with `make EXE=<path>`: cargo does
# the work, the binary is copied to EXE. `make bench` prints the bench signature.
# `make release` builds, packages and tests a release in dist/ (docs/download.md).
EXE ?= lancer
CARGO ?= cargo

.PHONY: all bench clean release

all:
	$(CARGO) build --release
	cp target/release/lancer$(if $(filter Windows_NT,$(OS)),.exe,) $(EXE)

bench: all
	$(abspath $(EXE)) bench

release:
	engine-tests/scripts/release.sh

clean:
	$(CARGO) clean
	rm -rf dist
