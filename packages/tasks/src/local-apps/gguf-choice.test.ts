import { describe, expect, it } from "vitest";
import type { ModelData } from "../libraries/types.js";
import { chooseGguf, ggufFiles } from "./gguf-choice.js";

const repo = (files: string[], extra: Partial<ModelData> = {}): ModelData => ({
	id: "acme/llm-GGUF",
	tags: ["gguf"],
	siblings: files.map((rfilename) => ({ rfilename })),
	...extra,
});

describe("chooseGguf", () => {
	it("prefers Q4_K_M and lists every quantisation once, in file order", () => {
		const model = repo([
			".gitattributes",
			"llm-Q2_K.gguf",
			"llm-Q4_K_M.gguf",
			"llm-q8_0.gguf",
			"llm.Q4_K_M.imatrix.gguf",
		]);
		expect(chooseGguf(model)).toEqual({
			quant: "Q4_K_M",
			file: "llm-Q4_K_M.gguf",
			quants: ["Q2_K", "Q4_K_M", "Q8_0"],
		});
	});

	it("takes the first quantisation when there is no Q4_K_M", () => {
		expect(chooseGguf(repo(["llm-IQ4_XS.gguf", "llm-Q6_K.gguf"]))).toEqual({
			quant: "IQ4_XS",
			file: "llm-IQ4_XS.gguf",
			quants: ["IQ4_XS", "Q6_K"],
		});
	});

	it("counts a split file once, by its first part, and leaves out multimodal projectors", () => {
		const model = repo([
			"Q8_0/llm-Q8_0-00001-of-00003.gguf",
			"Q8_0/llm-Q8_0-00002-of-00003.gguf",
			"Q8_0/llm-Q8_0-00003-of-00003.gguf",
			"mmproj-llm-F16.gguf",
			"vision/MMPROJ-BF16.gguf",
		]);
		expect(ggufFiles(model)).toEqual(["Q8_0/llm-Q8_0-00001-of-00003.gguf"]);
		expect(chooseGguf(model)).toEqual({
			quant: "Q8_0",
			file: "Q8_0/llm-Q8_0-00001-of-00003.gguf",
			quants: ["Q8_0"],
		});
	});

	it("follows the file the user picked, with or without a label", () => {
		const model = repo(["llm-Q4_K_M.gguf", "llm-Q5_K_S.gguf"]);
		expect(chooseGguf(model, "llm-Q5_K_S.gguf")).toEqual({
			quant: "Q5_K_S",
			file: "llm-Q5_K_S.gguf",
			quants: ["Q4_K_M", "Q5_K_S"],
		});
		expect(chooseGguf(model, "custom.gguf")).toEqual({ file: "custom.gguf", quants: ["Q4_K_M", "Q5_K_S"] });
	});

	it("falls back to quantisation tags, then to nothing (the tools' own default)", () => {
		expect(chooseGguf({ id: "a/b", tags: ["gguf", "q5_k_m", "Q3_K_L", "llama"] })).toEqual({
			quant: "Q5_K_M",
			quants: ["Q5_K_M", "Q3_K_L"],
		});
		expect(chooseGguf({ id: "a/b", tags: ["gguf"] })).toEqual({ quants: [] });
	});

	it("tolerates missing or malformed metadata", () => {
		const broken = {
			id: "a/b",
			siblings: [null, { rfilename: 42 }, {}],
			tags: undefined,
		} as unknown as ModelData;
		expect(chooseGguf(broken)).toEqual({ quants: [] });
		expect(chooseGguf({ id: "a/b", tags: [] }, "")).toEqual({ quants: [] });
	});

	it("reads a bounded number of files", () => {
		const files = Array.from({ length: 20_000 }, (_, i) => `llm-${i}-Q4_0.gguf`);
		files.push("llm-Q4_K_M.gguf");
		expect(ggufFiles(repo(files))).toHaveLength(10_000);
		expect(chooseGguf(repo(files)).quant).toBe("Q4_0");
	});
});
