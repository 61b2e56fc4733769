# opforge - the README's set-up commands. Every target installs missing Debian
# packages (scripts/install-deps.sh, a no-op when all are present), configures
# with the `default` CMake preset, builds and runs.
#   make demo    run the main job on the embedded default scenario
#   make test    build and run every test (ctest; output shown on failure)
#   make test-asan  the fast test subset (label `fast`) built with the asan preset
#                (AddressSanitizer + UBSan, build-asan/) and run; .ci/run runs it after make test
#   make fuzz    build the libFuzzer targets (fuzz preset, clang) and run each for
#                FUZZ_SECONDS (60) seconds; one execs/s line per target (docs/fuzzing.md)
#   make build   configure and build only
#   make bench   build and run the benchmarks
#   make doc-figures  sweep the scenarios the docs quote (markers `<!-- figures ... -->`)
#                fresh and rewrite those blocks (scripts/doc-figures.py; --check compares)
#   make corpus  export the OpInfo call corpus with the venv's torch (make test does
#                it when corpus/opinfo.h5 is missing or older than its exporter)
JOBS ?= $(shell nproc)
PYTHON := .venv/bin/python
CORPUS := corpus/opinfo.h5
# Exporter worker processes: one. On this 2-core machine, shared with builds, two
# workers took 137-140 s against 94-103 s for one (docs/corpus.md, Figures).
CORPUS_JOBS ?= 1
BUILD := build
CTEST_ARGS ?=

.PHONY: deps configure build test test-asan fuzz demo bench corpus corpus-backward format clean doc-figures

deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake --preset default >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# After ctest, the real-Triton differential's count lines (kernels x dtypes compared) are
# printed from ctest's log, then ctest's summary line again, so it stays the last line.
test: build $(CORPUS)
	@cd $(BUILD) && mkdir -p Testing && \
	  { ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS); echo $$? > Testing/ctest-rc; } | tee Testing/ctest-summary.txt; \
	  grep -h '^triton-interp differential' Testing/Temporary/LastTest.log 2>/dev/null || true; \
	  grep -E '^[0-9]+% tests passed' Testing/ctest-summary.txt || true; exit $$(cat Testing/ctest-rc)

test-asan: deps
	@cmake --preset asan >/dev/null
	@cmake --build build-asan -j $(JOBS) --target fast_tests
	@ctest --preset asan -j $(JOBS)

fuzz: deps
	@bash scripts/fuzz.sh

demo: build
	@bash scripts/demo.sh $(BUILD)

bench: build
	@bash scripts/bench.sh $(BUILD)

doc-figures: build
	@$(PYTHON) scripts/doc-figures.py --opforge $(BUILD)/harness/opforge --jobs $(JOBS)

format:
	@find support isa model rtl compiler generator harness tests bench -name '*.cpp' -o -name '*.h' 2>/dev/null | xargs -r clang-format -i

clean:
	@rm -rf $(BUILD)

# The OpInfo ATen call corpus (docs/corpus.md), exported with the project venv's
# torch (requirements.txt); remade when the exporter or the pins change.
corpus: deps
	@$(PYTHON) scripts/export-opinfo.py --jobs $(CORPUS_JOBS) --out $(CORPUS)

# The backward pass of every OpInfo sample that supports autograd (floating dtypes):
# corpus/opinfo_backward.h5, for validate/generate --corpus on backward overloads.
corpus-backward: deps
	@$(PYTHON) scripts/export-opinfo.py --backward --jobs $(CORPUS_JOBS) --out corpus/opinfo_backward.h5

$(CORPUS): scripts/export-opinfo.py requirements.txt | deps
	@$(PYTHON) scripts/export-opinfo.py --jobs $(CORPUS_JOBS) --out $(CORPUS)
