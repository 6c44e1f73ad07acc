/**
 * 503 retries against a real server that answers hostile Retry-After values: every delay has a floor
 * and a ceiling (no hot loop: at most one request per floor interval over a window), retries are
 * bounded by `maxRetries` (default 10; Infinity on request). Counts over a window, never durations:
 * a slow machine only sends fewer requests.
 */
import { describe, expect, it } from "vitest";
import {
	chatCompletion,
	InferenceInputError,
	InferenceProviderApiError,
	InferenceTimeoutError,
} from "../../src/index.js";
import { DEFAULT_MAX_RETRIES } from "../../src/internal/retry.js";
import type { Options } from "../../src/types.js";
import { CHAT_OUTPUT, FAST, MESSAGES, TOGETHER_CHAT } from "../support/fixtures.js";
import type { Route } from "../support/servers.js";
import { useServer } from "../support/setup.js";

const { model: MODEL, mapping, routed: PATH } = TOGETHER_CHAT;
const args = { provider: "together" as const, model: MODEL, messages: MESSAGES };
/** The documented floor (README, "Safety rules"); retry.test.ts checks DEFAULT_BACKOFF holds it. */
const FLOOR_MS = 100;
const WINDOW_MS = 300;

describe("503 retries", () => {
	const server = useServer([mapping]);
	const use = (respond: Route["respond"]) => server().use([mapping, { path: PATH, respond }]);
	const posts = () => server().requestsTo(PATH).length;

	const hostile = [
		["0", "0"],
		["a date in the past", new Date(Date.now() - 3_600_000).toUTCString()],
		["0.001", "0.001"],
		["above 2^31 ms", String(2 ** 31)],
		["garbage", "soon-ish"],
	] as const;

	it.each(hostile)("Retry-After %s: at most one request per floor interval (%s)", async (_name, value) => {
		use({ status: 503, headers: { "retry-after": value }, json: { error: "overloaded" } });
		// Default timings: the real floor. The timeout only closes the observation window.
		const error = await chatCompletion(args, {
			fetch: server().fetch,
			timeout: WINDOW_MS,
			maxRetries: Infinity,
		}).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceTimeoutError);
		// 3.12.1 and a floor-less backoff sent hundreds here.
		expect(posts()).toBeLessThanOrEqual(1 + Math.ceil(WINDOW_MS / FLOOR_MS));
		expect(posts()).toBeGreaterThanOrEqual(1);
	});

	it("a Retry-After of days waits the ceiling, not days and not 1 ms", async () => {
		const timings = FAST as Record<symbol, { backoff: object }>;
		const key = Symbol.for("modelhub.inference.timings");
		const options = {
			fetch: server().fetch,
			[key]: { ...timings[key], backoff: { baseMs: 1, capMs: 4, floorMs: 1, retryAfterCapMs: 40 } },
		} as Options;
		use((_request, hit) =>
			hit === 0
				? { status: 503, headers: { "retry-after": "99999999999" }, body: "" }
				: { json: CHAT_OUTPUT },
		);
		await expect(chatCompletion(args, options)).resolves.toEqual(CHAT_OUTPUT);
		expect(posts()).toBe(2);
		// And an endless storm of such answers paces at the ceiling.
		use({ status: 503, headers: { "retry-after": "99999999999" }, body: "" });
		server().reset();
		await chatCompletion(args, { ...options, timeout: 200, maxRetries: Infinity }).catch(() => undefined);
		expect(posts()).toBeLessThanOrEqual(1 + Math.ceil(200 / 40));
	});

	it(`stops after ${DEFAULT_MAX_RETRIES} retries by default and surfaces the 503`, async () => {
		use({ status: 503, json: { error: "Model is loading" } });
		const error = await chatCompletion(args, { ...FAST, fetch: server().fetch }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceProviderApiError);
		expect((error as InferenceProviderApiError).status).toBe(503);
		expect((error as Error).message).toBe('"Model is loading"');
		expect(posts()).toBe(DEFAULT_MAX_RETRIES + 1);
	});

	it("maxRetries bounds the retries", async () => {
		use({ status: 503, json: { error: "busy" } });
		await expect(
			chatCompletion(args, { ...FAST, fetch: server().fetch, maxRetries: 2 }),
		).rejects.toMatchObject({
			status: 503,
		});
		expect(posts()).toBe(3);
		server().reset();
		await expect(
			chatCompletion(args, { ...FAST, fetch: server().fetch, maxRetries: 0 }),
		).rejects.toMatchObject({
			status: 503,
		});
		expect(posts()).toBe(1);
	});

	it("maxRetries: Infinity retries without a count limit (3.12.1's behaviour, with backoff)", async () => {
		use((_request, hit) => (hit < 15 ? { status: 503, body: "" } : { json: CHAT_OUTPUT }));
		await expect(
			chatCompletion(args, { ...FAST, fetch: server().fetch, maxRetries: Infinity }),
		).resolves.toEqual(CHAT_OUTPUT);
		expect(posts()).toBe(16);
	});

	it("an invalid maxRetries is an input error and sends nothing", async () => {
		use({ json: CHAT_OUTPUT });
		for (const maxRetries of [-1, Number.NaN, "3" as unknown as number]) {
			const error = await chatCompletion(args, { fetch: server().fetch, maxRetries }).catch(
				(e: unknown) => e,
			);
			expect(error).toBeInstanceOf(InferenceInputError);
			expect((error as Error).message).toBe(
				`The maxRetries option must be a number ≥ 0 (Infinity for no limit), got ${String(maxRetries)}.`,
			);
		}
		expect(posts()).toBe(0);
	});
});
