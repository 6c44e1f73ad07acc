// Model cards written by the hub, read back by huggingface_hub's own card parser (PyYAML).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pythonEnv } from "../../../test-support/python-env.js";
import { generatedFiles, renderModelCard } from "../src/cards/card.js";
import { toYaml } from "../src/cards/yaml.js";
import { parseModelList } from "../src/models/input.js";
import { packageRoot } from "../src/paths.js";
import { loadSeedModels } from "../src/seed.js";

function parseWithHub(texts: string[]): Array<{ data: Record<string, unknown>; text_start: string }> {
	const output = execFileSync(pythonEnv().python, [join(packageRoot(), "test", "python", "parse_cards.py")], {
		input: JSON.stringify(texts),
		encoding: "utf8",
		maxBuffer: 64 * 1024 * 1024,
	});
	return JSON.parse(output) as Array<{ data: Record<string, unknown>; text_start: string }>;
}

describe("model cards", () => {
	it("carry every seed model's card data as front matter that huggingface_hub reads back exactly", async () => {
		const models = await loadSeedModels();
		const cards = models.map((model) => renderModelCard(model));
		const parsed = parseWithHub(cards);
		models.forEach((model, index) => {
			expect(parsed[index]!.data, model.id).toEqual(model.cardData ?? {});
			expect(parsed[index]!.text_start, model.id).toMatch(
				new RegExp(`^# ${model.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\n`),
			);
		});
	});

	it("quote whatever YAML readers would take for something else", () => {
		const tricky = {
			license: "no",
			version: "1.0",
			date: "2024-01-01",
			empty: "",
			colon: "a: b",
			hash: "# not a comment",
			quote: 'it\'s "quoted"',
			newline: "two\nlines",
			separator: "line\u2028separator",
			control: "bell\u0007",
			unicode: "模型 ✓",
			nested: { list: [1, true, null, "yes", { deep: ["x", []] }], emptyObject: {} },
			"key with spaces": "value",
			"- dash": "-",
			"~": "~",
			number: 1.5e-7,
		};
		const parsed = parseWithHub([`---\n${toYaml(tricky)}---\n\n# x\n`]);
		expect(parsed[0]!.data).toEqual(tricky);
	});

	it("escape what is outside YAML's printable set: every control (C0, DEL, C1), the separators, BOM, U+FFFE/U+FFFF", () => {
		const escaped: [number, number][] = [];
		for (let code = 0; code <= 0xffff; code++) {
			if (code >= 0xd800 && code <= 0xdfff) continue;
			const char = String.fromCharCode(code);
			if (
				toYaml({ k: `a${char}` })
					.slice(0, -1)
					.includes(char)
			)
				continue; // less the line end
			const last = escaped.at(-1);
			if (last && last[1] === code - 1) last[1] = code;
			else escaped.push([code, code]);
		}
		// Tab, LF and CR are escaped by the JSON quoting the others start from.
		expect(escaped).toEqual([
			[0x00, 0x1f],
			[0x7f, 0x9f],
			[0x2028, 0x2029],
			[0xfeff, 0xfeff],
			[0xfffe, 0xffff],
		]);
	});

	it("include a usage section from the library's snippets, providers, and the config files", () => {
		const [model] = parseModelList([
			{
				id: "acme/tiny-chat",
				pipeline_tag: "text-generation",
				library_name: "transformers",
				tags: ["conversational"],
				config: {
					architectures: ["LlamaForCausalLM"],
					tokenizer_config: { chat_template: "{{ messages }}" },
				},
				transformersInfo: { auto_model: "AutoModelForCausalLM", processor: "AutoTokenizer" },
				safetensors: { parameters: { BF16: 1_500_000_000 }, total: 1_500_000_000 },
				inferenceProviderMapping: { groq: { providerId: "tiny", task: "conversational", status: "live" } },
			},
		]);
		const files = generatedFiles(model!);
		expect(files.map((file) => file.path)).toEqual([
			".gitattributes",
			"README.md",
			"config.json",
			"tokenizer_config.json",
		]);
		const card = files[1]!.content;
		expect(card).toContain("## How to use");
		expect(card).toContain("```python");
		expect(card).toContain("acme/tiny-chat");
		expect(card).toContain("- **Parameters:** 1.5B");
		expect(card).toContain("- groq (`tiny`, conversational)");
		expect(JSON.parse(files[2]!.content)).toEqual({ architectures: ["LlamaForCausalLM"] });
		expect(JSON.parse(files[3]!.content)).toEqual({ chat_template: "{{ messages }}" });
		expect(files[0]!.content).toMatch(/^\*\.safetensors filter=lfs diff=lfs merge=lfs -text$/m);
	});
});
