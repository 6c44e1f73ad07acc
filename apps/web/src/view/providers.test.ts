import { INFERENCE_PROVIDERS, PROVIDER_LABELS } from "@modelhub/inference/catalog";
import { describe, expect, it } from "vitest";
import {
	providerEntries,
	providerLabel,
	providerOptions,
	snippetClients,
	snippetLanguages,
	type SnippetLike,
} from "./providers";
import { blockTitle } from "./snippets";

describe("providers", () => {
	it("offers every provider of the client's catalogue, named as the catalogue names it", () => {
		const options = providerOptions();
		expect(options.map((option) => option.id).sort()).toEqual([...INFERENCE_PROVIDERS]);
		for (const option of options)
			expect(option.label).toBe(PROVIDER_LABELS[option.id as keyof typeof PROVIDER_LABELS]);
		expect(providerLabel("fal-ai")).toBe("fal");
		expect(providerLabel("not-a-provider")).toBe("not-a-provider");
	});

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

	it("captions library code blocks by what they do, never by a number", () => {
		const title = (language: "python" | "shell", code: string) => blockTitle({ language, code });
		expect(title("python", "# Use a pipeline as a high-level helper\nfrom x import y")).toBe(
			"Use a pipeline as a high-level helper",
		);
		expect(title("python", "# Option 2: with the code of the repository\nimport a")).toBe(
			"With the code of the repository",
		);
		expect(title("shell", "pip install -U transformers")).toBe("Install");
		expect(title("python", "import torch")).toBe("Python");
		expect(title("shell", "# In a notebook cell: !pip install x")).toBe("In a notebook cell: !pip install x");
	});
});
