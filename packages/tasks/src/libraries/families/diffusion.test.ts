import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { checkLibraryFamily } from "../../../../../test-support/library-checks.js";
import { pyString } from "../../literals/index.js";
import type { ModelData } from "../types.js";
import {
	DIFFUSERS_BASE_MODEL_PLACEHOLDER,
	DIFFUSERS_DEFAULT_PROMPT,
	diffusersBaseModel,
	diffusersPrompt,
	diffusionLibraries,
	sanaCheckpoint,
} from "./diffusion.js";

describe("diffusion libraries", () => checkLibraryFamily(diffusionLibraries));

const model = (extra: Partial<ModelData> = {}): ModelData => ({
	id: "acme/demo-model",
	tags: [],
	inference: "",
	...extra,
});
const code = (key: keyof typeof diffusionLibraries, m: ModelData): string[] =>
	diffusionLibraries[key].snippets?.(m) ?? [];

/** Names read but never imported, assigned or built in, per snippet (python3 ast). */
function undefinedNames(snippets: string[]): string[][] {
	const script = `
import ast, builtins, json, sys
def undefined(code):
    tree = ast.parse(code)
    known = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            known.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            known.add(node.id)
    return sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in known})
print(json.dumps([undefined(c) for c in json.load(sys.stdin)]))`;
	return JSON.parse(
		execFileSync("python3", ["-c", script], { input: JSON.stringify(snippets) }).toString(),
	) as string[][];
}

describe("diffusers", () => {
	it("applies controlnet > lora > textual_inversion > default", () => {
		const all = code("diffusers", model({ tags: ["textual_inversion", "lora", "controlnet"] }))[0]!;
		expect(all).toContain("StableDiffusionControlNetPipeline");
		const loraAndTi = code("diffusers", model({ tags: ["textual_inversion", "lora"] }))[0]!;
		expect(loraAndTi).toContain("load_lora_weights");
		expect(loraAndTi).not.toContain("load_textual_inversion");
		const ti = code("diffusers", model({ tags: ["textual_inversion"] }))[0]!;
		expect(ti).toContain('pipe.load_textual_inversion("acme/demo-model")');
		const plain = code("diffusers", model())[0]!;
		expect(plain).toContain('DiffusionPipeline.from_pretrained("acme/demo-model")');
		expect(plain).toContain(pyString(DIFFUSERS_DEFAULT_PROMPT));
	});

	it("takes the base model from cardData, joining a list with commas", () => {
		expect(diffusersBaseModel(model({ cardData: { base_model: ["a/b", "c/d"] } }))).toBe("a/b,c/d");
		expect(diffusersBaseModel(model({ cardData: { base_model: "a/b" } }))).toBe("a/b");
		expect(diffusersBaseModel(model())).toBe(DIFFUSERS_BASE_MODEL_PLACEHOLDER);
		const lora = code("diffusers", model({ tags: ["lora"], cardData: { base_model: ["a/b", "c/d"] } }))[0]!;
		expect(lora).toContain('DiffusionPipeline.from_pretrained("a/b,c/d")');
		expect(lora).toContain('pipe.load_lora_weights("acme/demo-model")');
	});

	it("writes the missing base model as a string literal placeholder", () => {
		for (const tag of ["controlnet", "lora", "textual_inversion"]) {
			const text = code("diffusers", model({ tags: [tag] }))[0]!;
			expect(text).toContain(`.from_pretrained("${DIFFUSERS_BASE_MODEL_PLACEHOLDER}"`);
		}
	});

	it("picks the widget text, then the instance prompt, then the default", () => {
		expect(diffusersPrompt(model({ widgetData: [{ text: "w" }], cardData: { instance_prompt: "i" } }))).toBe(
			"w",
		);
		expect(diffusersPrompt(model({ cardData: { instance_prompt: "i" } }))).toBe("i");
		expect(diffusersPrompt(model({ cardData: { instance_prompt: null } }))).toBe(DIFFUSERS_DEFAULT_PROMPT);
		// An empty widget text does not fall through to the instance prompt.
		expect(diffusersPrompt(model({ widgetData: [{ text: "" }], cardData: { instance_prompt: "i" } }))).toBe(
			DIFFUSERS_DEFAULT_PROMPT,
		);
	});

	it("writes the prompt through pyString", () => {
		const prompt = 'say "hi"\nthen \\ leave';
		const text = code("diffusers", model({ widgetData: [{ text: prompt }] }))[0]!;
		expect(text).toContain(`prompt = ${pyString(prompt)}`);
	});

	it("leaves the prompt out of the controlnet and textual inversion examples", () => {
		for (const tag of ["controlnet", "textual_inversion"]) {
			expect(code("diffusers", model({ tags: [tag], widgetData: [{ text: "x" }] }))[0]).not.toContain(
				"prompt",
			);
		}
	});
});

describe("diffusionkit", () => {
	it("quotes the model id", () => {
		for (const tags of [[], ["flux"]]) {
			const blocks = code("diffusionkit", model({ id: "org.name/model_v1.5-2", tags }));
			expect(blocks).toHaveLength(2);
			for (const block of blocks) expect(block).toContain('model_version="org.name/model_v1.5-2"');
		}
	});

	it("says that model_version must be a registered checkpoint", () => {
		for (const tags of [[], ["flux"]]) {
			for (const block of code("diffusionkit", model({ tags })))
				expect(block).toContain(
					"# model_version is one of DiffusionKit's registered argmaxinc/mlx-* checkpoints",
				);
		}
	});

	it("uses the FLUX settings only with the flux tag", () => {
		const flux = code("diffusionkit", model({ tags: ["flux"] })).join("\n");
		expect(flux).toContain("FluxPipeline(");
		expect(flux).not.toContain("use_t5");
		const sd3 = code("diffusionkit", model()).join("\n");
		expect(sd3).toContain("DiffusionPipeline(");
		expect(sd3).not.toContain("FluxPipeline");
		expect(sd3).toContain("NUM_STEPS = 50");
	});
});

describe("snippets without undefined names", () => {
	it("seed-story, mesh-anything and every other block define what they use", () => {
		const inputs = [
			model(),
			model({ tags: ["flux"] }),
			model({ tags: ["lora"] }),
			model({ tags: ["controlnet"] }),
		];
		const snippets = inputs.flatMap((m) =>
			Object.values(diffusionLibraries).flatMap((entry) =>
				"snippets" in entry ? (entry.snippets?.(m) ?? []) : [],
			),
		);
		expect(undefinedNames(snippets)).toEqual(snippets.map(() => []));
	});

	it("seed-story assigns both config paths and mesh-anything builds args", () => {
		const seed = code("seed-story", model())[0]!;
		expect(seed).toMatch(/^llm_cfg_path = /m);
		expect(seed).toMatch(/^seed_story_cfg_path = /m);
		const mesh = code("mesh-anything", model())[0]!;
		expect(mesh).toMatch(/^args = /m);
		expect(mesh).toContain('repo_id="acme/demo-model"');
	});
});

describe("repositories loaded from a clone", () => {
	it("seed-story downloads the repository by id into ./pretrained, where its configs read the weights", () => {
		const text = code("seed-story", model({ id: "someone/SEED-Story" }))[0]!;
		expect(text).toContain('snapshot_download(repo_id="someone/SEED-Story", local_dir="pretrained")');
		expect(text.indexOf("snapshot_download(repo_id=")).toBeLessThan(text.indexOf("hydra.utils.instantiate"));
	});

	it("sana loads the checkpoint file inside the repository, not the bare repository", () => {
		// Sana hf_download_or_fpath: hf://<org>/<repo>/<file>; NVlabs repos keep checkpoints/<repo name>.pth.
		expect(sanaCheckpoint("Efficient-Large-Model/Sana_1600M_1024px")).toBe(
			"hf://Efficient-Large-Model/Sana_1600M_1024px/checkpoints/Sana_1600M_1024px.pth",
		);
		const text = code("sana", model())[0]!;
		expect(text).toContain('sana.from_pretrained("hf://acme/demo-model/checkpoints/demo-model.pth")');
		expect(text).not.toContain('from_pretrained("hf://acme/demo-model")');
	});

	it("3dtopia-xl runs inference.py's main with both checkpoints downloaded by id", () => {
		const text = code("3dtopia-xl", model())[0]!;
		// 3DTopia/3DTopia-XL 657b0b0: no threedtopia_xl package; configs/inference_dit.yml + inference.main.
		expect(text).not.toContain("threedtopia_xl");
		expect(text).toMatch(/^from inference import main$/m);
		expect(text).toContain(
			'config.checkpoint_path = hf_hub_download(repo_id="acme/demo-model", filename="model_sview_dit_fp16.pt")',
		);
		expect(text).toContain(
			'config.model.vae_checkpoint_path = hf_hub_download(repo_id="acme/demo-model", filename="model_vae_fp16.pt")',
		);
		expect(text).toMatch(/^main\(config\)$/m);
	});
});

describe("entries without snippets", () => {
	it("carry metadata only", () => {
		for (const key of ["champ", "cosmos", "trellis", "wham", "diffusion-single-file"] as const) {
			expect(diffusionLibraries[key]).not.toHaveProperty("snippets");
			expect(diffusionLibraries[key]).not.toHaveProperty("codeBlocks");
		}
	});
});
