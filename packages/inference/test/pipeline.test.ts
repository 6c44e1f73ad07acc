/**
 * The request pipeline: provider resolution, validation messages (in 3.12.1's order), auth
 * modes and headers, the hub mapping lookup and its cache, default models, configurable hub/router.
 */
import { describe, expect, it, vi } from "vitest";
import {
	audioToAudio,
	chatCompletion,
	chatCompletionStream,
	InferenceOutputError,
	InferenceProviderApiError,
	request,
	streamingRequest,
	textClassification,
	textGeneration,
	textToImage,
} from "../src/index.js";
import { setProviderMappingCacheLimits } from "../src/lib/provider-mapping.js";
import {
	CHAT_OUTPUT,
	chatChunk,
	HF_TOKEN,
	hubModel,
	isStreaming,
	MESSAGES,
	notStreaming,
	PROVIDER_KEY,
	sseFrames,
	USER_AGENT,
} from "./support/fixtures.js";
import type { Route } from "./support/servers.js";
import { useServer } from "./support/setup.js";

const CHAT_MODEL = "org/chat";
const TOGETHER_CHAT = "/router.huggingface.co/together/v1/chat/completions";
const AUTO_ROUTER = "/router.huggingface.co/v1/chat/completions";

const label = { label: "POSITIVE", score: 0.9 };

const table: Route[] = [
	hubModel(CHAT_MODEL, {
		together: { providerId: "together-chat", status: "live", task: "conversational" },
		"hf-inference": { providerId: "org/chat", status: "live", task: "conversational" },
	}),
	hubModel("org/staging", {
		together: { providerId: "together-staging", status: "staging", task: "conversational" },
	}),
	hubModel("org/empty", {}),
	{
		method: "GET",
		path: "/huggingface.co/api/models/org/listed?expand[]=inferenceProviderMapping",
		respond: {
			json: {
				inferenceProviderMapping: [
					{
						provider: "hf-inference",
						providerId: "org/listed-on-hf",
						status: "live",
						task: "text-classification",
					},
					{ provider: "together", providerId: "listed-together", status: "live", task: "conversational" },
				],
			},
		},
	},
	{ path: "/router.huggingface.co/hf-inference/models/org/listed-on-hf", respond: { json: [[label]] } },
	{ path: AUTO_ROUTER, when: notStreaming, respond: { json: CHAT_OUTPUT } },
	{ path: AUTO_ROUTER, when: isStreaming, respond: { sse: sseFrames([chatChunk("Paris.")]) } },
	hubModel("org/classifier", {
		"hf-inference": { providerId: "org/classifier", status: "live", task: "text-classification" },
	}),
	hubModel("org/default-classifier", {
		"hf-inference": { providerId: "org/default-classifier", status: "live", task: "text-classification" },
	}),
	{
		method: "GET",
		path: "/huggingface.co/api/models/org/missing",
		respond: { status: 404, json: { error: "Repository not found" } },
	},
	{
		method: "GET",
		path: "/huggingface.co/api/models/org/no-mapping",
		respond: { json: { id: "org/no-mapping" } },
	},
	{
		method: "GET",
		path: "/huggingface.co/api/models/org/not-json",
		respond: { body: "<html>", headers: { "content-type": "text/html" } },
	},
	{
		method: "GET",
		path: "/huggingface.co/api/tasks",
		respond: {
			json: {
				"text-classification": { models: [{ id: "org/default-classifier" }] },
				"fill-mask": { models: [] },
			},
		},
	},
	{
		method: "GET",
		path: "/hub.internal/api/models/org/chat?expand[]=inferenceProviderMapping",
		respond: {
			json: {
				inferenceProviderMapping: {
					together: { providerId: "internal-chat", status: "live", task: "conversational" },
				},
			},
		},
	},
	{
		path: "/router.internal/together/v1/chat/completions",
		expect: { json: { messages: MESSAGES, model: "internal-chat" } },
		respond: { json: CHAT_OUTPUT },
	},
	{ path: "/api.together.xyz/v1/chat/completions", respond: { json: CHAT_OUTPUT } },
	{ path: TOGETHER_CHAT, respond: { json: CHAT_OUTPUT } },
	{
		path: "/router.huggingface.co/hf-inference/models/org/chat/v1/chat/completions",
		respond: { json: CHAT_OUTPUT },
	},
	{ path: "/router.huggingface.co/hf-inference/models/org/classifier", respond: { json: [[label]] } },
	{ path: "/router.huggingface.co/hf-inference/models/org/default-classifier", respond: { json: [[label]] } },
];

describe("pipeline", () => {
	const server = useServer(table);
	const fetchOpt = () => ({ fetch: server().fetch });

	describe("provider resolution", () => {
		it("chat without a provider: the auto notice, then the router's auto-routing with the plain model id", async () => {
			await chatCompletion({ accessToken: HF_TOKEN, model: CHAT_MODEL, messages: MESSAGES }, fetchOpt());
			expect(console.log).toHaveBeenCalledWith(
				"Defaulting to 'auto' which will select the first provider available for the model, sorted by the user's order in https://hf.co/settings/inference-providers.",
			);
			// No mapping lookup: the router picks the provider from the model id in the body.
			expect(server().requests.map((r) => r.path)).toEqual([AUTO_ROUTER]);
			expect(server().requests[0]?.json).toEqual({ model: CHAT_MODEL, messages: MESSAGES });
			expect(server().requests[0]?.headers.authorization).toBe(`Bearer ${HF_TOKEN}`);
		});

		it("chat with provider auto: streamed through the auto-router too", async () => {
			const chunks = [];
			for await (const chunk of chatCompletionStream(
				{ accessToken: HF_TOKEN, provider: "auto", model: CHAT_MODEL, messages: MESSAGES },
				fetchOpt(),
			)) {
				chunks.push(chunk);
			}
			expect(chunks).toHaveLength(1);
			expect(server().requests.map((r) => r.path)).toEqual([AUTO_ROUTER]);
			expect(server().requests[0]?.json).toEqual({ model: CHAT_MODEL, messages: MESSAGES, stream: true });
		});

		it("the auto-router needs a hub token: a provider key, or no token, is refused before any request", async () => {
			for (const accessToken of [PROVIDER_KEY, undefined]) {
				await expect(
					chatCompletion(
						{ accessToken, provider: "auto", model: CHAT_MODEL, messages: MESSAGES },
						fetchOpt(),
					),
				).rejects.toThrow("Cannot select auto-router when using non-Hugging Face API key.");
			}
			expect(server().requests).toEqual([]);
		});

		it("chat with an endpoint URL is not auto-routed", async () => {
			await chatCompletion(
				{
					accessToken: HF_TOKEN,
					endpointUrl: "https://router.huggingface.co/hf-inference/models/org/chat",
					messages: MESSAGES,
				},
				fetchOpt(),
			);
			expect(server().requests.map((r) => r.path)).toEqual([
				"/router.huggingface.co/hf-inference/models/org/chat/v1/chat/completions",
			]);
		});

		it("other tasks without a provider take the first provider of the mapping", async () => {
			await textClassification({ accessToken: HF_TOKEN, model: "org/classifier", inputs: "x" }, fetchOpt());
			expect(server().requests.map((r) => r.path)).toEqual([
				"/huggingface.co/api/models/org/classifier?expand[]=inferenceProviderMapping",
				"/router.huggingface.co/hf-inference/models/org/classifier",
			]);
		});

		it("auto uses the caller's fetch and the hub token for its lookup (3.12.1 used neither)", async () => {
			await textClassification(
				{ accessToken: HF_TOKEN, provider: "auto", model: "org/classifier", inputs: "x" },
				fetchOpt(),
			);
			expect(server().requests[0]?.headers.authorization).toBe(`Bearer ${HF_TOKEN}`);
		});

		it("auto needs a model", async () => {
			await expect(textClassification({ provider: "auto", inputs: "x" })).rejects.toThrow(
				"Specifying a model is required when provider is 'auto'",
			);
		});

		it("auto with an empty mapping", async () => {
			await expect(textClassification({ model: "org/empty", inputs: "x" }, fetchOpt())).rejects.toThrow(
				"No Inference Provider available for model org/empty.",
			);
		});

		it("the hub mapping may come as a list (list_models style): auto takes its first entry", async () => {
			await textClassification({ accessToken: HF_TOKEN, model: "org/listed", inputs: "x" }, fetchOpt());
			await chatCompletion(
				{ accessToken: HF_TOKEN, provider: "together", model: "org/listed", messages: MESSAGES },
				fetchOpt(),
			).catch((error: unknown) => error);
			expect(server().requests.map((r) => r.path)).toEqual([
				"/huggingface.co/api/models/org/listed?expand[]=inferenceProviderMapping",
				"/router.huggingface.co/hf-inference/models/org/listed-on-hf",
				TOGETHER_CHAT,
			]);
			expect(server().requestsTo(TOGETHER_CHAT)[0]?.json).toMatchObject({ model: "listed-together" });
		});

		it("endpointUrl and provider together", async () => {
			await expect(
				chatCompletion({ endpointUrl: "https://e.example", provider: "together", messages: MESSAGES }),
			).rejects.toThrow("Specifying both endpointUrl and provider is not supported.");
		});

		it("unknown provider, listing providers in table order", async () => {
			await expect(
				chatCompletion({ provider: "nope" as never, model: CHAT_MODEL, messages: MESSAGES }),
			).rejects.toThrow(
				"Provider 'nope' not supported. Available providers: baseten,black-forest-labs,cerebras,cohere,deepinfra,fal-ai,featherless-ai,hf-inference,fireworks-ai,groq,hyperbolic,nebius,novita,nscale,openai,ovhcloud,publicai,replicate,sambanova,scaleway,together,wavespeed,zai-org",
			);
		});

		it("task not served by the provider, listing its tasks", async () => {
			await expect(textClassification({ provider: "together", model: "m", inputs: "x" })).rejects.toThrow(
				"Task 'text-classification' not supported for provider 'together'. Available tasks: text-to-image,image-to-image,text-to-video,image-to-video,conversational,text-generation,feature-extraction,text-to-speech,automatic-speech-recognition",
			);
		});

		it("request() to a third-party provider needs a task", async () => {
			await expect(request({ provider: "together", model: "m", inputs: "x" })).rejects.toThrow(
				"you need to provide a task name when using an external provider, e.g. 'text-to-image'",
			);
		});
	});

	describe("input checks", () => {
		it("model URLs", async () => {
			await expect(
				textClassification({ provider: "hf-inference", model: "https://x.example/model", inputs: "x" }),
			).rejects.toThrow("Model URLs are no longer supported. Use endpointUrl instead.");
		});

		it("endpointUrl with a third-party provider (audioToAudio resolves its provider without the endpoint)", async () => {
			await expect(
				audioToAudio({
					endpointUrl: "https://e.example",
					provider: "fal-ai",
					model: "m",
					inputs: new Blob([new Uint8Array([1])], { type: "audio/mpeg" }),
				}),
			).rejects.toThrow("Cannot use endpointUrl with a third-party provider.");
		});

		it("neither model nor task", async () => {
			await expect(request({ provider: "hf-inference", inputs: "x" })).rejects.toThrow(
				"No model provided, and no task has been specified.",
			);
		});

		it("no model: the task's default model from GET {hub}/api/tasks, loaded once", async () => {
			const first = await textClassification({ provider: "hf-inference", inputs: "x" }, fetchOpt());
			const second = await textClassification({ provider: "hf-inference", inputs: "y" }, fetchOpt());
			expect(first).toEqual([label]);
			expect(second).toEqual([label]);
			expect(server().requestsTo("/huggingface.co/api/tasks")).toHaveLength(1);
		});

		it("no default model for the task", async () => {
			await expect(
				request({ provider: "hf-inference", inputs: "x" }, { ...fetchOpt(), task: "fill-mask" }),
			).rejects.toThrow("No default model defined for task fill-mask, please define the model explicitly.");
		});

		it("tasks definitions that fail to load (and are not cached)", async () => {
			server().use([
				{ method: "GET", path: "/huggingface.co/api/tasks", respond: { status: 500, body: "" } },
			]);
			for (let i = 0; i < 2; i++) {
				await expect(
					textClassification({ provider: "hf-inference", inputs: "x" }, fetchOpt()),
				).rejects.toThrow("Failed to load tasks definitions from Hugging Face Hub.");
			}
			expect(server().requestsTo("/huggingface.co/api/tasks")).toHaveLength(2);
		});
	});

	describe("hub mapping", () => {
		it("404 → Model {id} does not exist", async () => {
			await expect(
				textClassification({ provider: "hf-inference", model: "org/missing", inputs: "x" }, fetchOpt()),
			).rejects.toThrow(/^Model org\/missing does not exist$/);
		});

		it("no mapping field, or no JSON", async () => {
			for (const model of ["org/no-mapping", "org/not-json"]) {
				await expect(
					textClassification({ provider: "hf-inference", model, inputs: "x" }, fetchOpt()),
				).rejects.toThrow(`We have not been able to find inference provider information for model ${model}.`);
			}
		});

		it("provider absent from the mapping", async () => {
			await expect(
				chatCompletion({ provider: "groq", model: CHAT_MODEL, messages: MESSAGES }, fetchOpt()),
			).rejects.toThrow(
				`We have not been able to find inference provider information for model ${CHAT_MODEL}.`,
			);
		});

		it("task mismatch", async () => {
			await expect(
				textGeneration({ provider: "hf-inference", model: "org/classifier", inputs: "x" }, fetchOpt()),
			).rejects.toThrow(
				"Model org/classifier is not supported for task text-generation and provider hf-inference. Supported task: text-classification.",
			);
		});

		it("sends the token to the hub only when it is a hub token", async () => {
			await chatCompletion(
				{ accessToken: PROVIDER_KEY, provider: "together", model: CHAT_MODEL, messages: MESSAGES },
				fetchOpt(),
			);
			expect(server().requests[0]?.headers.authorization).toBeUndefined();
		});

		it("caches a model's mapping (one lookup for several calls)", async () => {
			for (let i = 0; i < 3; i++) {
				await chatCompletion(
					{ accessToken: HF_TOKEN, provider: "together", model: CHAT_MODEL, messages: MESSAGES },
					fetchOpt(),
				);
			}
			expect(server().requestsTo("/huggingface.co/api/models")).toHaveLength(1);
		});

		it("the cache is bounded: the least recently used model is evicted", async () => {
			setProviderMappingCacheLimits({ maxEntries: 2 });
			try {
				const call = (model: string) =>
					textClassification({ provider: "hf-inference", model, inputs: "x" }, fetchOpt());
				await call("org/classifier");
				await call("org/default-classifier");
				await chatCompletion({ provider: "together", model: CHAT_MODEL, messages: MESSAGES }, fetchOpt());
				await call("org/default-classifier");
				await call("org/classifier");
				expect(
					server()
						.requestsTo("/huggingface.co/api/models")
						.map((r) => r.path.split("?")[0]),
				).toEqual([
					"/huggingface.co/api/models/org/classifier",
					"/huggingface.co/api/models/org/default-classifier",
					"/huggingface.co/api/models/org/chat",
					"/huggingface.co/api/models/org/classifier",
				]);
			} finally {
				setProviderMappingCacheLimits({ maxEntries: 1000 });
			}
		});

		it("cache entries expire (TTL)", async () => {
			setProviderMappingCacheLimits({ ttlMs: 0 });
			try {
				await chatCompletion({ provider: "together", model: CHAT_MODEL, messages: MESSAGES }, fetchOpt());
				await chatCompletion({ provider: "together", model: CHAT_MODEL, messages: MESSAGES }, fetchOpt());
				expect(server().requestsTo("/huggingface.co/api/models")).toHaveLength(2);
			} finally {
				setProviderMappingCacheLimits({ ttlMs: 5 * 60 * 1000 });
			}
		});

		it("the staging warning is printed once per model and provider", async () => {
			server().use([
				...table,
				{ path: "/router.huggingface.co/together/v1/chat/completions", respond: { json: CHAT_OUTPUT } },
			]);
			for (let i = 0; i < 3; i++) {
				await chatCompletion({ provider: "together", model: "org/staging", messages: MESSAGES }, fetchOpt());
			}
			expect(vi.mocked(console.warn).mock.calls).toEqual([
				["Model org/staging is in staging mode for provider together. Meant for test purposes only."],
			]);
		});

		it("hubUrl and routerUrl options point the client at our own hub", async () => {
			const output = await chatCompletion(
				{ provider: "together", model: CHAT_MODEL, messages: MESSAGES },
				{ ...fetchOpt(), hubUrl: "https://hub.internal/", routerUrl: "https://router.internal" },
			);
			expect(output).toEqual(CHAT_OUTPUT);
			expect(server().requests.map((r) => r.path.split("?")[0])).toEqual([
				"/hub.internal/api/models/org/chat",
				"/router.internal/together/v1/chat/completions",
			]);
		});

		it("MODELHUB_HUB_URL / MODELHUB_ROUTER_URL are read at call time", async () => {
			vi.stubEnv("MODELHUB_HUB_URL", "https://hub.internal");
			vi.stubEnv("MODELHUB_ROUTER_URL", "https://router.internal");
			try {
				await chatCompletion({ provider: "together", model: CHAT_MODEL, messages: MESSAGES }, fetchOpt());
				expect(server().requests.map((r) => r.path.split("?")[0])).toEqual([
					"/hub.internal/api/models/org/chat",
					"/router.internal/together/v1/chat/completions",
				]);
			} finally {
				vi.unstubAllEnvs();
			}
		});
	});

	describe("auth modes and headers", () => {
		const recordInit = () => {
			const inits: RequestInit[] = [];
			const recording: typeof fetch = (input, init) => {
				if (init?.method === "POST") inits.push(init);
				return server().fetch(input, init);
			};
			return { inits, recording };
		};

		it("hub token: routed, Bearer hf_…", async () => {
			await chatCompletion(
				{ accessToken: HF_TOKEN, provider: "together", model: CHAT_MODEL, messages: MESSAGES },
				fetchOpt(),
			);
			const post = server().requestsTo(TOGETHER_CHAT)[0];
			expect(post?.headers.authorization).toBe(`Bearer ${HF_TOKEN}`);
			expect(post?.headers["user-agent"]).toBe(USER_AGENT);
		});

		it("provider key: direct to the provider", async () => {
			await chatCompletion(
				{ accessToken: PROVIDER_KEY, provider: "together", model: CHAT_MODEL, messages: MESSAGES },
				fetchOpt(),
			);
			expect(server().requestsTo("/api.together.xyz")[0]?.headers.authorization).toBe(
				`Bearer ${PROVIDER_KEY}`,
			);
		});

		it("no token: routed and no Authorization header at all (3.12.1 sent 'Bearer undefined')", async () => {
			await chatCompletion({ provider: "together", model: CHAT_MODEL, messages: MESSAGES }, fetchOpt());
			const post = server().requestsTo(TOGETHER_CHAT)[0];
			expect(post).toBeDefined();
			expect(post?.headers.authorization).toBeUndefined();
		});

		it('includeCredentials "include" without a token: credentials-include, routed, credentials passed', async () => {
			const { inits, recording } = recordInit();
			await chatCompletion(
				{ provider: "together", model: CHAT_MODEL, messages: MESSAGES },
				{ fetch: recording, includeCredentials: "include" },
			);
			expect(inits[0]?.credentials).toBe("include");
			expect(server().requestsTo(TOGETHER_CHAT)[0]?.headers.authorization).toBeUndefined();
		});

		it("includeCredentials true → include; a string is passed as given; absent → no key", async () => {
			const { inits, recording } = recordInit();
			const args = { provider: "together" as const, model: CHAT_MODEL, messages: MESSAGES };
			await chatCompletion(args, { fetch: recording, includeCredentials: true });
			await chatCompletion(args, { fetch: recording, includeCredentials: "same-origin" });
			await chatCompletion(args, { fetch: recording });
			expect(inits.map((init) => init.credentials)).toEqual(["include", "same-origin", undefined]);
			expect("credentials" in (inits[2] as object)).toBe(false);
		});

		it("billTo adds X-HF-Bill-To", async () => {
			await chatCompletion(
				{ accessToken: HF_TOKEN, provider: "together", model: CHAT_MODEL, messages: MESSAGES },
				{ ...fetchOpt(), billTo: "my-org" },
			);
			expect(server().requestsTo(TOGETHER_CHAT)[0]?.headers["x-hf-bill-to"]).toBe("my-org");
		});
	});

	describe("HTTP errors", () => {
		const errorRoute = (respond: Route["respond"]): Route[] => [
			...table.filter((route) => route.path !== TOGETHER_CHAT),
			{ path: TOGETHER_CHAT, respond },
		];
		const call = () =>
			chatCompletion(
				{ accessToken: HF_TOKEN, provider: "together", model: CHAT_MODEL, messages: MESSAGES },
				fetchOpt(),
			);

		it.each([
			["a JSON error string, quoted", { status: 400, json: { error: "bad input" } }, '"bad input"'],
			[
				"a JSON detail object",
				{ status: 422, json: { detail: [{ msg: "field required" }] } },
				'[{"msg":"field required"}]',
			],
			[
				"problem+json",
				{ status: 400, body: '{"error":"x"}', headers: { "content-type": "application/problem+json" } },
				'"x"',
			],
			// 3.12.1 says "[object Object]" for these; the body's own words are what the caller needs.
			["JSON without error/detail: quoted", { status: 500, json: { oops: 1 } }, '{"oops":1}'],
			[
				"JSON {code, message}: the message",
				{ status: 400, json: { code: 400, message: "prompt must not be empty" } },
				"prompt must not be empty",
			],
			[
				"a long JSON body: quoted up to 2,000 characters",
				{ status: 500, json: { trace: "x".repeat(5_000) } },
				`{"trace":"${"x".repeat(2_000 - 10)}…`,
			],
			[
				"text/plain with parameters",
				{ status: 500, body: "boom", headers: { "content-type": "text/plain; charset=utf-8" } },
				"boom",
			],
			[
				"text/plain without parameters",
				{ status: 500, body: "boom", headers: { "content-type": "text/plain" } },
				"An error occurred while fetching the blob",
			],
			[
				"HTML",
				{ status: 502, body: "<html/>", headers: { "content-type": "text/html" } },
				"An error occurred while fetching the blob",
			],
		])("%s", async (_name, reply, message) => {
			server().use(errorRoute(reply as never));
			const error = await call().catch((e: unknown) => e);
			expect(error).toBeInstanceOf(InferenceProviderApiError);
			expect((error as Error).message).toBe(message);
		});

		it("carries status, request id and a redacted request; the token never appears", async () => {
			server().use(
				errorRoute((request) => ({
					status: 401,
					headers: { "x-request-id": "req-42" },
					json: { error: `invalid token ${request.headers.authorization}` },
				})),
			);
			const error = (await call().catch((e: unknown) => e)) as InferenceProviderApiError;
			expect(error.status).toBe(401);
			expect(error.requestId).toBe("req-42");
			expect(error.isRetryable).toBe(false);
			expect(error.request).toMatchObject({
				method: "POST",
				url: `https://router.huggingface.co/together/v1/chat/completions`,
			});
			expect(error.request.headers.Authorization).toBe("Bearer [redacted]");
			expect(error.message).toBe('"invalid token Bearer [redacted]"');
			expect(JSON.stringify({ ...error, message: error.message })).not.toContain(HF_TOKEN);
		});
	});

	describe("request(…, { chatCompletion: true }): 3.12.1's chat wording on 400/404/422/500", () => {
		const errorRoute = (respond: Route["respond"]): Route[] => [
			...table.filter((route) => route.path !== TOGETHER_CHAT),
			{ path: TOGETHER_CHAT, respond },
		];
		const args = {
			accessToken: HF_TOKEN,
			provider: "together" as const,
			model: CHAT_MODEL,
			messages: MESSAGES,
		};
		const options = (chatCompletion?: boolean) => ({
			...fetchOpt(),
			task: "conversational" as const,
			chatCompletion,
		});

		it.each([400, 404, 422, 500])("%i with a JSON error", async (status) => {
			server().use(errorRoute({ status, json: { error: "Template error: template not found" } }));
			await expect(request(args, options(true))).rejects.toThrow(
				'Server org/chat does not seem to support chat completion. Error: "Template error: template not found"',
			);
		});

		it("streaming: the error text as sent", async () => {
			server().use(errorRoute({ status: 422, json: { error: "Template error: template not found" } }));
			const stream = streamingRequest(args, options(true));
			await expect(stream.next()).rejects.toThrow(
				"Server org/chat does not seem to support chat completion. Error: Template error: template not found",
			);
		});

		it("other statuses, and calls without the flag, keep the usual wording", async () => {
			server().use(errorRoute({ status: 401, json: { error: "no" } }));
			await expect(request(args, options(true))).rejects.toThrow(/^"no"$/);
			server().use(errorRoute({ status: 400, json: { error: "no" } }));
			await expect(request(args, options(false))).rejects.toThrow(/^"no"$/);
		});
	});

	describe("streaming errors", () => {
		const streamRoute = (respond: Route["respond"]): Route[] => [
			...table.filter((route) => route.path !== TOGETHER_CHAT),
			{ path: TOGETHER_CHAT, respond },
		];
		const firstChunk = () =>
			chatCompletionStream(
				{ accessToken: HF_TOKEN, provider: "together", model: CHAT_MODEL, messages: MESSAGES },
				fetchOpt(),
			).next();

		it.each([
			["error string", { status: 400, json: { error: "bad" } }, "bad"],
			[
				"OpenAI-style error.message",
				{ status: 400, json: { error: { message: "context too long" } } },
				"context too long",
			],
			["top-level message", { status: 429, json: { message: "slow down" } }, "slow down"],
			["other JSON", { status: 500, json: { nope: 1 } }, "Server response contains error: 500"],
			[
				"not JSON",
				{ status: 502, body: "x", headers: { "content-type": "text/plain" } },
				"Server response contains error: 502",
			],
			[
				"OK but not an event stream",
				{ json: CHAT_OUTPUT },
				"Server does not support event stream content type, it returned application/json",
			],
			[
				"a backend error inside the stream",
				{ sse: ['data: {"error":"model overloaded"}\n\n'] },
				"Error forwarded from backend: model overloaded",
			],
			[
				"a backend error object inside the stream",
				{ sse: ['data: {"error":{"message":"oom"}}\n\n'] },
				"Error forwarded from backend: oom",
			],
		])("%s", async (_name, reply, message) => {
			server().use(streamRoute(reply as never));
			await expect(firstChunk()).rejects.toThrow(message);
		});
	});

	it("InferenceOutputError for a wrong shape (chat)", async () => {
		server().use([
			...table.filter((route) => route.path !== TOGETHER_CHAT),
			{ path: TOGETHER_CHAT, respond: { json: { id: 1 } } },
		]);
		await expect(
			chatCompletion({ provider: "together", model: CHAT_MODEL, messages: MESSAGES }, fetchOpt()),
		).rejects.toBeInstanceOf(InferenceOutputError);
	});

	it("textToImage reaches the helper of the mapped provider through auto", async () => {
		await expect(textToImage({ model: CHAT_MODEL, inputs: "x" }, fetchOpt())).rejects.toThrow(
			`Model ${CHAT_MODEL} is not supported for task text-to-image and provider together. Supported task: conversational.`,
		);
	});
});
