/**
 * Table rows and checks shared by the text-generation routes of OpenAI-style providers: a
 * completions route gets `prompt`, a chat route one user message; TGI parameters are mapped
 * (`max_new_tokens` → `max_tokens`, TGI-only ones dropped) and `inputs`/`parameters` never sent.
 */
import { expect, it } from "vitest";
import { InferenceOutputError, textGeneration, textGenerationStream } from "../../src/index.js";
import type { InferenceProvider } from "../../src/types.js";
import { HF_TOKEN, hubModel, isStreaming, notStreaming, PROVIDER_KEY, sseFrames } from "./fixtures.js";
import type { RecordedRequest, Route, TestServer } from "./servers.js";

export interface TextGenerationSpec {
	provider: InferenceProvider;
	/** "/{host}{path}" of the routed URL (hub token); absent for providers the router no longer serves. */
	routed?: string;
	/** "/{host}{path}" of the direct URL (provider key). */
	direct: string;
	style: "completions" | "chat";
	/** 3.12.1's (or our) error text for a malformed answer. */
	malformed: string;
	/** Authorization value for the provider key. */
	directAuth?: string;
	/** The answer's finish reason and seed come back as `details` (Together, Novita). */
	details?: boolean;
}

const MODEL = "org/text-generator";
const PROVIDER_MODEL = "provider-text-generator";
const BAD_MODEL = "org/text-generator-bad";
/** TGI parameters as callers pass them: one renamed, one shared, two TGI-only. */
const TGI_PARAMETERS = { max_new_tokens: 5, temperature: 0.5, details: true, return_full_text: false };

function expectedBody(style: TextGenerationSpec["style"], extra: Record<string, unknown> = {}) {
	const input =
		style === "chat" ? { messages: [{ role: "user", content: "Once upon" }] } : { prompt: "Once upon" };
	return { model: PROVIDER_MODEL, ...input, max_tokens: 5, temperature: 0.5, ...extra };
}

function answer(style: TextGenerationSpec["style"], text: string) {
	const choice = style === "chat" ? { message: { role: "assistant", content: text } } : { text };
	return {
		id: "c1",
		object: "x",
		created: 1,
		model: PROVIDER_MODEL,
		choices: [{ index: 0, ...choice, finish_reason: "stop" }],
	};
}

function chunk(style: TextGenerationSpec["style"], text: string, finish: string | null) {
	const choice = style === "chat" ? { delta: { content: text } } : { text };
	return { id: "c1", model: PROVIDER_MODEL, choices: [{ index: 0, ...choice, finish_reason: finish }] };
}

const modelIs = (model: string) => (request: RecordedRequest) =>
	(request.json as { model?: string } | undefined)?.model === model;

export function textGenerationRows(spec: TextGenerationSpec): Route[] {
	const rows: Route[] = [
		hubModel(MODEL, {
			[spec.provider]: { providerId: PROVIDER_MODEL, status: "live", task: "text-generation" },
		}),
		hubModel(BAD_MODEL, { [spec.provider]: { providerId: "bad", status: "live", task: "text-generation" } }),
	];
	const variants: Array<[string, string]> = [[spec.direct, spec.directAuth ?? `Bearer ${PROVIDER_KEY}`]];
	if (spec.routed) variants.push([spec.routed, `Bearer ${HF_TOKEN}`]);
	for (const [path, authorization] of variants) {
		rows.push(
			{ path, when: modelIs("bad"), respond: { json: { choices: [] } } },
			{
				path,
				when: (r) => modelIs(PROVIDER_MODEL)(r) && (r.json as { max_tokens?: number }).max_tokens === 9,
				expect: { json: { ...expectedBody(spec.style), max_tokens: 9 } },
				respond: { json: answer(spec.style, " a time") },
			},
			{
				path,
				when: (r) => modelIs(PROVIDER_MODEL)(r) && notStreaming(r),
				expect: {
					headers: { authorization, "content-type": "application/json" },
					json: expectedBody(spec.style),
				},
				respond: { json: answer(spec.style, " a time") },
			},
			{
				path,
				when: (r) => modelIs(PROVIDER_MODEL)(r) && isStreaming(r),
				expect: { json: expectedBody(spec.style, { stream: true }) },
				respond: {
					sse: sseFrames([chunk(spec.style, " a", null), chunk(spec.style, " time", "stop")]),
				},
			},
		);
	}
	return rows;
}

export function textGenerationChecks(getServer: () => TestServer, spec: TextGenerationSpec): void {
	const { provider } = spec;
	const tokens = spec.routed ? [HF_TOKEN, PROVIDER_KEY] : [PROVIDER_KEY];
	for (const accessToken of tokens) {
		const how = accessToken === HF_TOKEN ? "routed" : "direct";
		it(`text-generation (${how}): ${spec.style === "chat" ? "one user message" : "prompt"}, mapped parameters, no inputs/parameters; {generated_text} back`, async () => {
			const output = await textGeneration(
				{ accessToken, provider, model: MODEL, inputs: "Once upon", parameters: TGI_PARAMETERS },
				{ fetch: getServer().fetch },
			);
			expect(output.generated_text).toBe(" a time");
			const sent = getServer().requests.at(-1)?.json as Record<string, unknown>;
			for (const key of ["inputs", "parameters", "max_new_tokens", "details", "return_full_text"]) {
				expect(sent, key).not.toHaveProperty(key);
			}
		});
	}

	if (spec.details) {
		it("text-generation: the finish reason and seed come back as details", async () => {
			const output = await textGeneration(
				{
					accessToken: spec.routed ? HF_TOKEN : PROVIDER_KEY,
					provider,
					model: MODEL,
					inputs: "Once upon",
					parameters: { max_new_tokens: 5, temperature: 0.5 },
				},
				{ fetch: getServer().fetch },
			);
			expect(output).toEqual({
				generated_text: " a time",
				details: { finish_reason: "stop", seed: undefined },
			});
		});
	}

	it("text-generation: an explicit max_tokens wins over max_new_tokens (never both names)", async () => {
		const output = await textGeneration(
			{
				accessToken: PROVIDER_KEY,
				provider,
				model: MODEL,
				inputs: "Once upon",
				parameters: { ...TGI_PARAMETERS, max_tokens: 9 },
			},
			{ fetch: getServer().fetch },
		);
		expect(output.generated_text).toBe(" a time");
	});

	it("text-generation stream: chunks in TGI's shape, generated_text on the last", async () => {
		const chunks = [];
		for await (const chunk of textGenerationStream(
			{ accessToken: PROVIDER_KEY, provider, model: MODEL, inputs: "Once upon", parameters: TGI_PARAMETERS },
			{ fetch: getServer().fetch },
		)) {
			chunks.push(chunk);
		}
		expect(chunks.map((c) => c.token.text)).toEqual([" a", " time"]);
		expect(chunks.map((c) => c.generated_text)).toEqual([null, " a time"]);
	});

	it("text-generation: a malformed answer is an InferenceOutputError", async () => {
		const call = textGeneration(
			{ accessToken: PROVIDER_KEY, provider, model: BAD_MODEL, inputs: "x" },
			{ fetch: getServer().fetch },
		);
		await expect(call).rejects.toBeInstanceOf(InferenceOutputError);
		await expect(
			textGeneration(
				{ accessToken: PROVIDER_KEY, provider, model: BAD_MODEL, inputs: "x" },
				{ fetch: getServer().fetch },
			),
		).rejects.toThrow(`Invalid inference output: ${spec.malformed}.`);
	});
}
