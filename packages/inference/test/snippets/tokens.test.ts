/** Credentials, URLs and bill-to in snippets: inserted when given, read from the environment otherwise. */
import { describe, expect, it } from "vitest";
import { getInferenceSnippets, type InferenceSnippet } from "../../src/snippets/index.js";
import type { InferenceProvider, InferenceTask } from "../../src/types.js";
import { HF_TOKEN, PROVIDER_KEY, mappingFor, modelFor } from "./support.js";

function snippetsFor(
	pipeline: string,
	provider: InferenceProvider,
	token: string | undefined,
	opts: Parameters<typeof getInferenceSnippets>[4] = {},
	tags: string[] = [],
): Record<string, string> {
	const model =
		provider === "openai"
			? { ...modelFor(pipeline, tags), id: "openai/gpt-4o-mini" }
			: modelFor(pipeline, tags);
	const task = (tags.includes("conversational") ? "conversational" : pipeline) as InferenceTask;
	const list: InferenceSnippet[] = getInferenceSnippets(
		model,
		token,
		provider,
		mappingFor(model, provider, task),
		opts,
	);
	return Object.fromEntries(list.map((s) => [`${s.language}/${s.client}`, s.content]));
}

const CHAT = ["conversational"];

describe("no token: read from the environment, routed through the hub", () => {
	for (const token of [undefined, ""]) {
		it(`token ${JSON.stringify(token)}: HF_TOKEN in each language's idiom, router URL`, () => {
			const s = snippetsFor("text-generation", "together", token, {}, CHAT);
			expect(s["python/huggingface_hub"]).toContain('api_key=os.environ["HF_TOKEN"],');
			expect(s["python/huggingface_hub"]).toMatch(/^import os\n/);
			expect(s["python/requests"]).toContain(`"Authorization": f"Bearer {os.environ['HF_TOKEN']}",`);
			expect(s["python/openai"]).toContain('api_key=os.environ["HF_TOKEN"],');
			expect(s["python/openai"]).toContain('base_url="https://router.huggingface.co/together/v1",');
			expect(s["js/huggingface.js"]).toContain("new InferenceClient(process.env.HF_TOKEN)");
			expect(s["js/openai"]).toContain("apiKey: process.env.HF_TOKEN,");
			expect(s["sh/curl"]).toContain('-H "Authorization: Bearer $HF_TOKEN"');
			expect(s["sh/curl"]).toContain("curl https://router.huggingface.co/together/v1/chat/completions");
			for (const content of Object.values(s)) {
				expect(content).not.toMatch(/hf_[A-Za-z]|placeholder|api_token/);
			}
		});
	}

	it("fetch reads the token with a template literal", () => {
		const s = snippetsFor("text-to-image", "hf-inference", undefined);
		expect(s["js/fetch"]).toContain("Authorization: `Bearer ${process.env.HF_TOKEN}`,");
	});
});

describe("no token, direct request: the provider's own key", () => {
	it("together: TOGETHER_API_KEY and the provider's URL", () => {
		const s = snippetsFor("text-generation", "together", undefined, { directRequest: true }, CHAT);
		expect(s["python/openai"]).toContain('base_url="https://api.together.xyz/v1",');
		expect(s["python/openai"]).toContain('api_key=os.environ["TOGETHER_API_KEY"],');
		expect(s["python/huggingface_hub"]).toContain('api_key=os.environ["TOGETHER_API_KEY"],');
		expect(s["js/openai"]).toContain("apiKey: process.env.TOGETHER_API_KEY,");
		expect(s["sh/curl"]).toContain('-H "Authorization: Bearer $TOGETHER_API_KEY"');
		expect(s["sh/curl"]).toContain("curl https://api.together.xyz/v1/chat/completions");
	});

	it("fal-ai: FAL_AI_API_KEY with the Key prefix", () => {
		const s = snippetsFor("text-to-image", "fal-ai", undefined, { directRequest: true });
		expect(s["js/fetch"]).toContain("Authorization: `Key ${process.env.FAL_AI_API_KEY}`,");
		expect(s["js/fetch"]).toContain('fetch("https://fal.run/fal-ai-side/text-to-image-model"');
		expect(s["python/fal_client"]).toContain('fal_client.SyncClient(key=os.environ["FAL_AI_API_KEY"])');
	});

	it("black-forest-labs: BLACK_FOREST_LABS_API_KEY (its polled answer leaves our client as the only snippet)", () => {
		const s = snippetsFor("text-to-image", "black-forest-labs", undefined, { directRequest: true });
		expect(Object.keys(s)).toEqual(["js/huggingface.js"]);
		expect(s["js/huggingface.js"]).toContain("new InferenceClient(process.env.BLACK_FOREST_LABS_API_KEY)");
	});

	it("a provider key with its own scheme: Key for fal.ai, also for new pairs", () => {
		const s = snippetsFor("automatic-speech-recognition", "fal-ai", undefined, { directRequest: true });
		expect(s["js/fetch"]).toContain("Authorization: `Key ${process.env.FAL_AI_API_KEY}`,");
		expect(s["sh/curl"]).toContain('-H "Authorization: Key $FAL_AI_API_KEY"');
	});

	it("hf-inference stays routed with HF_TOKEN", () => {
		const s = snippetsFor("text-classification", "hf-inference", undefined, { directRequest: true });
		expect(s["sh/curl"]).toContain('-H "Authorization: Bearer $HF_TOKEN"');
		expect(s["sh/curl"]).toContain(
			"curl https://router.huggingface.co/hf-inference/models/hf-inference-side/text-classification-model",
		);
	});

	it("openai is always direct: OPENAI_API_KEY even without directRequest, model id without its prefix", () => {
		const s = snippetsFor("text-generation", "openai", undefined, {}, CHAT);
		expect(s["python/openai"]).toContain('base_url="https://api.openai.com/v1",');
		expect(s["python/openai"]).toContain('api_key=os.environ["OPENAI_API_KEY"],');
		expect(s["python/openai"]).toContain('model="gpt-4o-mini",');
		expect(s["sh/curl"]).toContain('-H "Authorization: Bearer $OPENAI_API_KEY"');
	});
});

describe("a token given is inserted, and decides the route like the client", () => {
	it("hub token: routed, Bearer", () => {
		const s = snippetsFor("text-to-image", "fal-ai", HF_TOKEN);
		expect(s["js/fetch"]).toContain(`Authorization: "Bearer ${HF_TOKEN}",`);
		expect(s["js/fetch"]).toContain(
			'fetch("https://router.huggingface.co/fal-ai/fal-ai-side/text-to-image-model"',
		);
		expect(s["python/huggingface_hub"]).toContain(`api_key="${HF_TOKEN}",`);
		expect(s["js/huggingface.js"]).toContain(`new InferenceClient("${HF_TOKEN}")`);
		// fal_client cannot use a hub token: it reads a fal key instead.
		expect(s["python/fal_client"]).toContain('key=os.environ["FAL_AI_API_KEY"]');
	});

	it("provider key: direct, with the provider's Authorization form", () => {
		const fal = snippetsFor("text-to-image", "fal-ai", PROVIDER_KEY);
		expect(fal["js/fetch"]).toContain(`Authorization: "Key ${PROVIDER_KEY}",`);
		expect(fal["js/fetch"]).toContain('fetch("https://fal.run/');
		expect(fal["python/fal_client"]).toContain(`fal_client.SyncClient(key="${PROVIDER_KEY}")`);
		const bfl = snippetsFor("text-to-image", "black-forest-labs", PROVIDER_KEY);
		expect(bfl["js/huggingface.js"]).toContain(`new InferenceClient("${PROVIDER_KEY}")`);
		const together = snippetsFor("text-generation", "together", PROVIDER_KEY, {}, CHAT);
		expect(together["sh/curl"]).toContain(`-H 'Authorization: Bearer ${PROVIDER_KEY}'`);
		expect(together["sh/curl"]).toContain("curl https://api.together.xyz/v1/chat/completions");
	});

	it("no environment lookups when the token is given", () => {
		const s = snippetsFor("text-generation", "together", HF_TOKEN, {}, CHAT);
		for (const content of Object.values(s))
			expect(content).not.toMatch(/os\.environ|process\.env|\$HF_TOKEN/);
	});
});

describe("bill-to", () => {
	const billTo = "acme-org";
	it("each client names the billed account its own way", () => {
		const s = snippetsFor("text-generation", "together", HF_TOKEN, { billTo }, CHAT);
		expect(s["python/huggingface_hub"]).toContain(`bill_to="${billTo}",`);
		expect(s["python/requests"]).toContain(`"X-HF-Bill-To": "${billTo}",`);
		expect(s["python/openai"]).toContain(`default_headers={\n        "X-HF-Bill-To": "${billTo}",\n    },`);
		expect(s["js/huggingface.js"]).toContain(`billTo: "${billTo}",`);
		expect(s["js/openai"]).toContain(`"X-HF-Bill-To": "${billTo}",`);
		expect(s["sh/curl"]).toContain(`-H 'X-HF-Bill-To: ${billTo}'`);
		const speech = snippetsFor("text-to-speech", "hf-inference", HF_TOKEN, { billTo });
		expect(speech["js/fetch"]).toContain(`"X-HF-Bill-To": "${billTo}",`);
	});

	it("absent when not asked for", () => {
		const s = snippetsFor("text-generation", "together", HF_TOKEN, {}, CHAT);
		for (const content of Object.values(s)) expect(content).not.toMatch(/bill/i);
	});
});

describe("extra provider headers", () => {
	it("replicate's Prefer: wait is in the raw HTTP snippets", () => {
		const s = snippetsFor("text-to-speech", "replicate", HF_TOKEN);
		expect(s["python/requests"]).toContain('"Prefer": "wait",');
		expect(s["js/fetch"]).toContain('Prefer: "wait",');
	});
});
