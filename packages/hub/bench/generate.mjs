// Deterministic generated models for the scale benchmark: plausible ids ("org-17/llama-3.3-8b-instruct-
// 204113"), tasks, libraries, tags, counts, dates, parameter counts and provider mappings, written as
// import files of the public hub's JSON.
import { writeFileSync } from "node:fs";
import { seededRandom as random } from "../test/support/random.mjs";

const FAMILIES = [
	{
		name: "llama",
		versions: ["2", "3", "3.1", "3.2", "3.3"],
		task: "text-generation",
		library: "transformers",
		chat: true,
	},
	{
		name: "mistral",
		versions: ["7b", "nemo", "small"],
		task: "text-generation",
		library: "transformers",
		chat: true,
	},
	{ name: "qwen", versions: ["2", "2.5", "3"], task: "text-generation", library: "transformers", chat: true },
	{ name: "gemma", versions: ["2", "3"], task: "text-generation", library: "transformers", chat: true },
	{ name: "phi", versions: ["3", "3.5", "4"], task: "text-generation", library: "transformers", chat: true },
	{ name: "bert", versions: ["base", "large"], task: "fill-mask", library: "transformers", chat: false },
	{
		name: "roberta",
		versions: ["base", "large"],
		task: "text-classification",
		library: "transformers",
		chat: false,
	},
	{
		name: "whisper",
		versions: ["small", "medium", "large-v3"],
		task: "automatic-speech-recognition",
		library: "transformers",
		chat: false,
	},
	{ name: "vit", versions: ["base", "large"], task: "image-classification", library: "timm", chat: false },
	{
		name: "stable-diffusion",
		versions: ["1.5", "xl", "3.5"],
		task: "text-to-image",
		library: "diffusers",
		chat: false,
	},
	{
		name: "flux",
		versions: ["1-dev", "1-schnell"],
		task: "text-to-image",
		library: "diffusers",
		chat: false,
	},
	{
		name: "minilm",
		versions: ["l6", "l12"],
		task: "sentence-similarity",
		library: "sentence-transformers",
		chat: false,
	},
	{ name: "yolo", versions: ["v8", "11"], task: "object-detection", library: "ultralytics", chat: false },
];
const SIZES = ["0.5b", "1b", "3b", "7b", "8b", "13b", "70b"];
const SUFFIXES = ["", "-instruct", "-chat", "-base", "-finetuned", "-gguf", "-awq", "-lora"];
const LICENSES = ["apache-2.0", "mit", "llama3.1", "cc-by-4.0", "other"];
const LANGUAGES = ["en", "fr", "de", "zh", "es", "ja"];
const PROVIDERS = ["together", "groq", "cerebras", "novita", "nebius", "fireworks-ai", "hf-inference"];

/** The model of index `index` (the same every run). */
export function generatedModel(index) {
	const next = random(index * 2654435761 + 17);
	const family = FAMILIES[Math.floor(next() * FAMILIES.length)];
	const version = family.versions[Math.floor(next() * family.versions.length)];
	const size = SIZES[Math.floor(next() * SIZES.length)];
	const suffix = SUFFIXES[Math.floor(next() * SUFFIXES.length)];
	const org = `org-${Math.floor(next() * 20_000)}`;
	const id = `${org}/${family.name}-${version}-${size}${suffix}-${index}`;
	const chat = family.chat && (suffix === "-instruct" || suffix === "-chat");
	const license = LICENSES[Math.floor(next() * LICENSES.length)];
	const language = LANGUAGES[Math.floor(next() * LANGUAGES.length)];
	const tags = [family.library, family.name, `license:${license}`, language, "region:us"];
	if (chat) tags.push("conversational");
	if (suffix === "-gguf") tags.push("gguf");
	// Downloads and likes follow a long tail, as on a real hub.
	const downloads = Math.floor(10 ** (next() * 7) - 1);
	const created = Date.UTC(2022, 0, 1) + Math.floor(next() * 3 * 365 * 86_400_000);
	const modified = created + Math.floor(next() * 200 * 86_400_000);
	const model = {
		id,
		pipeline_tag: family.task,
		library_name: family.library,
		tags,
		cardData: { license, language: [language] },
		downloads,
		likes: Math.floor(downloads / (50 + next() * 500)),
		trendingScore: Math.floor(next() * 100),
		createdAt: new Date(created).toISOString(),
		lastModified: new Date(modified).toISOString(),
	};
	if (family.task === "text-generation") {
		const total = Math.round(Number.parseFloat(size) * 1e9);
		model.safetensors = { parameters: { BF16: total }, total };
		model.config = { architectures: ["LlamaForCausalLM"], model_type: family.name };
	}
	if (chat && next() < 0.1) {
		const provider = PROVIDERS[Math.floor(next() * PROVIDERS.length)];
		model.inferenceProviderMapping = {
			[provider]: { providerId: id.toLowerCase(), task: "conversational", status: "live" },
		};
	}
	return model;
}

/** Writes models [start, end) to `path` as one import file. */
export function writeModelFile(path, start, end) {
	const models = [];
	for (let index = start; index < end; index++) models.push(generatedModel(index));
	writeFileSync(path, JSON.stringify(models));
}

/** A random two-word search drawn from the same vocabulary ("llama 3.3", "qwen 7b", …). */
export function searchQueries() {
	const out = [];
	for (const family of FAMILIES) for (const version of family.versions) out.push(`${family.name} ${version}`);
	for (const family of FAMILIES) for (const size of SIZES) out.push(`${family.name} ${size}`);
	return out;
}

export function filterQueries() {
	const out = [];
	for (const family of FAMILIES) {
		out.push([family.task, family.library]);
		out.push([family.task, family.library, "conversational"]);
		for (const license of LICENSES) out.push([family.library, `license:${license}`]);
	}
	return out;
}
