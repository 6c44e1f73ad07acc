import { describe, expect, it } from "vitest";
import { loadFacts } from "../../../../test-support/facts.js";
import {
	DEFAULT_DOWNLOAD_FILES,
	DownloadQueryError,
	countsAsDownload,
	countsAsHubDownload,
	matchesDownloadQuery,
	parseDownloadQuery,
	pathFields,
} from "./download-counting.js";

const libraries = loadFacts<Array<{ key: string; countDownloads: string | null }>>("libraries.json");
const downloads = loadFacts<{ defaultRule: { countedFiles: string[] } }>("libraries-downloads.json");
const queries = Object.fromEntries(libraries.map((l) => [l.key, l.countDownloads ?? undefined]));

describe("pathFields", () => {
	it("splits a path into the indexed fields", () => {
		expect(pathFields("prefix/file.extension")).toEqual({
			path: "prefix/file.extension",
			path_prefix: "prefix/",
			path_extension: "extension",
			path_filename: "file",
		});
		expect(pathFields("config.json")).toMatchObject({
			path_prefix: "",
			path_extension: "json",
			path_filename: "config",
		});
		expect(pathFields("a/b/model.tar.gz")).toMatchObject({
			path_prefix: "a/b/",
			path_extension: "gz",
			path_filename: "model.tar",
		});
		expect(pathFields(".gitattributes")).toMatchObject({
			path_extension: "",
			path_filename: ".gitattributes",
		});
		expect(pathFields("Makefile")).toMatchObject({ path_extension: "", path_filename: "Makefile" });
	});
});

describe("parseDownloadQuery", () => {
	it("parses every query in the catalogue", () => {
		for (const { key, countDownloads } of libraries) {
			if (countDownloads) expect(() => parseDownloadQuery(countDownloads), key).not.toThrow();
		}
	});

	it("gives AND precedence over OR and honours parentheses", () => {
		const q = parseDownloadQuery('path_extension:"pt" OR path_extension:"bin" AND path_prefix:"x/"');
		expect(matchesDownloadQuery(q, "model.pt")).toBe(true);
		expect(matchesDownloadQuery(q, "model.bin")).toBe(false);
		expect(matchesDownloadQuery(q, "x/model.bin")).toBe(true);
		const grouped = parseDownloadQuery('(path_extension:"pt" OR path_extension:"bin") AND path_prefix:"x/"');
		expect(matchesDownloadQuery(grouped, "model.pt")).toBe(false);
	});

	it("rejects malformed queries with a clear error", () => {
		for (const bad of [
			'path:"unterminated',
			"path",
			'color:"red"',
			"OR path:x",
			"(path:x",
			'path:"a" AND',
			"path:",
			'_exists_:"size"',
		]) {
			expect(() => parseDownloadQuery(bad), bad).toThrow(DownloadQueryError);
		}
		expect(() => parseDownloadQuery('path:"a" )')).toThrow(/Unexpected/);
	});
});

describe("countsAsDownload", () => {
	it("uses the default rule for libraries without a query and for no library", () => {
		expect([...DEFAULT_DOWNLOAD_FILES]).toEqual(downloads.defaultRule.countedFiles);
		for (const file of DEFAULT_DOWNLOAD_FILES) {
			expect(countsAsDownload("transformers", file, queries)).toBe(true);
			expect(countsAsDownload(undefined, file, queries)).toBe(true);
			expect(countsAsDownload("not-a-library", file, queries)).toBe(true);
		}
		expect(countsAsDownload("transformers", "model.safetensors", queries)).toBe(false);
		// Root files only: a config.json in a sub-folder is a component's config, not a model download.
		expect(countsAsDownload("transformers", "text_encoder/config.json", queries)).toBe(false);
	});

	it("applies each library's own rule", () => {
		expect(countsAsDownload("adapter-transformers", "adapter_config.json", queries)).toBe(true);
		expect(countsAsDownload("adapter-transformers", "config.json", queries)).toBe(false);
		expect(countsAsDownload("keras", "model.keras", queries)).toBe(true);
		expect(countsAsDownload("keras", "config.json", queries)).toBe(true);
		expect(countsAsDownload("timm", "config.json", queries)).toBe(
			queries.timm === 'path:"config.json"' || /config\.json/.test(queries.timm ?? ""),
		);
		expect(countsAsDownload("ssr-speech", "weights.pth", queries)).toBe(true);
		expect(countsAsDownload("open_clip", "open_clip_pytorch_model.bin", queries)).toBe(true);
		expect(countsAsDownload("whisperkit", "openai_whisper-tiny/model.mil", queries)).toBe(true);
		expect(countsAsDownload("whisperkit", "model.mil", queries)).toBe(false);
		expect(countsAsDownload("elm", "slicex_elm_config.json", queries)).toBe(true);
		expect(countsAsDownload("ultralytics", "yolov8n.pt", queries)).toBe(true);
	});

	it("never throws on odd paths", () => {
		for (const path of ["", "/", "////", "a/", "../../etc/passwd", "🤗.pt", "x".repeat(10_000)]) {
			expect(() => countsAsDownload("sam2", path, queries)).not.toThrow();
		}
		expect(countsAsDownload("sam2", "/sam2_hiera_large.pt", queries)).toBe(true);
	});
});

describe("countsAsHubDownload", () => {
	it("adds the hub's documented rules: every GGUF file, params.json by default", () => {
		for (const library of [undefined, "transformers", "llama-cpp-python", "peft", "not-a-library"]) {
			expect(countsAsHubDownload(library, "model-q4_k_m.gguf", queries), String(library)).toBe(true);
			expect(countsAsHubDownload(library, "quants/model-q8_0.gguf", queries), String(library)).toBe(true);
		}
		expect(countsAsHubDownload("transformers", "params.json", queries)).toBe(true);
		expect(countsAsHubDownload(undefined, "params.json", queries)).toBe(true);
		// A library with its own rule keeps it: peft counts adapter_config.json, not params.json.
		expect(countsAsHubDownload("peft", "params.json", queries)).toBe(false);
		expect(countsAsHubDownload("peft", "adapter_config.json", queries)).toBe(true);
		expect(countsAsHubDownload("transformers", "config.json", queries)).toBe(true);
		expect(countsAsHubDownload("transformers", "model.safetensors", queries)).toBe(false);
		expect(countsAsHubDownload("transformers", "README.md", queries)).toBe(false);
	});

	it("counts diffusers pipelines once: model_index.json or a root-level checkpoint", () => {
		expect(countsAsHubDownload("diffusers", "model_index.json", queries)).toBe(true);
		expect(countsAsHubDownload("diffusers", "sd_xl_base_1.0.safetensors", queries)).toBe(true);
		expect(countsAsHubDownload("diffusers", "v1-5-pruned.ckpt", queries)).toBe(true);
		expect(countsAsHubDownload("diffusers", "pytorch_lora_weights.bin", queries)).toBe(true);
		expect(countsAsHubDownload("diffusers", "unet/diffusion_pytorch_model.safetensors", queries)).toBe(false);
		expect(countsAsHubDownload("diffusers", "unet/config.json", queries)).toBe(false);
		expect(countsAsHubDownload("diffusers", "config.json", queries)).toBe(false);
	});
});
