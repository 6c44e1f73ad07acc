import { describe, expect, it } from "vitest";
import { loadFacts } from "../../../test-support/facts.js";
import { GGMLQuantizationType, GGUF_QUANT_RE, parseGGUFQuantLabel, parseGGUFQuantType } from "./gguf.js";

interface QuantFacts {
	GGMLQuantizationType: Record<string, number>;
	quantLabelParsing: { examples: Record<string, string | null> };
}
const facts = loadFacts<QuantFacts>("quantization.json");

describe("GGMLQuantizationType", () => {
	it("has exactly the members and numbers of the facts, in order", () => {
		const names = Object.keys(GGMLQuantizationType).filter((k) => Number.isNaN(Number(k)));
		expect(names).toEqual(Object.keys(facts.GGMLQuantizationType));
		for (const [name, value] of Object.entries(facts.GGMLQuantizationType)) {
			expect(GGMLQuantizationType[name as keyof typeof GGMLQuantizationType]).toBe(value);
			expect(GGMLQuantizationType[value]).toBe(name);
		}
		expect(GGMLQuantizationType[4]).toBeUndefined();
		expect(GGMLQuantizationType[5]).toBeUndefined();
	});
});

describe("parseGGUFQuantLabel", () => {
	it.each(Object.entries(facts.quantLabelParsing.examples))("%s → %s", (file, expected) => {
		expect(parseGGUFQuantLabel(file)).toBe(expected ?? undefined);
	});

	it("returns undefined for input that is not a string", () => {
		expect(parseGGUFQuantLabel(undefined as unknown as string)).toBeUndefined();
		expect(parseGGUFQuantLabel(12 as unknown as string)).toBeUndefined();
	});

	it("exposes a non-global pattern with named groups", () => {
		expect(GGUF_QUANT_RE.flags).toBe("");
		expect(GGUF_QUANT_RE.exec("Q5_K_S")?.groups).toMatchObject({ quant: "Q5_K", sizeVariation: "S" });
	});
});

describe("parseGGUFQuantType", () => {
	it("splits a label into type, number and size variant", () => {
		expect(parseGGUFQuantType("Q4_K_M")).toEqual({
			label: "Q4_K_M",
			type: "Q4_K",
			value: 12,
			sizeVariation: "M",
		});
		expect(parseGGUFQuantType("llama-3-8b.q8_0.gguf")).toEqual({ label: "Q8_0", type: "Q8_0", value: 8 });
		expect(parseGGUFQuantType("x-IQ2_XXS.gguf")).toEqual({ label: "IQ2_XXS", type: "IQ2_XXS", value: 16 });
		expect(parseGGUFQuantType("model-bf16.gguf")?.value).toBe(GGMLQuantizationType.BF16);
	});

	it("gives undefined, never a throw, for malformed labels", () => {
		for (const bad of ["", "Q9_9", "no-quant.gguf", "Q", "_K_M", "🤗", null, undefined, 3]) {
			expect(() => parseGGUFQuantType(bad as string)).not.toThrow();
			expect(parseGGUFQuantType(bad as string)).toBeUndefined();
		}
	});
});
