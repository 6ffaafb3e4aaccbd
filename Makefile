# Tern — the two commands a newcomer needs are `make demo` and `make test`.
# Both install missing Debian packages first (Scripts/bootstrap, needs root when something is missing).

SWIFT ?= swift
SECONDS ?= 60

.PHONY: all demo test test-sanitize build bootstrap fuzz bench interop netlab-selftest docs clean

all: test

bootstrap:
	@Scripts/bootstrap test

## The main job: a full two-peer call on loopback with the debug tool's trace.
demo:
	@Scripts/bootstrap core
	$(SWIFT) build -c release --product tern
	.build/release/tern call --loopback

## The whole test suite: the Swift tests, then (as root) the system tests — real aiortc and
## Chromium peers, and the network lab's fault scenarios (Scripts/system-tests).
test: bootstrap
	$(SWIFT) build --build-tests
	Scripts/swift-tests
	Scripts/check-imports
	Scripts/docs
	Scripts/check-example
	Scripts/system-tests

## The Swift suite under AddressSanitizer (and LeakSanitizer), then ThreadSanitizer over the
## layers it can check (Scripts/sanitize says which and why).
test-sanitize: bootstrap
	Scripts/sanitize

## API documentation (DocC) for TernPeer and TernCall into .build-docs/site; warnings (a broken
## symbol link) are errors, and `make test` builds it too.
docs:
	@Scripts/bootstrap core
	Scripts/docs

build:
	@Scripts/bootstrap core
	$(SWIFT) build

## libFuzzer over every parser of network input; SECONDS per target.
fuzz:
	@Scripts/bootstrap core
	Scripts/fuzz $(SECONDS)

## Release-mode benchmarks; figures printed, nothing asserted.
bench:
	@Scripts/bootstrap core
	Scripts/bench

## Interop matrix against real aiortc and headless Chromium (root: network namespaces);
## writes Docs/INTEROP.md.
interop:
	@Scripts/bootstrap interop
	$(SWIFT) build --product tern
	Interop/run

## The network lab's self-test (root): delay, loss, rate, NAT, link down/up, teardown.
netlab-selftest:
	@Scripts/bootstrap interop
	Interop/netlab/selftest

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan .build-bench .build-example
