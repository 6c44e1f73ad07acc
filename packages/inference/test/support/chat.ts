/** Table rows and checks shared by the OpenAI-compatible chat providers. */
import { expect, it } from "vitest";
import { chatCompletion, chatCompletionStream, InferenceOutputError } from "../../src/index.js";
import type { InferenceProvider } from "../../src/types.js";
import {
	CHAT_OUTPUT,
	chatChunk,
	FAST,
	HF_TOKEN,
	isStreaming,
	MESSAGES,
	notStreaming,
	PROVIDER_KEY,
	sseFrames,
	USER_AGENT,
} from "./fixtures.js";
import type { Route, TestServer } from "./servers.js";

export interface ChatRows {
	/** "/{host}{path}" of the routed URL (hub token). */
	routed?: string;
	/** "/{host}{path}" of the direct URL (provider key). */
	direct: string;
	providerId: string;
	/** Authorization value for the provider key. */
	directAuth?: string;
}

const isMalformed = (request: { json?: unknown }) =>
	(request.json as { model?: string } | undefined)?.model === "malformed";

/** POST chat rows: JSON answer, SSE answer (stream: true), and a malformed answer for model "malformed". */
export function chatRows(spec: ChatRows): Route[] {
	const rows: Route[] = [];
	const variants: Array<[string, string]> = [[spec.direct, spec.directAuth ?? `Bearer ${PROVIDER_KEY}`]];
	if (spec.routed) variants.unshift([spec.routed, `Bearer ${HF_TOKEN}`]);
	for (const [path, authorization] of variants) {
		rows.push(
			{ path, when: isMalformed, respond: { json: { hello: "world" } } },
			{
				path,
				when: notStreaming,
				expect: {
					headers: { authorization, "content-type": "application/json", "user-agent": USER_AGENT },
					json: { messages: MESSAGES, max_tokens: 20, model: spec.providerId },
				},
				respond: { json: CHAT_OUTPUT },
			},
			{
				path,
				when: isStreaming,
				expect: {
					headers: { authorization },
					json: { messages: MESSAGES, stream: true, model: spec.providerId },
				},
				respond: { sse: sseFrames([chatChunk("Par"), chatChunk("is.")]) },
			},
		);
	}
	return rows;
}

/** The chat checks every chat provider passes. */
export function chatChecks(
	getServer: () => TestServer,
	spec: {
		provider: InferenceProvider;
		model: string;
		routed: boolean;
		validates?: boolean;
		malformedModel?: string;
	},
): void {
	const { provider, model } = spec;
	if (spec.routed) {
		it("conversational: routed through the hub router with a hub token", async () => {
			const output = await chatCompletion(
				{ accessToken: HF_TOKEN, provider, model, messages: MESSAGES, max_tokens: 20 },
				{ fetch: getServer().fetch },
			);
			expect(output).toEqual(CHAT_OUTPUT);
		});
		it("conversational stream: routed, SSE chunks until [DONE]", async () => {
			const contents: string[] = [];
			for await (const chunk of chatCompletionStream(
				{ accessToken: HF_TOKEN, provider, model, messages: MESSAGES },
				{ fetch: getServer().fetch },
			)) {
				contents.push(chunk.choices[0]?.delta.content ?? "");
			}
			expect(contents).toEqual(["Par", "is."]);
		});
	}
	it("conversational: direct with a provider key", async () => {
		const output = await chatCompletion(
			{ accessToken: PROVIDER_KEY, provider, model, messages: MESSAGES, max_tokens: 20 },
			{ fetch: getServer().fetch },
		);
		expect(output).toEqual(CHAT_OUTPUT);
	});
	it("conversational stream: direct with a provider key", async () => {
		const chunks = [];
		for await (const chunk of chatCompletionStream(
			{ accessToken: PROVIDER_KEY, provider, model, messages: MESSAGES },
			{ fetch: getServer().fetch },
		)) {
			chunks.push(chunk);
		}
		expect(chunks).toHaveLength(2);
	});
	if (spec.validates !== false && spec.malformedModel) {
		it("conversational: a malformed answer is an InferenceOutputError", async () => {
			const call = chatCompletion(
				{ accessToken: PROVIDER_KEY, provider, model: spec.malformedModel, messages: MESSAGES },
				{ ...FAST, fetch: getServer().fetch },
			);
			await expect(call).rejects.toBeInstanceOf(InferenceOutputError);
			await expect(
				chatCompletion(
					{ accessToken: PROVIDER_KEY, provider, model: spec.malformedModel, messages: MESSAGES },
					{ fetch: getServer().fetch },
				),
			).rejects.toThrow(
				"Invalid inference output: Expected ChatCompletionOutput. Use the 'request' method with the same parameters to do a custom call with no type checking.",
			);
		});
	}
}
