import { describe, expect, it } from "vitest";
import { checkLibraryFamily } from "../../../../../test-support/library-checks.js";
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

describe("sklearn", () => {
	it("loads the fixed joblib file without the skops tag", () => {
		const text = sklearn(
			model({ config: { sklearn: { model: { file: "ignored.pkl" }, model_format: "pickle" } } }),
		);
		expect(text).toContain('hf_hub_download(repo_id="acme/demo-model", filename="sklearn_model.joblib")');
		expect(text).not.toContain("ignored.pkl");
		expect(text).toContain("https://skops.readthedocs.io/en/stable/persistence.html");
	});

	it("loads a skops pickle from the folder it was downloaded to", () => {
		const text = sklearn(
			model({
				tags: ["skops"],
				config: { sklearn: { model: { file: "skops-model.pkl" }, model_format: "pickle" } },
			}),
		);
		expect(text).toContain('download(repo_id="acme/demo-model", dst="path_to_folder")');
		expect(text).toContain('joblib.load("path_to_folder/skops-model.pkl")');
	});

	it("loads other skops files with skops.io.load", () => {
		const text = sklearn(model({ tags: ["skops"], config: { sklearn: { model: { file: "model.skops" } } } }));
		expect(text).toContain('load("path_to_folder/model.skops")');
		expect(text).not.toContain("joblib");
	});

	it("starts with the verbatim fallback when the file name is missing or empty", () => {
		for (const config of [
			undefined,
			{ sklearn: {} },
			{ sklearn: { model: { file: "" }, model_format: "pickle" } },
		]) {
			const text = sklearn(model({ tags: ["skops"], ...(config ? { config } : {}) }));
			expect(text.split("\n")[0]).toBe(SKLEARN_MISSING_FILE_TEXT);
			expect(text).toContain('download(repo_id="acme/demo-model"');
		}
		expect(SKLEARN_MISSING_FILE_TEXT).toBe("# ⚠️ Model filename not specified in config.json");
	});

	it("quotes the file name from config", () => {
		const text = sklearn(model({ tags: ["skops"], config: { sklearn: { model: { file: 'a"b\nc' } } } }));
		expect(text).toContain('load("path_to_folder/a\\"b\\nc")');
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

	it("anemoi passes the id as the Hugging Face repo_id of the checkpoint", () => {
		const text = rlTabularLibraries.anemoi.snippets?.(model())[0] ?? "";
		expect(text).toContain('checkpoint={"huggingface": {"repo_id": "acme/demo-model"}}');
		expect(text).toContain("DefaultRunner(config)");
	});

	it("tabpfn and timesfm have no snippets", () => {
		expect(rlTabularLibraries.tabpfn).not.toHaveProperty("snippets");
		expect(rlTabularLibraries.timesfm).not.toHaveProperty("snippets");
	});
});
