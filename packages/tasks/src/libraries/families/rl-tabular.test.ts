import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { checkLibraryFamily } from "../../../../../test-support/library-checks.js";
import { pythonEnv } from "../../../../../test-support/python-env.js";
import type { ModelData } from "../types.js";
import { rlTabularLibraries, SKLEARN_MISSING_FILE_TEXT } from "./rl-tabular.js";

describe("rl-tabular libraries", () => checkLibraryFamily(rlTabularLibraries));

const model = (extra: Partial<ModelData> = {}): ModelData => ({
	id: "acme/demo-model",
	tags: [],
	inference: "",
	...extra,
});
const sklearn = (m: ModelData): string => rlTabularLibraries.sklearn.snippets?.(m)[0] ?? "";

/**
 * For each snippet, the names of the calls to functions it imports from huggingface_hub, after binding
 * each call's arguments to the real function's signature in the test environment (a wrong name or an
 * unknown keyword makes the script fail).
 */
function bindHubCalls(snippets: string[]): string[][] {
	const script = `
import ast, inspect, json, sys
import huggingface_hub

result = []
for code in json.load(sys.stdin):
    tree = ast.parse(code)
    names = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "huggingface_hub" for a in n.names}
    bound = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
            function = getattr(huggingface_hub, node.func.id)
            inspect.signature(function).bind(*node.args, **{k.arg: k.value for k in node.keywords})
            bound.append(node.func.id)
    result.append(bound)
print(json.dumps(result))
`;
	const output = execFileSync(pythonEnv().python, ["-c", script], { input: JSON.stringify(snippets) });
	return JSON.parse(output.toString("utf8")) as string[][];
}

describe("sklearn", () => {
	it("loads the fixed joblib file without the skops tag", () => {
		const text = sklearn(
			model({ config: { sklearn: { model: { file: "ignored.pkl" }, model_format: "pickle" } } }),
		);
		expect(text).toContain('hf_hub_download(repo_id="acme/demo-model", filename="sklearn_model.joblib")');
		expect(text).not.toContain("ignored.pkl");
		expect(text).toContain("https://skops.readthedocs.io/en/stable/persistence.html");
	});

	it("downloads a skops pickle with huggingface_hub, then loads it with joblib", () => {
		const text = sklearn(
			model({
				tags: ["skops"],
				config: { sklearn: { model: { file: "skops-model.pkl" }, model_format: "pickle" } },
			}),
		);
		expect(text).toContain(
			'hf_hub_download(repo_id="acme/demo-model", filename="skops-model.pkl", local_dir="path_to_folder")',
		);
		expect(text).toContain('joblib.load("path_to_folder/skops-model.pkl")');
		// skops 0.12 removed skops.hub_utils.
		expect(text).not.toContain("hub_utils");
	});

	it("loads other skops files with skops.io.load, trusting only the types the user reviewed", () => {
		const text = sklearn(model({ tags: ["skops"], config: { sklearn: { model: { file: "model.skops" } } } }));
		expect(text).toContain("from skops.io import load, get_untrusted_types");
		expect(text).toContain('untrusted_types = get_untrusted_types(file="path_to_folder/model.skops")');
		expect(text).toContain('model = load("path_to_folder/model.skops", trusted=untrusted_types)');
		expect(text).not.toMatch(/joblib|hub_utils|trusted=True/);
	});

	it("calls huggingface_hub 2.0.0 functions that exist, with arguments they accept", () => {
		const snippets = [
			sklearn(model()),
			sklearn(model({ tags: ["skops"] })),
			sklearn(
				model({ tags: ["skops"], config: { sklearn: { model: { file: "m.pkl" }, model_format: "pickle" } } }),
			),
			sklearn(model({ tags: ["skops"], config: { sklearn: { model: { file: "m.skops" } } } })),
		];
		expect(bindHubCalls(snippets)).toEqual([
			["hf_hub_download"],
			["snapshot_download"],
			["hf_hub_download"],
			["hf_hub_download"],
		]);
	});

	it("starts with the verbatim fallback when the file name is missing or empty", () => {
		for (const config of [
			undefined,
			{ sklearn: {} },
			{ sklearn: { model: { file: "" }, model_format: "pickle" } },
		]) {
			const text = sklearn(model({ tags: ["skops"], ...(config ? { config } : {}) }));
			expect(text.split("\n")[0]).toBe(SKLEARN_MISSING_FILE_TEXT);
			expect(text).toContain('snapshot_download(repo_id="acme/demo-model", local_dir="path_to_folder")');
		}
		expect(SKLEARN_MISSING_FILE_TEXT).toBe("# ⚠️ Model filename not specified in config.json");
	});

	it("quotes the file name from config", () => {
		const text = sklearn(model({ tags: ["skops"], config: { sklearn: { model: { file: 'a"b\nc' } } } }));
		expect(text).toContain('filename="a\\"b\\nc"');
		expect(text).toContain('load("path_to_folder/a\\"b\\nc", trusted=untrusted_types)');
	});
});

describe("shell entries", () => {
	it("ml-agents downloads into ./downloads", () => {
		const text = rlTabularLibraries["ml-agents"].snippets?.(model())[0];
		expect(text).toBe("mlagents-load-from-hf --repo-id=acme/demo-model --local-dir=./downloads");
	});

	it("sample-factory passes the id as one word", () => {
		expect(rlTabularLibraries["sample-factory"].snippets?.(model({ id: "acme/a b" }))[0]).toBe(
			"python -m sample_factory.huggingface.load_from_hub -r 'acme/a b' -d ./train_dir",
		);
	});
});

describe("python entries", () => {
	it("stable-baselines3 keeps the filename placeholder", () => {
		const text = rlTabularLibraries["stable-baselines3"].snippets?.(model())[0] ?? "";
		expect(text).toContain('repo_id="acme/demo-model"');
		expect(text).toContain('filename="{MODEL FILENAME}.zip"');
	});

	it("stable-baselines3 opts in to pickle before load_from_hub, which huggingface_sb3 3.1 requires", () => {
		const text = rlTabularLibraries["stable-baselines3"].snippets?.(model())[0] ?? "";
		const optIn = text.indexOf('os.environ["TRUST_REMOTE_CODE"] = "True"');
		expect(text.startsWith("import os\n")).toBe(true);
		expect(optIn).toBeGreaterThan(0);
		expect(optIn).toBeLessThan(text.indexOf("checkpoint = load_from_hub("));
		expect(text).toMatch(/only allow this for sources you trust/);
	});

	it("anemoi passes the id as the Hugging Face repo_id of the checkpoint", () => {
		const text = rlTabularLibraries.anemoi.snippets?.(model())[0] ?? "";
		expect(text).toContain('checkpoint={"huggingface": {"repo_id": "acme/demo-model"}}');
		expect(text).toContain("DefaultRunner(config)");
		// anemoi-inference declares huggingface_hub only in its "huggingface" extra.
		expect(rlTabularLibraries.anemoi.installCommand).toBe('pip install "anemoi-inference[huggingface]"');
	});

	it("tabpfn and timesfm have no snippets", () => {
		expect(rlTabularLibraries.tabpfn).not.toHaveProperty("snippets");
		expect(rlTabularLibraries.timesfm).not.toHaveProperty("snippets");
	});
});
