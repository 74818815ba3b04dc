# homed — every command installs what it needs first.
BUN := node_modules/.bin/bun
# Deno from npm: the binary alone, from its platform package (package.json's optionalDependencies
# @deno/linux-*-glibc, one installs per CPU), put on PATH from a plain folder. Not npm's `deno`
# package: its bin link node_modules/.bin/deno comes first on `deno task`'s PATH and deno task
# runs whatever is there as a script ("Invalid or unexpected token" on the ELF binary).
DENO_BIN := node_modules/.deno-bin
DENO_PACKAGE := node_modules/@deno/linux-$(subst aarch64,arm64,$(subst x86_64,x64,$(shell uname -m)))-glibc/deno
WITH_DENO := PATH="$(CURDIR)/$(DENO_BIN):$$PATH"
# The tests of runtime-specific code (src/runtime/: FFI locks and shared memory, HTTP serving,
# PTY, assets, spawning homed) that `make test` also runs under Deno; `make test-deno` runs all.
DENO_TESTS := tests/runtime tests/integration/daemon.test.ts tests/integration/data-lock.test.ts tests/plugins/shared-memory.test.ts tests/plugins/bulk.test.ts tests/plugins/terminal.test.ts tests/unit/serve.test.ts
DATA ?= ./data

.PHONY: install run test test-deno test-fast build dist test-dist bench migrations console typecheck fmt lint clean

# Installs the locked dependencies when package-lock.json is newer than the last install.
node_modules/.install-stamp: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

$(DENO_BIN)/deno: node_modules/.install-stamp
	@mkdir -p $(DENO_BIN)
	ln -sf "$(CURDIR)/$(DENO_PACKAGE)" $@

install: node_modules/.install-stamp $(DENO_BIN)/deno

# `make run ADDR=127.0.0.1:9000` (or HOMED_ADDR) picks another address or port.
run: install
	$(BUN) src/main.ts -data $(DATA) $(if $(ADDR),-addr $(ADDR))

test: install
	node_modules/.bin/biome check --error-on-warnings .
	node_modules/.bin/tsc -p .
	$(BUN) test --timeout 120000
	$(WITH_DENO) deno test -A --no-check $(DENO_TESTS)

# The whole suite under Deno (`deno task test`); the compiled-binary tests skip, saying why.
test-deno: install
	$(WITH_DENO) deno task test

# The tests that spawn nothing (no daemon, plugin child, browser or binary), listed by
# scripts/fast-tests.ts: a quick check while editing; `make test` runs everything.
test-fast: install
	$(BUN) test $$($(BUN) scripts/fast-tests.ts)

build: install
	$(BUN) scripts/build.ts

# Tarball, .deb and .rpm for linux-x64 and linux-arm64, and SHA256SUMS, in dist/ (needs
# dpkg-deb and rpmbuild: Debian's dpkg and rpm packages). MODELS=DIR (a folder homed model
# pull filled) adds homed-models-<name> in the three formats.
dist: install
	$(BUN) scripts/dist.ts
	$(if $(MODELS),$(BUN) scripts/dist/models.ts $(MODELS))

# The packages' own tests (contents, the packaged binary, install.sh, the unit's sandbox);
# tools that are missing here are skipped with the reason printed.
test-dist: dist
	HOMED_TEST_TIMEOUT_MS=300000 $(BUN) test ./packaging/tests --timeout 300000

bench: install
	$(BUN) bench/run.ts $(BENCH)

typecheck: install
	node_modules/.bin/tsc -p .

# Biome (biome.json): `fmt` rewrites the tree in the house style; `lint` changes nothing and
# fails on a file fmt would change or on a lint finding (warnings too).
fmt: install
	node_modules/.bin/biome format --write .

lint: install
	node_modules/.bin/biome check --error-on-warnings .

# After editing src/store/schema.ts: generate the SQL and the embedded index.
migrations: install
	node_modules/.bin/drizzle-kit generate
	$(BUN) scripts/gen-migrations.ts

# After editing web/: bundle the console (web/dist/console.js) and write the asset tables.
console: install
	$(BUN) scripts/gen-console.ts

clean:
	rm -rf dist
