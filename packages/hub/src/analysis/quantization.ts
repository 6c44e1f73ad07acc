/**
 * Parameter counts of quantized safetensors weights, as the public hub computes them (huggingface.js
 * `packages/hub/src/lib/parse-safetensors-metadata.ts` at fe42e680, from `config.json`'s
 * `quantization_config`, or `text_config.quantization_config`, and `expert_dtype`): sub-byte weights packed
 * into integer containers count as the values they hold, and quantization bookkeeping (scales, zero points,
 * permutation indices, packed-shape records) is not counted at all. The rules are data below; the
 * functions only apply them.
 */

export interface QuantizationConfig {
	quant_method?: string;
	modules_to_not_convert?: string[];
	bits?: number;
	load_in_4bit?: boolean;
	format?: string;
	config_groups?: Record<string, { format?: string; targets?: string[]; weights?: { num_bits?: number } }>;
	ignore?: string[];
}

/** What counting needs from config.json. */
export interface QuantizationFacts {
	config: QuantizationConfig;
	expertDtype: string | undefined;
}

/** Dtypes that only ever hold block scales: never parameters, with or without a quantization config. */
export const SCALE_ONLY_DTYPES: ReadonlySet<string> = new Set(["F8_E8M0", "E8M0", "UE8"]);

/** Tensor-name suffixes (after the last `.`) of scales and zero points kept beside quantized weights. */
const AUXILIARY_SUFFIXES: ReadonlySet<string> = new Set([
	"weight_scale",
	"weight_scale_inv",
	"weight_scale_2",
	"weight_global_scale",
	"weight_zero_point",
	"input_scale",
	"input_global_scale",
	"input_zero_point",
	"zero_point",
	"weight_shape",
	"weight_g_idx",
]);

/** bitsandbytes' double-quantization state beside each 4-bit weight. */
const BITSANDBYTES_SUFFIXES: ReadonlySet<string> = new Set([
	"absmax",
	"quant_map",
	"nested_absmax",
	"nested_quant_map",
]);
const BITSANDBYTES_STATE_PREFIX = "bitsandbytes__";
/** GPTQ/AWQ: the packed weight and its companions. */
const GPTQ_WEIGHT = "qweight";
const GPTQ_COMPANIONS: ReadonlySet<string> = new Set(["qzeros", "g_idx", "scales"]);
/** gpt-oss's MXFP4: `…_blocks` hold the packed weights, `…_scales` their exponents. */
const MXFP4_BLOCKS = "_blocks";
const MXFP4_SCALES = "_scales";

/** Bits of the integer dtypes a sub-byte weight can be packed into. */
const CONTAINER_BITS: Readonly<Record<string, number>> = { U8: 8, I8: 8, U16: 16, I16: 16, U32: 32, I32: 32 };

/** Bit widths named in a format or dtype string, the first match winning. */
const FORMAT_BITS: ReadonlyArray<readonly [string, number]> = [
	["nvfp4", 4],
	["mxfp4", 4],
	["fp4", 4],
	["int4", 4],
	["uint4", 4],
	["nf4", 4],
	["int2", 2],
];

/** Regular-expression syntax a compressed-tensors target may not use here (it is never evaluated). */
const UNSUPPORTED_TARGET_SYNTAX = /[\\+?()[\]{}|^$]/;

/** The quantization facts of a parsed config.json, if it declares any. */
export function quantizationFacts(config: unknown): QuantizationFacts | undefined {
	if (!isObject(config)) return undefined;
	const text = isObject(config["text_config"]) ? config["text_config"] : undefined;
	const quantization = config["quantization_config"] ?? text?.["quantization_config"];
	if (!isObject(quantization)) return undefined;
	const expertDtype = config["expert_dtype"] ?? text?.["expert_dtype"];
	return {
		config: quantization as QuantizationConfig,
		expertDtype: typeof expertDtype === "string" ? expertDtype : undefined,
	};
}

/** Whether a tensor is bookkeeping rather than parameters. */
export function isBookkeeping(name: string, dtype: string, facts: QuantizationFacts | undefined): boolean {
	if (SCALE_ONLY_DTYPES.has(dtype)) return true;
	if (!facts) return false;
	const suffix = lastSegment(name);
	if (AUXILIARY_SUFFIXES.has(suffix)) return true;
	const method = methodOf(facts.config);
	if (method === "mxfp4") return dtype === "U8" && suffix.endsWith(MXFP4_SCALES);
	if (method === "bitsandbytes")
		return BITSANDBYTES_SUFFIXES.has(suffix) || suffix.startsWith(BITSANDBYTES_STATE_PREFIX);
	if (method !== "gptq" && method !== "awq") return false;
	return isQuantized(name, facts.config) && suffix !== GPTQ_WEIGHT && GPTQ_COMPANIONS.has(suffix);
}

/** How many values each stored element of a tensor holds (may be fractional; counts are rounded per tensor). */
export function valuesPerElement(name: string, dtype: string, facts: QuantizationFacts | undefined): number {
	if (!facts || !isQuantized(name, facts.config)) return 1;
	const config = facts.config;
	switch (methodOf(config)) {
		case "mxfp4":
			return dtype === "U8" && name.includes(MXFP4_BLOCKS) ? 2 : 1;
		case "gptq":
		case "awq":
			if (lastSegment(name) === GPTQ_WEIGHT)
				return Math.max(1, Math.floor(32 / (positive(config.bits) ?? 4)));
			if (dtype === "U8" && config.bits === 4) return 2;
			if (dtype === "U8" && config.bits === 2) return 4;
			return 1;
		case "compressed-tensors":
			return compressedTensorsPacking(name, dtype, config);
		case "fp8":
			// `expert_dtype` describes the routed experts only (not `shared_experts`).
			if (!name.includes(".experts.") || name.includes("shared_experts")) return 1;
			return packing(dtype, bitsNamedIn(facts.expertDtype));
		case "bitsandbytes":
			return config.load_in_4bit === true && dtype === "U8" ? 2 : 1;
		default:
			return dtype === "U8" && (config.load_in_4bit === true || config.bits === 4) ? 2 : 1;
	}
}

function compressedTensorsPacking(name: string, dtype: string, config: QuantizationConfig): number {
	if (CONTAINER_BITS[dtype] === undefined) return 1;
	const groups = isObject(config.config_groups) ? Object.values(config.config_groups).filter(isObject) : [];
	const module = moduleOf(name);
	const group = groups.find(
		(g) => Array.isArray(g["targets"]) && g["targets"].some((t) => matchesTarget(t, module)),
	);
	const format = stringOf(group?.["format"]) ?? stringOf(config.format);
	if (format === undefined || !format.toLowerCase().endsWith("pack-quantized")) return 1;
	const bitsOf = (g: Record<string, unknown> | undefined): number | undefined =>
		isObject(g?.["weights"]) ? positive(g["weights"]["num_bits"]) : undefined;
	const bits =
		bitsOf(group) ?? bitsOf(groups.find((g) => bitsOf(g) !== undefined)) ?? bitsNamedIn(format) ?? 4;
	return packing(dtype, bits);
}

/** Values of `bits` each held in one element of an integer container dtype (1 for other dtypes). */
function packing(dtype: string, bits: number | undefined): number {
	const container = CONTAINER_BITS[dtype];
	if (container === undefined || bits === undefined || bits <= 0 || bits >= container) return 1;
	return container / bits;
}

/** Whether the config quantizes this tensor (not excluded by `ignore` or `modules_to_not_convert`). */
function isQuantized(name: string, config: QuantizationConfig): boolean {
	if (Array.isArray(config.ignore) && config.ignore.some((target) => matchesTarget(target, moduleOf(name))))
		return false;
	const excluded = Array.isArray(config.modules_to_not_convert) ? config.modules_to_not_convert : [];
	// transformers matches these as substrings; a `*` makes it a glob.
	return !excluded.some((pattern) =>
		typeof pattern !== "string"
			? false
			: pattern.includes("*")
				? globMatches(pattern, name)
				: name.includes(pattern),
	);
}

/**
 * A compressed-tensors target: a module name, or `re:` and a regular expression, of which only the
 * `.*`, `\.`, `^` and `$` subset is understood (translated to a glob; never run as a RegExp, since
 * config.json is the uploader's).
 */
function matchesTarget(target: unknown, module: string): boolean {
	if (typeof target !== "string") return false;
	if (!target.startsWith("re:")) return target === module;
	let pattern = target.slice(3);
	if (pattern.startsWith("^")) pattern = pattern.slice(1);
	pattern = pattern.endsWith("$") ? pattern.slice(0, -1) : `${pattern}.*`;
	const glob = pattern.replaceAll(".*", "*").replaceAll("\\.", ".");
	return !UNSUPPORTED_TARGET_SYNTAX.test(glob) && globMatches(glob, module);
}

/** `*` matches any run of characters; everything else is literal. Linear, no RegExp. */
function globMatches(pattern: string, text: string): boolean {
	const parts = pattern.split("*");
	if (parts.length === 1) return pattern === text;
	const first = parts[0] as string;
	const last = parts[parts.length - 1] as string;
	if (!text.startsWith(first) || !text.endsWith(last) || first.length + last.length > text.length)
		return false;
	let at = first.length;
	const end = text.length - last.length;
	for (const middle of parts.slice(1, -1)) {
		const found = text.indexOf(middle, at);
		if (found === -1 || found + middle.length > end) return false;
		at = found + middle.length;
	}
	return true;
}

function bitsNamedIn(text: string | undefined): number | undefined {
	const lower = text?.toLowerCase();
	return lower === undefined ? undefined : FORMAT_BITS.find(([name]) => lower.includes(name))?.[1];
}

function methodOf(config: QuantizationConfig): string | undefined {
	return typeof config.quant_method === "string" ? config.quant_method.toLowerCase() : undefined;
}

/** The module a tensor belongs to: its name without the last `.weight…`. */
function moduleOf(name: string): string {
	const at = name.lastIndexOf(".weight");
	return at === -1 ? name : name.slice(0, at);
}

function lastSegment(name: string): string {
	return name.slice(name.lastIndexOf(".") + 1);
}

function stringOf(value: unknown): string | undefined {
	return typeof value === "string" ? value : undefined;
}

function positive(value: unknown): number | undefined {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
