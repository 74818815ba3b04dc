# homed — every command installs what it needs first.
BUN := node_modules/.bin/bun
DATA ?= ./data

.PHONY: install run test build dist bench migrations typecheck clean

# Installs the locked dependencies when package-lock.json is newer than the last install.
node_modules/.install-stamp: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

install: node_modules/.install-stamp

run: install
	$(BUN) src/main.ts -data $(DATA)

test: install
	node_modules/.bin/tsc -p .
	$(BUN) test --timeout 120000

build: install
	$(BUN) scripts/build.ts

dist: build
	$(BUN) scripts/dist.ts

bench: install
	$(BUN) bench/run.ts $(BENCH)

typecheck: install
	node_modules/.bin/tsc -p .

# After editing src/store/schema.ts: generate the SQL and the embedded index.
migrations: install
	node_modules/.bin/drizzle-kit generate
	$(BUN) scripts/gen-migrations.ts

clean:
	rm -rf dist
