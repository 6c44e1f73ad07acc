/**
 * Tokens never leave in an error or a console line: the caller's token (hub token or provider key,
 * in its `Bearer`, `Key` and `X-Key` forms, and URL-encoded in a URL a server echoed) and any `hf_…`
 * token a server sends back. Each error is serialised every way a caller might log it.
 */
import { inspect } from "node:util";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
	chatCompletion,
	chatCompletionStream,
	InferenceConnectionError,
	InferenceOutputError,
	InferenceProviderApiError,
	request,
	textToAudio,
	textToImage,
	textToVideo,
} from "../../src/index.js";
import { FAST, falQueueJob, HF_TOKEN, hubModel, MESSAGES } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const FAL_KEY = "fal-key-9f8e7d6c5b4a3210";
const BFL_KEY = "bfl-key-0a1b2c3d4e5f6789";
/** A key with characters that URL encoding changes, so that an echo in a URL is encoded. */
const ODD_KEY = "sk/odd+key=0123456789";
const OTHER_HUB_TOKEN = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567";

/** Every way a caller might print or log an error: String, JSON, inspect (hidden fields too), stack, causes. */
function renderings(error: unknown): string[] {
	const out: string[] = [];
	let current: unknown = error;
	for (let depth = 0; current !== undefined && depth < 5; depth++) {
		out.push(
			String(current),
			JSON.stringify(current) ?? "",
			inspect(current, { depth: Infinity, showHidden: true }),
			(current as Error).stack ?? "",
		);
		current = (current as { cause?: unknown }).cause;
	}
	return out;
}

function expectClean(error: unknown, secrets: string[]): void {
	expect(error).toBeDefined();
	for (const text of renderings(error)) {
		for (const secret of [...secrets, OTHER_HUB_TOKEN]) expect(text).not.toContain(secret);
	}
}

describe("token scrubbing", () => {
	const server = useServer([]);
	const lines: string[] = [];
	beforeEach(() => {
		lines.length = 0;
		// The setup silences console.log/warn/debug; record everything printed instead.
		for (const method of ["log", "warn", "debug", "info", "error"] as const) {
			vi.spyOn(console, method).mockImplementation((...parts: unknown[]) => {
				lines.push(parts.map((part) => (typeof part === "string" ? part : inspect(part))).join(" "));
			});
		}
	});
	afterEach(() => {
		expect(lines.length).toBeGreaterThanOrEqual(0);
		for (const line of lines) {
			for (const secret of [FAL_KEY, BFL_KEY, ODD_KEY, HF_TOKEN, OTHER_HUB_TOKEN])
				expect(line).not.toContain(secret);
		}
	});

	it("a fal.ai result that echoes the key (Key form) becomes an output error without it", async () => {
		const job = falQueueJob({
			app: "vid",
			task: "text-to-video",
			submitStatus: "COMPLETED",
			result: { json: { detail: `Authorization 'Key ${FAL_KEY}' has no credits`, video: null } },
		});
		server().use(job.routes);
		const error = await textToVideo(
			{ accessToken: FAL_KEY, provider: "fal-ai", model: job.model, inputs: "x" },
			{ ...FAST, fetch: server().fetch },
		).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceOutputError);
		expect((error as Error).message).toContain("Authorization 'Key [redacted]' has no credits");
		expectClean(error, [FAL_KEY]);
	});

	it("an API error that echoes the hub token (Bearer form) and another hub token", async () => {
		server().use([
			hubModel("org/chat", { together: { providerId: "t", status: "live", task: "conversational" } }),
			{
				path: "/router.huggingface.co/together/v1/chat/completions",
				respond: {
					status: 401,
					json: { error: `token Bearer ${HF_TOKEN} rejected; try ${OTHER_HUB_TOKEN}` },
				},
			},
		]);
		const error = await chatCompletion(
			{ accessToken: HF_TOKEN, provider: "together", model: "org/chat", messages: MESSAGES },
			{ fetch: server().fetch },
		).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceProviderApiError);
		expect((error as Error).message).toBe('"token Bearer [redacted] rejected; try [redacted]"');
		expect((error as InferenceProviderApiError).request.headers.Authorization).toBe("Bearer [redacted]");
		expect(JSON.parse(JSON.stringify(error))).toMatchObject({
			name: "InferenceProviderApiError",
			message: '"token Bearer [redacted] rejected; try [redacted]"',
			status: 401,
		});
		expectClean(error, [HF_TOKEN]);
	});

	it("a streamed error that echoes the key (X-Key form)", async () => {
		server().use([
			{
				path: "/api.together.xyz/v1/chat/completions",
				respond: { sse: [`data: ${JSON.stringify({ error: { message: `bad X-Key ${BFL_KEY}` } })}\n\n`] },
			},
			hubModel("org/chat", { together: { providerId: "t", status: "live", task: "conversational" } }),
		]);
		const stream = chatCompletionStream(
			{ accessToken: BFL_KEY, provider: "together", model: "org/chat", messages: MESSAGES },
			{ fetch: server().fetch },
		);
		const error = await stream.next().catch((e: unknown) => e);
		expect((error as Error).message).toBe("Error forwarded from backend: bad X-Key [redacted]");
		expectClean(error, [BFL_KEY]);
	});

	it("a key a server put (URL-encoded) into a file URL is scrubbed from the message and the request", async () => {
		const fileUrl = `https://v3.fal.media/a.wav?key=${encodeURIComponent(ODD_KEY)}`;
		const job = falQueueJob({
			app: "audio",
			task: "text-to-audio",
			submitStatus: "COMPLETED",
			result: { json: { audio_file: { url: fileUrl } } },
		});
		server().use([
			...job.routes,
			{ method: "GET", path: "/v3.fal.media/a.wav", respond: { status: 404, body: "" } },
		]);
		const error = await textToAudio(
			{ accessToken: ODD_KEY, provider: "fal-ai", model: job.model, inputs: "x" },
			{ ...FAST, fetch: server().fetch },
		).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceProviderApiError);
		expect((error as Error).message).toBe(
			"Failed to fetch audio from https://v3.fal.media/a.wav?key=[redacted]: 404",
		);
		expect((error as InferenceProviderApiError).request.url).toBe(
			"https://v3.fal.media/a.wav?key=[redacted]",
		);
		expectClean(error, [ODD_KEY, encodeURIComponent(ODD_KEY)]);
	});

	it("a connection error's message, cause and stack carry no token", async () => {
		server().use([{ path: `/api.together.xyz/v1/chat/completions`, respond: { drop: true } }]);
		// An endpoint URL that (foolishly) carries the key in its query.
		const error = await chatCompletion(
			{
				accessToken: FAL_KEY,
				endpointUrl: `https://api.together.xyz/v1/chat/completions?key=${FAL_KEY}`,
				messages: MESSAGES,
			},
			{ fetch: server().fetch },
		).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceConnectionError);
		expectClean(error, [FAL_KEY]);
	});

	it("console lines (auto notice, staging warning, deprecation) carry no token", async () => {
		server().use([
			hubModel("org/staging", {
				"hf-inference": { providerId: "org/staging", status: "staging", task: "text-to-image" },
			}),
			{
				path: "/router.huggingface.co/hf-inference/models/org/staging",
				respond: { status: 500, json: { error: `no ${HF_TOKEN}` } },
			},
		]);
		const error = await textToImage(
			{ accessToken: HF_TOKEN, model: "org/staging", inputs: "x" },
			{ fetch: server().fetch, retry_on_error: false },
		).catch((e: unknown) => e);
		await request(
			{ accessToken: HF_TOKEN, model: "org/staging", provider: "hf-inference", inputs: "x" },
			{
				fetch: server().fetch,
				task: "text-to-image",
			},
		).catch(() => undefined);
		expectClean(error, [HF_TOKEN]);
		expect(lines.some((line) => line.includes("staging mode"))).toBe(true);
		expect(lines.some((line) => line.includes("Defaulting to 'auto'"))).toBe(true);
		expect(lines.some((line) => line.includes("request method is deprecated"))).toBe(true);
	});
});
