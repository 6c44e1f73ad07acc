/**
 * V8 flags for the Node processes the tests run: vitest's workers (vitest.config.ts) and the hub servers
 * the suites start. Each lives for seconds to a minute and opens PGlite, whose WebAssembly V8 by default
 * compiles twice, the hot functions again with its optimising compiler, which repays itself only in a long
 * life: a hub started from a seeded folder and asked 150 requests took 5.9 s of CPU and 380 MiB by
 * default, 3.7 s and 320 MiB with the baseline compiler only, and answered 1,600 more requests as fast
 * (Node 20, PGlite 0.5.16, three alternating runs each). On 2 cores CI is CPU-bound (vmstat: 3 % idle over
 * a whole run), so every CPU second counts. The hub's one-shot CLI commands set the same flag themselves
 * (src/cli.ts); the process tests (packages/hub/test/process.test.ts) start `serve` as it ships.
 */
export const SHORT_LIVED_NODE_FLAGS: readonly string[] = ["--liftoff-only"];
