import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { InferenceOutputError, InferenceTimeoutError } from "../core/errors.js";
import { createCallContext, TIMINGS_KEY } from "./context.js";
import type { Options } from "../types.js";
import { assertCredentialTarget, DEFAULT_POLL_TIMEOUT_MS, onBase, poll } from "./poll.js";

let server: Server;
let origin = "";
let hits = 0;

beforeAll(async () => {
	server = createServer((req, res) => {
		hits++;
		if (req.url === "/hang") return;
		res.writeHead(200, { "content-type": "application/json" });
		res.end(JSON.stringify({ hit: hits }));
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

const context = (timings: Record<string, unknown> = {}, signal?: AbortSignal, options: Options = {}) =>
	createCallContext({ ...options, signal, [TIMINGS_KEY]: { pollIntervalMs: 1, ...timings } } as never);

async function untilHit(n: number, response: Response): Promise<number | undefined> {
	const { hit } = (await response.json()) as { hit: number };
	return hit >= n ? hit : undefined;
}

describe("poll", () => {
	it("polls until read returns a result", async () => {
		hits = 0;
		const result = await poll({
			ctx: context(),
			url: `${origin}/job`,
			submitUrl: `${origin}/submit`,
			intervalMs: 60_000,
			read: (response) => untilHit(3, response),
		});
		expect(result).toBe(3);
	});

	it("stops after maxAttempts with the provider's error", async () => {
		hits = 0;
		await expect(
			poll({
				ctx: context(),
				url: `${origin}/job`,
				submitUrl: `${origin}/submit`,
				intervalMs: 1,
				maxAttempts: 4,
				read: () => Promise.resolve(undefined),
				exhausted: () => new InferenceOutputError("gave up"),
			}),
		).rejects.toThrow("gave up");
		expect(hits).toBe(4);
	});

	it("stops at the pollTimeout option's deadline, naming the polled URL", async () => {
		hits = 0;
		const error = await poll({
			ctx: context({ pollIntervalMs: 5 }, undefined, { pollTimeout: 60 }),
			url: `${origin}/job?x=1`,
			submitUrl: `${origin}/submit`,
			intervalMs: 5,
			read: async (response) => {
				await response.body?.cancel();
				return undefined;
			},
		}).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceTimeoutError);
		expect((error as InferenceTimeoutError).timeout).toBe(60);
		expect((error as Error).message).toBe(
			`Polling ${origin}/job gave no result within the 60 ms pollTimeout.`,
		);
		expect(hits).toBeGreaterThan(0);
	});

	it("the pollTimeout also ends a poll request that never answers", async () => {
		const error = await poll({
			ctx: context({}, undefined, { pollTimeout: 50 }),
			url: `${origin}/hang`,
			submitUrl: `${origin}/submit`,
			intervalMs: 1,
			waitFirst: false,
			read: () => Promise.resolve(1),
		}).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceTimeoutError);
	});

	it("rejects an invalid pollTimeout", async () => {
		for (const pollTimeout of [Number.NaN, -1]) {
			await expect(
				poll({
					ctx: context({}, undefined, { pollTimeout }),
					url: `${origin}/job`,
					submitUrl: `${origin}/submit`,
					intervalMs: 1,
					read: () => Promise.resolve(1),
				}),
			).rejects.toThrow(
				`The pollTimeout option must be a number of milliseconds (0 or Infinity for none), got ${pollTimeout}.`,
			);
		}
	});

	it("has a default deadline of 15 minutes when no pollTimeout is given", async () => {
		expect(DEFAULT_POLL_TIMEOUT_MS).toBe(15 * 60 * 1000);
		// Fake timers for the waits and the deadline; the polls themselves are real requests.
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
		try {
			hits = 0;
			const polling = poll({
				ctx: context({ pollIntervalMs: 12 * 60 * 1000 }),
				url: `${origin}/job`,
				submitUrl: `${origin}/submit`,
				intervalMs: 12 * 60 * 1000,
				waitFirst: false,
				read: async (response) => {
					await response.body?.cancel();
					return undefined;
				},
			}).catch((e: unknown) => e);
			// The first poll is answered for real before the clock moves.
			while (hits === 0) await new Promise((resolve) => setImmediate(resolve));
			await vi.advanceTimersByTimeAsync(DEFAULT_POLL_TIMEOUT_MS);
			const error = await polling;
			expect(error).toBeInstanceOf(InferenceTimeoutError);
			expect((error as InferenceTimeoutError).timeout).toBe(DEFAULT_POLL_TIMEOUT_MS);
		} finally {
			vi.useRealTimers();
		}
	});

	it("pollTimeout 0 or Infinity means no polling deadline", async () => {
		for (const pollTimeout of [0, Infinity]) {
			hits = 0;
			const result = await poll({
				ctx: context({}, undefined, { pollTimeout }),
				url: `${origin}/job`,
				submitUrl: `${origin}/submit`,
				intervalMs: 1,
				read: (response) => untilHit(2, response),
			});
			expect(result).toBe(2);
		}
	});

	it("stops when the signal aborts, during a wait", async () => {
		const controller = new AbortController();
		const waiting = poll({
			ctx: context({ pollIntervalMs: 10_000 }, controller.signal),
			url: `${origin}/job`,
			submitUrl: `${origin}/submit`,
			intervalMs: 10_000,
			read: () => Promise.resolve(undefined),
		});
		controller.abort(new Error("stop"));
		await expect(waiting).rejects.toThrow("stop");
	});

	it("never sends credentials to an origin other than the submit's or the router's", async () => {
		hits = 0;
		await expect(
			poll({
				ctx: context(),
				url: "https://elsewhere.example/job",
				headers: { Authorization: "Bearer secret" },
				submitUrl: `${origin}/submit`,
				intervalMs: 1,
				read: () => Promise.resolve(1),
			}),
		).rejects.toThrow(
			`Refusing to send credentials to https://elsewhere.example: polling stays on ${origin}`,
		);
		expect(hits).toBe(0);
	});
});

describe("assertCredentialTarget", () => {
	const router = "https://router.huggingface.co";
	it("allows the submit origin and the router, with or without credentials", () => {
		expect(() =>
			assertCredentialTarget(
				"https://api.x.example/a",
				{ Authorization: "k" },
				"https://api.x.example/b",
				router,
			),
		).not.toThrow();
		expect(() =>
			assertCredentialTarget(`${router}/x/status`, { authorization: "k" }, "https://api.x.example/b", router),
		).not.toThrow();
	});
	it("allows any origin for requests without credentials, refuses credential headers elsewhere", () => {
		expect(() =>
			assertCredentialTarget("https://cdn.example/a", {}, "https://api.x.example/b", router),
		).not.toThrow();
		for (const name of ["Authorization", "x-key", "Cookie", "X-API-Key"]) {
			expect(() =>
				assertCredentialTarget("https://cdn.example/a", { [name]: "k" }, "https://api.x.example/b", router),
			).toThrow(InferenceOutputError);
		}
	});
});

describe("onBase", () => {
	it("keeps only the path of the provider's URL", () => {
		expect(onBase("https://router.huggingface.co/wavespeed", "https://evil.example/api/v3/p/1?x=1")).toBe(
			"https://router.huggingface.co/wavespeed/api/v3/p/1",
		);
		expect(onBase("https://queue.fal.run", "https://queue.fal.run/a/b", "?q=1")).toBe(
			"https://queue.fal.run/a/b?q=1",
		);
	});
});
