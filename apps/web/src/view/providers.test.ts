import { describe, expect, it } from "vitest";
import { providerEntries, snippetClients, snippetLanguages, type SnippetLike } from "./providers";
import { snippetTabLabels } from "./snippets";

describe("providers", () => {
	it("keeps the hub's preference order and adds labels", () => {
		const entries = providerEntries({
			together: { providerId: "x/y-Turbo", task: "conversational", status: "live" },
			"hf-inference": { providerId: "x/y", task: "conversational", status: "staging" },
		});
		expect(entries.map((entry) => [entry.provider, entry.label, entry.status])).toEqual([
			["together", "Together AI", "live"],
			["hf-inference", "HF Inference API", "staging"],
		]);
		expect(providerEntries(undefined)).toEqual([]);
	});

	it("derives language and client tabs from the snippets", () => {
		const snippets: SnippetLike[] = [
			{ language: "sh", client: "curl", content: "" },
			{ language: "python", client: "huggingface_hub", content: "" },
			{ language: "python", client: "openai", content: "" },
			{ language: "js", client: "fetch", content: "" },
			{ language: "python", client: "openai", content: "dup" },
		];
		expect(snippetLanguages(snippets)).toEqual(["python", "js", "sh"]);
		expect(snippetClients(snippets, "python")).toEqual(["huggingface_hub", "openai"]);
		expect(snippetClients(snippets, "csharp")).toEqual([]);
	});

	it("labels library snippet tabs, numbering repeated languages", () => {
		expect(snippetTabLabels([{ language: "python" }, { language: "shell" }, { language: "python" }])).toEqual(
			["Python 1", "Shell", "Python 2"],
		);
	});
});
