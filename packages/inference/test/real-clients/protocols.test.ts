/**
 * The protocol servers refuse what the real APIs refuse: one request per rule, sent with plain fetch
 * (the host travels in X-Forwarded-Host, as the node redirect sends it), and the status and message
 * the server answers. If these pass, a snippet that breaks a rule cannot pass the real-client run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HUB_TOKEN, providerKey } from "./harness/credentials.js";
import { RUN_HEADER, startProtocolServers, type ProtocolServers } from "./harness/server.js";
import { makeCertificate } from "./harness/tls.js";
import { PROTOCOLS } from "./protocols/index.js";
import { FLAC, JPEG, PNG, WAV } from "./protocols/media.js";

let servers: ProtocolServers;
let dir: string;

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "modelhub-protocols-"));
	servers = await startProtocolServers(PROTOCOLS, makeCertificate(dir, ["api.together.xyz"]));
	servers.addModel({
		id: "acme-labs/chat",
		pipeline_tag: "text-generation",
		tags: ["conversational"],
		inferenceProviderMapping: {
			together: { providerId: "acme-labs/chat-Turbo", status: "live", task: "conversational" },
			groq: { providerId: "chat-versatile", status: "live", task: "conversational" },
			"hf-inference": { providerId: "acme-labs/chat", status: "live", task: "conversational" },
		},
	});
	servers.addModel({
		id: "acme-labs/asr",
		pipeline_tag: "automatic-speech-recognition",
		tags: [],
		inferenceProviderMapping: {
			"fal-ai": { providerId: "fal-ai/asr", status: "live", task: "automatic-speech-recognition" },
			"hf-inference": { providerId: "acme-labs/asr", status: "live", task: "automatic-speech-recognition" },
		},
	});
	servers.addProviderModel("openai", "gpt-4o-mini", "conversational");
	servers.addModel({
		id: "acme-labs/edit",
		pipeline_tag: "image-to-image",
		tags: [],
		inferenceProviderMapping: {
			wavespeed: { providerId: "wavespeed-ai/edit", status: "live", task: "image-to-image" },
		},
	});
});

afterAll(async () => {
	await servers?.close();
	rmSync(dir, { recursive: true, force: true });
});

interface Call {
	url: string;
	authorization?: string;
	json?: unknown;
	body?: Uint8Array;
	contentType?: string;
	method?: string;
}

async function send(call: Call): Promise<{ status: number; text: string; refusal?: string }> {
	const url = new URL(call.url);
	const headers = new Headers({ "x-forwarded-host": url.host, [RUN_HEADER]: call.url });
	if (call.authorization) headers.set("authorization", call.authorization);
	const body = call.json !== undefined ? JSON.stringify(call.json) : call.body && new Uint8Array(call.body);
	if (call.json !== undefined) headers.set("content-type", "application/json");
	if (call.contentType) headers.set("content-type", call.contentType);
	const before = servers.records.length;
	const response = await fetch(`http://${servers.httpAddress}${url.pathname}${url.search}`, {
		method: call.method ?? "POST",
		headers,
		body,
	});
	return { status: response.status, text: await response.text(), refusal: servers.records[before]?.refusal };
}

const HUB = `Bearer ${HUB_TOKEN}`;
const MESSAGES = [{ role: "user", content: "Hi" }];
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString("base64")}`;

/** [what, request, expected status, part of the refusal message]. */
const RULES: Array<[string, Call, number, string?]> = [
	[
		"a chat call with the provider's key and id",
		{
			url: "https://api.together.xyz/v1/chat/completions",
			authorization: `Bearer ${providerKey("together")}`,
			json: { model: "acme-labs/chat-Turbo", messages: MESSAGES },
		},
		200,
	],
	[
		"chat without messages",
		{
			url: "https://api.groq.com/openai/v1/chat/completions",
			authorization: `Bearer ${providerKey("groq")}`,
			json: { model: "chat-versatile", inputs: "Hi" },
		},
		400,
		"'messages'",
	],
	[
		"completions without a prompt",
		{
			url: "https://api.together.xyz/v1/completions",
			authorization: `Bearer ${providerKey("together")}`,
			json: { model: "acme-labs/chat-Turbo", inputs: "Hi" },
		},
		400,
		"'prompt'",
	],
	[
		"the hub id where the provider's id belongs",
		{
			url: "https://api.together.xyz/v1/chat/completions",
			authorization: `Bearer ${providerKey("together")}`,
			json: { model: "acme-labs/chat", messages: MESSAGES },
		},
		404,
		"does not exist",
	],
	[
		"a JSON body sent as text/plain",
		{
			url: "https://api.together.xyz/v1/chat/completions",
			authorization: `Bearer ${providerKey("together")}`,
			body: Buffer.from(JSON.stringify({ model: "acme-labs/chat-Turbo", messages: MESSAGES })),
			contentType: "text/plain",
		},
		415,
	],
	[
		"a hub token sent directly to a provider",
		{
			url: "https://api.together.xyz/v1/chat/completions",
			authorization: HUB,
			json: { model: "acme-labs/chat-Turbo", messages: MESSAGES },
		},
		401,
		"Hugging Face token",
	],
	[
		"another provider's key",
		{
			url: "https://api.together.xyz/v1/chat/completions",
			authorization: `Bearer ${providerKey("groq")}`,
			json: { model: "acme-labs/chat-Turbo", messages: MESSAGES },
		},
		401,
		"Invalid API key",
	],
	[
		"a provider key on the router",
		{
			url: "https://router.huggingface.co/together/v1/chat/completions",
			authorization: `Bearer ${providerKey("together")}`,
			json: { model: "acme-labs/chat-Turbo", messages: MESSAGES },
		},
		401,
	],
	[
		"a hub token on the router",
		{
			url: "https://router.huggingface.co/together/v1/chat/completions",
			authorization: HUB,
			json: { model: "acme-labs/chat-Turbo", messages: MESSAGES },
		},
		200,
	],
	[
		"a fal key as Bearer",
		{
			url: "https://fal.run/fal-ai/asr",
			authorization: `Bearer ${providerKey("fal-ai")}`,
			json: { audio_url: dataUrl("audio/wav", WAV) },
		},
		401,
		"Key {key}",
	],
	[
		"a fal key as Key, with WAV audio labelled audio/x-wav",
		{
			url: "https://fal.run/fal-ai/asr",
			authorization: `Key ${providerKey("fal-ai")}`,
			json: { audio_url: dataUrl("audio/x-wav", WAV) },
		},
		200,
	],
	[
		"WAV audio labelled audio/wav to fal.ai",
		{
			url: "https://fal.run/fal-ai/asr",
			authorization: `Key ${providerKey("fal-ai")}`,
			json: { audio_url: dataUrl("audio/wav", WAV) },
		},
		422,
		"audio/wav",
	],
	[
		"FLAC audio to fal.ai, whatever its label",
		{
			url: "https://fal.run/fal-ai/asr",
			authorization: `Key ${providerKey("fal-ai")}`,
			json: { audio_url: dataUrl("audio/mpeg", FLAC) },
		},
		422,
		"flac",
	],
	[
		"an hf_ token to OpenAI",
		{
			url: "https://api.openai.com/v1/chat/completions",
			authorization: HUB,
			json: { model: "gpt-4o-mini", messages: MESSAGES },
		},
		401,
	],
	[
		"a prefixed id to OpenAI",
		{
			url: "https://api.openai.com/v1/chat/completions",
			authorization: `Bearer ${providerKey("openai")}`,
			json: { model: "openai/gpt-4o-mini", messages: MESSAGES },
		},
		404,
		"openai/gpt-4o-mini",
	],
	[
		"an argument OpenAI does not define",
		{
			url: "https://api.openai.com/v1/chat/completions",
			authorization: `Bearer ${providerKey("openai")}`,
			json: { model: "gpt-4o-mini", messages: MESSAGES, inputs: "Hi" },
		},
		400,
		"Unrecognized request argument",
	],
	[
		"OpenAI through the router",
		{
			url: "https://router.huggingface.co/openai/v1/chat/completions",
			authorization: HUB,
			json: { model: "gpt-4o-mini", messages: MESSAGES },
		},
		404,
	],
	[
		"hf-inference audio labelled as an image",
		{
			url: "https://router.huggingface.co/hf-inference/models/acme-labs/asr",
			authorization: HUB,
			body: FLAC,
			contentType: "image/jpeg",
		},
		415,
	],
	[
		"hf-inference audio task given an image",
		{
			url: "https://router.huggingface.co/hf-inference/models/acme-labs/asr",
			authorization: HUB,
			body: JPEG,
			contentType: "image/jpeg",
		},
		422,
	],
	[
		"hf-inference with the audio file as body",
		{
			url: "https://router.huggingface.co/hf-inference/models/acme-labs/asr",
			authorization: HUB,
			body: FLAC,
			contentType: "audio/flac",
		},
		200,
	],
	[
		"hf-inference called directly with a provider key",
		{
			url: "https://api-inference.huggingface.co/models/acme-labs/asr",
			authorization: `Bearer ${providerKey("hf-inference")}`,
			body: FLAC,
			contentType: "audio/flac",
		},
		401,
	],
	[
		"a hub model that does not exist",
		{ url: "https://huggingface.co/api/models/acme-labs/missing", method: "GET" },
		404,
		"Repository not found",
	],
	...(["a data: URL (huggingface_hub)", "bare base64 (huggingface.js)"] as const).map(
		(form): [string, Call, number] => [
			`a WaveSpeed edit with the image as ${form}`,
			{
				url: "https://api.wavespeed.ai/api/v3/wavespeed-ai/edit",
				authorization: `Bearer ${providerKey("wavespeed")}`,
				json: {
					image: form.startsWith("a data") ? dataUrl("image/png", PNG) : PNG.toString("base64"),
					images: [PNG.toString("base64")],
					prompt: "Paint it",
				},
			},
			200,
		],
	),
	[
		"a WaveSpeed edit whose image is not an image",
		{
			url: "https://api.wavespeed.ai/api/v3/wavespeed-ai/edit",
			authorization: `Bearer ${providerKey("wavespeed")}`,
			json: { image: WAV.toString("base64"), prompt: "Paint it" },
		},
		422,
		"unsupported media (wav)",
	],
	[
		"a route the provider does not have",
		{
			url: "https://api.groq.com/openai/v1/completions",
			authorization: `Bearer ${providerKey("groq")}`,
			json: { model: "chat-versatile", prompt: "Hi" },
		},
		404,
		"No route",
	],
];

describe("protocol servers refuse what the real APIs refuse", () => {
	for (const [what, call, status, message] of RULES) {
		it(`${what} → ${status}`, async () => {
			const answer = await send(call);
			expect(answer.status, answer.text).toBe(status);
			if (message) expect(answer.refusal ?? "").toContain(message);
			if (status < 400) expect(answer.refusal).toBeUndefined();
		});
	}

	it("a request that lost its original host is refused", async () => {
		const response = await fetch(`http://${servers.httpAddress}/v1/chat/completions`, { method: "POST" });
		expect(response.status).toBe(421);
	});
});
