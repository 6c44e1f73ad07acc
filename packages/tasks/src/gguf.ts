/** GGML tensor quantisation types, with the numbers GGUF files store. 4 and 5 are unused. */
export enum GGMLQuantizationType {
	F32 = 0,
	F16 = 1,
	Q4_0 = 2,
	Q4_1 = 3,
	Q5_0 = 6,
	Q5_1 = 7,
	Q8_0 = 8,
	Q8_1 = 9,
	Q2_K = 10,
	Q3_K = 11,
	Q4_K = 12,
	Q5_K = 13,
	Q6_K = 14,
	Q8_K = 15,
	IQ2_XXS = 16,
	IQ2_XS = 17,
	IQ3_XXS = 18,
	IQ1_S = 19,
	IQ4_NL = 20,
	IQ3_S = 21,
	IQ2_S = 22,
	IQ4_XS = 23,
	I8 = 24,
	I16 = 25,
	I32 = 26,
	I64 = 27,
	F64 = 28,
	IQ1_M = 29,
	BF16 = 30,
}

export type GGMLQuantizationTypeName = keyof typeof GGMLQuantizationType;

/** Member names in declaration order; the regex tries them in this order. */
const QUANT_TYPE_NAMES = Object.keys(GGMLQuantizationType).filter((key) =>
	Number.isNaN(Number(key)),
) as GGMLQuantizationTypeName[];

const quantPattern = `(?<quant>${QUANT_TYPE_NAMES.join("|")})(_(?<sizeVariation>[A-Z]+))?`;

/** Finds a quantisation label (e.g. `Q4_K_M`) anywhere in an upper-cased file name. */
export const GGUF_QUANT_RE = new RegExp(quantPattern);
export const GGUF_QUANT_RE_GLOBAL = new RegExp(GGUF_QUANT_RE, "g");

/**
 * The quantisation label of a GGUF file name, e.g. `llama-3-8b.Q4_K_M.gguf` → `Q4_K_M`. Matching is
 * case-insensitive; when several labels occur, the last one wins (it is the one nearest the
 * extension). `undefined` when there is none.
 */
export function parseGGUFQuantLabel(fileName: string): string | undefined {
	if (typeof fileName !== "string") return undefined;
	const matches = fileName.toUpperCase().match(GGUF_QUANT_RE_GLOBAL);
	return matches ? matches[matches.length - 1] : undefined;
}

export interface GGUFQuantInfo {
	/** The whole label, e.g. `Q4_K_M`. */
	label: string;
	/** The tensor type name, e.g. `Q4_K`. */
	type: GGMLQuantizationTypeName;
	/** Its GGUF number, e.g. 12. */
	value: GGMLQuantizationType;
	/** The size variant after the type, e.g. `M`, when present. */
	sizeVariation?: string;
}

/**
 * A quantisation label split into its type and size variant: `Q4_K_M` → type `Q4_K`, variant `M`.
 * Accepts a bare label or a file name; returns `undefined` (never throws) when nothing matches.
 */
export function parseGGUFQuantType(labelOrFileName: string): GGUFQuantInfo | undefined {
	const label = parseGGUFQuantLabel(labelOrFileName);
	if (!label) return undefined;
	const match = GGUF_QUANT_RE.exec(label);
	const type = match?.groups?.quant as GGMLQuantizationTypeName | undefined;
	if (!type) return undefined;
	const sizeVariation = match?.groups?.sizeVariation;
	return { label, type, value: GGMLQuantizationType[type], ...(sizeVariation ? { sizeVariation } : {}) };
}
