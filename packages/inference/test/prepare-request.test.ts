/**
 * The public dry run: `prepareRequest` / `prepareRequestSync` (and the client's methods) return the
 * exact request a call would send — compared here with what the real call sends to a local server —
 * without sending it. The sync form does no I/O at all (the global fetch refuses every call in these
 * tests) and says what to pass when a lookup would be needed.
 */
import { describe, expect, it } from "vitest";
import {
	automaticSpeechRecognition,
	chatCompletion,
	chatCompletionStream,
	InferenceClient,
	InferenceInputError,
	prepareRequest,
	prepareRequestSync,
	request,
	textClassification,
	textGeneration,
	textToImage,
	type PreparedInferenceRequest,
} from "../src/index.js";
import { CHAT_OUTPUT, HF_TOKEN, hubModel, MESSAGES, PNG_BYTES, PROVIDER_KEY } from "./support/fixtures.js";
import type { RecordedRequest, Route } from "./support/servers.js";
import { useServer } from "./support/setup.js";

const FLUX = "black-forest-labs/FLUX.1-schnell";
const TOGETHER_FLUX = {
	provider: "together",
	providerId: "flux-schnell-free",
	status: "live",
	task: "text-to-image",
} as const;
const MP3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0]);

const table: Route[] = [
	hubModel(FLUX, {
		together: { providerId: "flux-schnell-free", status: "live", task: "text-to-image" },
		"fal-ai": { providerId: "fal-ai/flux/schnell", status: "live", task: "text-to-image" },
	}),
	hubModel("org/chat", { together: { providerId: "together-chat", status: "live", task: "conversational" } }),
	hubModel("openai/whisper-large-v3", {
		"fal-ai": { providerId: "fal-ai/whisper", status: "live", task: "automatic-speech-recognition" },
	}),
	{
		path: "/router.huggingface.co/together/v1/images/generations",
		respond: { json: { data: [{ b64_json: "AA==" }] } },
	},
	{ path: "/api.together.xyz/v1/chat/completions", respond: { json: CHAT_OUTPUT } },
	{ path: "/router.huggingface.co/v1/chat/completions", respond: { json: CHAT_OUTPUT } },
	{ path: "/fal.run/fal-ai/whisper", respond: { json: { text: "hi" } } },
];

/** The dry run's request as the server would record it. */
function asSent(prepared: PreparedInferenceRequest) {
	const url = new URL(prepared.url);
	return {
		method: prepared.method,
		path: `/${url.host}${url.pathname}${url.search}`,
		headers: Object.fromEntries(
			Object.entries(prepared.headers).map(([name, value]) => [name.toLowerCase(), value]),
		),
		body: typeof prepared.body === "string" ? prepared.body : undefined,
	};
}

function recorded(request: RecordedRequest) {
	const headers: Record<string, string> = {};
	for (const name of ["authorization", "content-type", "user-agent", "x-hf-bill-to", "prefer"]) {
		const value = request.headers[name];
		if (typeof value === "string") headers[name] = value;
	}
	return { method: request.method, path: request.path, headers, body: request.body.toString("utf8") };
}

describe("prepareRequest: the exact request, not sent", () => {
	const server = useServer(table);

	it("sync, with the mapping given: what textToImage sends, to the byte", async () => {
		const args = {
			accessToken: HF_TOKEN,
			provider: "together" as const,
			model: FLUX,
			inputs: "a boat",
			parameters: { num_inference_steps: 4 },
		};
		const prepared = prepareRequestSync(textToImage, args, {
			inferenceProviderMapping: TOGETHER_FLUX,
			billTo: "acme",
		});
		expect(prepared).toMatchObject({
			url: "https://router.huggingface.co/together/v1/images/generations",
			method: "POST",
			contentType: "application/json",
			json: { steps: 4, prompt: "a boat", response_format: "base64", model: "flux-schnell-free" },
			auth: { header: "Authorization", scheme: "Bearer", method: "hf-token" },
			provider: "together",
			task: "text-to-image",
			providerModelId: "flux-schnell-free",
		});
		expect(prepared.headers.Authorization).toBe(`Bearer ${HF_TOKEN}`);
		expect(server().requests).toEqual([]);

		await textToImage(args, { fetch: server().fetch, billTo: "acme" });
		const sent = server().requestsTo("/router.huggingface.co/together")[0] as RecordedRequest;
		expect(asSent(prepared)).toEqual(recorded(sent));
	});

	it("async: looks the mapping up through the caller's fetch, and sends nothing to the provider", async () => {
		const prepared = await prepareRequest(
			textToImage,
			{ accessToken: PROVIDER_KEY, provider: "fal-ai", model: FLUX, inputs: "a boat" },
			{ fetch: server().fetch },
		);
		expect(prepared.url).toBe("https://fal.run/fal-ai/flux/schnell");
		expect(prepared.headers.Authorization).toBe(`Key ${PROVIDER_KEY}`);
		expect(prepared.auth).toEqual({ header: "Authorization", scheme: "Key", method: "provider-key" });
		expect(server().requests.map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual([
			`GET /huggingface.co/api/models/${FLUX}`,
		]);
	});

	it("without a token, `authMethod` chooses the routing shown; no Authorization header is invented", () => {
		const args = { provider: "fal-ai" as const, model: FLUX, inputs: "a boat" };
		const mapping = { providerId: "fal-ai/flux/schnell", status: "live", task: "text-to-image" } as const;
		const direct = prepareRequestSync(textToImage, args, {
			inferenceProviderMapping: mapping,
			authMethod: "provider-key",
		});
		expect(direct.url).toBe("https://fal.run/fal-ai/flux/schnell");
		expect(direct.headers).not.toHaveProperty("Authorization");
		expect(direct.auth).toEqual({ header: "Authorization", scheme: "Key", method: "provider-key" });
		const routed = prepareRequestSync(textToImage, args, {
			inferenceProviderMapping: mapping,
			authMethod: "hf-token",
		});
		expect(routed.url).toBe("https://router.huggingface.co/fal-ai/fal-ai/flux/schnell");
		expect(routed.auth?.scheme).toBe("Bearer");
		expect(prepareRequestSync(textToImage, args, { inferenceProviderMapping: mapping }).auth).toBeUndefined();
	});

	it("the mapping may be the hub's whole field, as an object or as a list; auto takes its first provider", () => {
		const args = { accessToken: HF_TOKEN, model: FLUX, inputs: "a boat" };
		const object = {
			"fal-ai": { providerId: "fal-ai/flux/schnell", status: "live", task: "text-to-image" },
			together: { providerId: "flux-schnell-free", status: "live", task: "text-to-image" },
		} as const;
		const list = [
			{ provider: "together", providerId: "flux-schnell-free", status: "live", task: "text-to-image" },
		] as const;
		expect(
			prepareRequestSync(textToImage, { ...args, provider: "auto" }, { inferenceProviderMapping: object })
				.provider,
		).toBe("fal-ai");
		const fromList = prepareRequestSync(
			textToImage,
			{ ...args, provider: "auto" },
			{ inferenceProviderMapping: [...list] },
		);
		expect(fromList.provider).toBe("together");
		expect(fromList.mapping).toMatchObject({
			provider: "together",
			hfModelId: FLUX,
			providerId: "flux-schnell-free",
		});
		expect(() =>
			prepareRequestSync(
				textToImage,
				{ ...args, provider: "replicate" },
				{ inferenceProviderMapping: object },
			),
		).toThrow(`We have not been able to find inference provider information for model ${FLUX}.`);
	});

	it("sync: what it cannot know without I/O is a clear InferenceInputError", () => {
		const call = (fn: () => unknown) => {
			try {
				fn();
			} catch (error) {
				expect(error).toBeInstanceOf(InferenceInputError);
				return (error as Error).message;
			}
			throw new Error("no error");
		};
		expect(
			call(() => prepareRequestSync(textToImage, { provider: "together", model: FLUX, inputs: "x" })),
		).toBe(
			`prepareRequestSync needs the inference provider mapping of ${FLUX}: pass it as the inferenceProviderMapping option, or use prepareRequest, which fetches it.`,
		);
		expect(
			call(() => prepareRequestSync(textClassification, { provider: "hf-inference", inputs: "x" })),
		).toBe(
			"prepareRequestSync needs a model for text-classification: pass args.model, or use prepareRequest, which looks up the task's default model.",
		);
		expect(
			call(() =>
				prepareRequestSync(
					automaticSpeechRecognition,
					{
						provider: "fal-ai",
						model: "openai/whisper-large-v3",
						inputs: new Blob([MP3], { type: "audio/mpeg" }),
					},
					{
						inferenceProviderMapping: {
							providerId: "fal-ai/whisper",
							status: "live",
							task: "automatic-speech-recognition",
						},
					},
				),
			),
		).toBe(
			"prepareRequestSync cannot read the input file of automatic-speech-recognition for fal-ai: use prepareRequest.",
		);
	});

	it("binary bodies come back as the Blob itself with its content type; the async form encodes files as the call does", async () => {
		const audio = new Blob([MP3], { type: "audio/mpeg" });
		const raw = prepareRequestSync(
			automaticSpeechRecognition,
			{ accessToken: HF_TOKEN, provider: "hf-inference", model: "openai/whisper-large-v3", inputs: audio },
			{
				inferenceProviderMapping: {
					providerId: "openai/whisper-large-v3",
					status: "live",
					task: "automatic-speech-recognition",
				},
			},
		);
		expect(raw.body).toBe(audio);
		expect(raw.contentType).toBe("audio/mpeg");
		expect(raw.headers).not.toHaveProperty("Content-Type");
		expect(raw.json).toBeUndefined();

		const args = {
			accessToken: PROVIDER_KEY,
			provider: "fal-ai" as const,
			model: "openai/whisper-large-v3",
			inputs: audio,
		};
		const prepared = await prepareRequest(automaticSpeechRecognition, args, { fetch: server().fetch });
		expect(prepared.json).toEqual({
			audio_url: `data:audio/mpeg;base64,${Buffer.from(MP3).toString("base64")}`,
		});
		await automaticSpeechRecognition(args, { fetch: server().fetch });
		expect(asSent(prepared)).toEqual(recorded(server().requestsTo("/fal.run")[0] as RecordedRequest));
	});

	it("multipart uploads come back as the FormData sent", () => {
		const prepared = prepareRequestSync(
			automaticSpeechRecognition,
			{
				accessToken: PROVIDER_KEY,
				provider: "deepinfra",
				model: "openai/whisper-large-v3",
				inputs: new Blob([MP3], { type: "audio/mpeg" }),
			},
			{
				inferenceProviderMapping: {
					providerId: "openai/whisper-large-v3",
					status: "live",
					task: "automatic-speech-recognition",
				},
			},
		);
		expect(prepared.url).toBe("https://api.deepinfra.com/v1/openai/audio/transcriptions");
		expect(prepared.contentType).toBe("multipart/form-data");
		expect(prepared.body).toBeInstanceOf(FormData);
		expect((prepared.body as FormData).get("model")).toBe("openai/whisper-large-v3");
		expect(((prepared.body as FormData).get("file") as File).name).toBe("audio.mp3");
	});

	it("chat without a provider: the router's auto-routing, no mapping needed, hub tokens only", async () => {
		const args = { accessToken: HF_TOKEN, model: "org/chat", messages: MESSAGES };
		const prepared = prepareRequestSync(chatCompletion, args);
		expect(prepared).toMatchObject({
			url: "https://router.huggingface.co/v1/chat/completions",
			provider: "auto",
			json: { model: "org/chat", messages: MESSAGES },
		});
		await chatCompletion(args, { fetch: server().fetch });
		expect(asSent(prepared)).toEqual(recorded(server().requests[0] as RecordedRequest));
		expect(() => prepareRequestSync(chatCompletion, { ...args, accessToken: PROVIDER_KEY })).toThrow(
			"Cannot select auto-router when using non-Hugging Face API key.",
		);
	});

	it("streaming functions, and task ids with `stream`, show the streamed body", () => {
		const mapping = { providerId: "together-chat", status: "live", task: "conversational" } as const;
		const args = {
			accessToken: PROVIDER_KEY,
			provider: "together" as const,
			model: "org/chat",
			messages: MESSAGES,
		};
		const streamed = prepareRequestSync(chatCompletionStream, args, { inferenceProviderMapping: mapping });
		expect(streamed.json).toEqual({ model: "together-chat", messages: MESSAGES, stream: true });
		expect(
			prepareRequestSync("conversational", args, { inferenceProviderMapping: mapping, stream: true }).json,
		).toEqual(streamed.json);
		expect(prepareRequestSync("conversational", args, { inferenceProviderMapping: mapping }).json).toEqual({
			model: "together-chat",
			messages: MESSAGES,
		});
	});

	it("a task id stands for its task function; request() sends the arguments as given", () => {
		const mapping = { providerId: "tg", status: "live", task: "text-generation" } as const;
		const args = {
			accessToken: PROVIDER_KEY,
			provider: "groq" as const,
			model: "org/tg",
			inputs: "Hi",
			parameters: { max_new_tokens: 3 },
		};
		const viaId = prepareRequestSync("text-generation", args, { inferenceProviderMapping: mapping });
		expect(viaId).toEqual(prepareRequestSync(textGeneration, args, { inferenceProviderMapping: mapping }));
		expect(viaId.json).toEqual({ model: "tg", messages: [{ role: "user", content: "Hi" }], max_tokens: 3 });
		const raw = prepareRequestSync(request, args, {
			task: "text-generation",
			inferenceProviderMapping: mapping,
		});
		expect(raw.json).toEqual(viaId.json);
	});

	it("endpoint URLs need no mapping", () => {
		const prepared = prepareRequestSync(chatCompletion, {
			endpointUrl: "https://my-endpoint.example/v1",
			accessToken: HF_TOKEN,
			messages: MESSAGES,
		});
		expect(prepared.url).toBe("https://my-endpoint.example/v1/chat/completions");
		expect(prepared.provider).toBe("hf-inference");
		expect(prepared.providerModelId).toBe("https://my-endpoint.example/v1");
	});

	it("the client's methods add its token, endpoint and options", async () => {
		const client = new InferenceClient(PROVIDER_KEY, { billTo: "acme" });
		const mapping = { providerId: "together-chat", status: "live", task: "conversational" } as const;
		const args = { provider: "together" as const, model: "org/chat", messages: MESSAGES };
		const prepared = client.prepareRequestSync(chatCompletion, args, { inferenceProviderMapping: mapping });
		expect(prepared.headers).toMatchObject({
			Authorization: `Bearer ${PROVIDER_KEY}`,
			"X-HF-Bill-To": "acme",
		});
		const fetched = await client.prepareRequest(chatCompletion, args, { fetch: server().fetch });
		expect(fetched).toEqual(prepared);
	});

	it("a function that is not one of ours is refused", () => {
		expect(() => prepareRequestSync((() => undefined) as never, {} as never)).toThrow(
			"prepareRequest: not a task function of this package.",
		);
	});

	it("images stay as given for a raw body (image bytes are not read)", () => {
		const image = new Blob([PNG_BYTES], { type: "image/png" });
		const prepared = prepareRequestSync(
			request,
			{ accessToken: HF_TOKEN, provider: "hf-inference", model: "org/seg", data: image },
			{
				task: "image-segmentation",
				inferenceProviderMapping: { providerId: "org/seg", status: "live", task: "image-segmentation" },
			},
		);
		expect(prepared.body).toBe(image);
		expect(prepared.url).toBe("https://router.huggingface.co/hf-inference/models/org/seg");
	});
});
