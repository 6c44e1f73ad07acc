import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { loadFacts } from "../../../../test-support/facts.js";
import { ADVERSARIAL_TEXTS, bashSyntaxErrors, shellWords } from "../../../../test-support/parsers.js";
import { recordShellCommands, type RecordedCommand } from "../../../../test-support/shell-run.js";
import { parseGGUFQuantLabel } from "../gguf.js";
import type { ModelData } from "../libraries/types.js";
import {
	LOCAL_APPS,
	getLocalAppSnippets,
	isLocalAppKey,
	localAppsForModel,
	type LocalApp,
	type LocalAppKey,
} from "./index.js";

interface LocalAppsFacts {
	probes: string[];
	apps: Record<
		string,
		{
			prettyLabel: string;
			docsUrl: string;
			mainTask: string;
			macOSOnly: boolean;
			kind: "snippet" | "deeplink";
			shownOn: Record<string, boolean>;
		}
	>;
}

const facts = loadFacts<LocalAppsFacts>("local-apps.json");
const app = (key: LocalAppKey): LocalApp => LOCAL_APPS[key];

/**
 * The probe models of the facts' matrix: each kind of repository with only the metadata that makes it
 * that kind (a GGUF header with a context length; transformers + safetensors; diffusers; mlx).
 */
const PROBES: Record<string, ModelData> = {
	"gguf-llm": {
		id: "acme/tiny-llm-GGUF",
		tags: ["gguf", "text-generation", "conversational"],
		pipeline_tag: "text-generation",
		gguf: { total: 1_100_048_384, architecture: "llama", context_length: 2048 },
	},
	"safetensors-llm": {
		id: "acme/tiny-llm",
		library_name: "transformers",
		tags: ["transformers", "safetensors", "text-generation", "conversational"],
		pipeline_tag: "text-generation",
	},
	"diffusers-t2i": {
		id: "acme/tiny-t2i",
		library_name: "diffusers",
		tags: ["diffusers", "text-to-image"],
		pipeline_tag: "text-to-image",
	},
	"mlx-llm": {
		id: "mlx-community/tiny-llm-4bit",
		library_name: "mlx",
		tags: ["mlx", "text-generation", "conversational"],
		pipeline_tag: "text-generation",
	},
};

/** Where the apps ModelHub adds show (README "Local apps": the reasons). */
const NEW_APPS_SHOWN_ON: Record<string, string[]> = {
	sglang: ["safetensors-llm"],
	"mlx-lm": ["mlx-llm"],
	"docker-model-runner": ["gguf-llm", "safetensors-llm", "mlx-llm"],
	"llama-cpp-python": ["gguf-llm"],
	"hf-cli": ["gguf-llm", "safetensors-llm", "diffusers-t2i", "mlx-llm"],
};

/** The incumbent's Invoke deep link opens a shut-down site; ours installs through Invoke's own API. */
const KIND_DEVIATIONS: Record<string, "snippet" | "deeplink"> = { invoke: "snippet" };

describe("LOCAL_APPS catalogue", () => {
	const factKeys = Object.keys(facts.apps);

	it("holds the incumbent's 17 apps in their order, plus the added ones", () => {
		const keys = Object.keys(LOCAL_APPS);
		expect(factKeys).toHaveLength(17);
		expect(keys.filter((key) => factKeys.includes(key))).toEqual(factKeys);
		expect(keys.filter((key) => !factKeys.includes(key)).sort()).toEqual(
			Object.keys(NEW_APPS_SHOWN_ON).sort(),
		);
		expect(keys.every(isLocalAppKey)).toBe(true);
		expect(isLocalAppKey("toString")).toBe(false);
	});

	it.each(factKeys)("%s keeps the incumbent's label, link, task, flag and kind", (key) => {
		const fact = facts.apps[key]!;
		const entry = app(key as LocalAppKey);
		expect(entry.prettyLabel).toBe(fact.prettyLabel);
		expect(entry.docsUrl).toBe(fact.docsUrl);
		expect(entry.mainTask).toBe(fact.mainTask);
		expect(entry.macOSOnly ?? false).toBe(fact.macOSOnly);
		const kind = "deeplink" in entry ? "deeplink" : "snippet";
		expect(kind).toBe(KIND_DEVIATIONS[key] ?? fact.kind);
	});

	it.each(factKeys)("%s shows on the same probe models as the incumbent", (key) => {
		const shownOn = Object.fromEntries(
			facts.probes.map((probe) => [probe, app(key as LocalAppKey).displayOnModelPage(PROBES[probe]!)]),
		);
		expect(shownOn).toEqual(facts.apps[key]!.shownOn);
	});

	it.each(Object.entries(NEW_APPS_SHOWN_ON))("%s shows on %j", (key, expected) => {
		const shownOn = facts.probes.filter((probe) =>
			app(key as LocalAppKey).displayOnModelPage(PROBES[probe]!),
		);
		expect(shownOn).toEqual(expected);
	});

	it("lists a model's apps in menu order", () => {
		expect(localAppsForModel(PROBES["diffusers-t2i"]!)).toEqual([
			"drawthings",
			"diffusionbee",
			"invoke",
			"hf-cli",
		]);
	});
});

const here = dirname(fileURLToPath(import.meta.url));
const SEED_DIR = join(here, "../../../hub/seed/models");

function seedModels(): ModelData[] {
	return readdirSync(SEED_DIR)
		.filter((file) => file.endsWith(".json"))
		.sort()
		.flatMap((file) => JSON.parse(readFileSync(join(SEED_DIR, file), "utf8")) as ModelData[]);
}

describe("the hub's seed models", () => {
	const models = seedModels();
	const withoutLibrary = models.filter((model) => !model.library_name);

	it("each get at least one local app, those without a library included", () => {
		expect(withoutLibrary).toHaveLength(20);
		for (const model of models) expect(localAppsForModel(model), model.id).not.toEqual([]);
	});

	it("give the GGUF repositories without a library the GGUF runners", () => {
		const gguf = withoutLibrary.filter((model) => model.gguf !== undefined);
		expect(gguf.map((model) => model.id)).toHaveLength(3);
		for (const model of gguf) {
			expect(localAppsForModel(model)).toEqual(
				expect.arrayContaining([
					"llama.cpp",
					"ollama",
					"lmstudio",
					"llama-cpp-python",
					"docker-model-runner",
				]),
			);
		}
	});

	it("offer MLX LM for mlx-lm repositories only", () => {
		const mlxLm = models
			.filter((model) => localAppsForModel(model).includes("mlx-lm"))
			.map((model) => model.id);
		expect(mlxLm).toEqual([
			"mlx-community/Llama-3.2-3B-Instruct-4bit",
			"mlx-community/Meta-Llama-3.1-8B-Instruct-4bit",
		]);
	});
});

/** Models that reach every branch of every app: the probes, and variants of them. */
function variants(id: string, text: string): Array<{ name: string; model: ModelData; filepath?: string }> {
	const gguf = PROBES["gguf-llm"]!;
	const withId = (model: ModelData): ModelData => ({ ...model, id });
	return [
		...Object.entries(PROBES).map(([name, model]) => ({ name, model: withId(model) })),
		{
			name: "gguf with files",
			model: withId({
				...gguf,
				siblings: [
					{ rfilename: "README.md" },
					{ rfilename: "tiny-Q2_K.gguf" },
					{ rfilename: "tiny-Q4_K_M.gguf" },
					{ rfilename: "q8/tiny-Q8_0-00001-of-00002.gguf" },
					{ rfilename: "q8/tiny-Q8_0-00002-of-00002.gguf" },
					{ rfilename: "mmproj-tiny-f16.gguf" },
				],
				cardData: { base_model: "acme/tiny-llm" },
			}),
		},
		{ name: "gguf, picked file", model: withId(gguf), filepath: "sub dir/tiny.Q5_K_S.gguf" },
		{ name: "gguf, picked file without a label", model: withId(gguf), filepath: "model.gguf" },
		{ name: "gguf, completion model", model: withId({ ...gguf, tags: ["gguf"] }) },
		// Every other model-derived value adversarial too: file names, base model, tags.
		{
			name: "gguf, adversarial metadata",
			model: withId({
				...gguf,
				siblings: [{ rfilename: `${text}.Q4_K_M.gguf` }],
				cardData: { base_model: text },
				tags: [...gguf.tags, `base_model:quantized:${text}`],
			}),
		},
		{ name: "gguf, adversarial picked file", model: withId(gguf), filepath: `${text}.gguf` },
		{
			name: "mistral-format checkpoint",
			model: withId({
				...PROBES["safetensors-llm"]!,
				tags: ["transformers", "mistral-common", "conversational"],
			}),
		},
		{
			name: "AWQ vision chat model",
			model: withId({
				id,
				tags: ["conversational"],
				pipeline_tag: "image-text-to-text",
				config: { quantization_config: { quant_method: "awq" } },
			}),
		},
		{ name: "mlx completion model", model: withId({ ...PROBES["mlx-llm"]!, tags: ["mlx"] }) },
		{
			name: "tgi-tagged",
			model: withId({ ...PROBES["safetensors-llm"]!, tags: ["text-generation-inference"] }),
		},
		{
			name: "diffusers lora",
			model: withId({ ...PROBES["diffusers-t2i"]!, tags: ["diffusers", "lora", "safetensors"] }),
		},
		{ name: "no metadata", model: { id, tags: [] } },
	];
}

const IDS = ["acme/tiny-llm", "single-segment", ...ADVERSARIAL_TEXTS];
const ADVERSARIAL_TEXT = 'it\'s "quoted" $(rm -rf /tmp/x) `whoami`\nnew line';
const snippetKeys = (Object.keys(LOCAL_APPS) as LocalAppKey[]).filter((key) => "snippet" in app(key));
const deeplinkKeys = (Object.keys(LOCAL_APPS) as LocalAppKey[]).filter((key) => "deeplink" in app(key));

/** The programs the snippets start; anything else in a run would be an id turned into a command. */
const PROGRAMS = new Set([
	"brew",
	"winget",
	"git",
	"cmake",
	"llama-server",
	"llama-cli",
	"llama-completion",
	"docker",
	"npx",
	"pip",
	"python3",
	"curl",
	"sh",
	"vllm",
	"ollama",
	"local-ai",
	"mlx_lm.chat",
	"mlx_lm.generate",
	"mlx_lm.server",
	"hf",
]);
const PATH_PROGRAMS = ["llama-server", "llama-cli", "llama-completion"].flatMap((name) => [
	`./${name}`,
	`./build/bin/${name}`,
]);

interface SnippetCase {
	key: LocalAppKey;
	variant: string;
	id: string;
	filepath?: string;
	blocks: string[];
}

/**
 * An argument holds a text as is (NUL bytes dropped: `shQuote` drops them, no shell argument can hold
 * one), or percent-encoded as a query value of the URL it is (Invoke's install route).
 */
function holdsText(arg: string, text: string): boolean {
	if (arg.includes(text.replaceAll("\u0000", ""))) return true;
	if (!URL.canParse(arg)) return false;
	return [...new URL(arg).searchParams.values()].includes(text.toWellFormed());
}

/**
 * Whether the picked file itself must reach the command: apps that load a file by name always; the
 * llama.cpp tools when its name has no quantisation label to use as a tag.
 */
function takesPickedFile(c: SnippetCase): boolean {
	if (!c.filepath) return false;
	if (c.key === "localai" || c.key === "llama-cpp-python" || c.key === "hf-cli") return true;
	return (
		(c.key === "llama.cpp" || c.key === "node-llama-cpp") && parseGGUFQuantLabel(c.filepath) === undefined
	);
}

describe("local app snippets", () => {
	// Each app on the models it shows on, and on a model with no metadata at all (a caller may ask
	// anyway); every id, the adversarial ones included.
	const cases: SnippetCase[] = [];
	for (const id of IDS)
		for (const { name, model, filepath } of variants(id, ADVERSARIAL_TEXT))
			for (const key of snippetKeys) {
				if (!app(key).displayOnModelPage(model) && name !== "no metadata") continue;
				const blocks = getLocalAppSnippets(app(key), model, filepath).flatMap((way) => [
					...(way.setup === undefined ? [] : [way.setup]),
					...way.content,
				]);
				cases.push({ key, variant: name, id, ...(filepath ? { filepath } : {}), blocks });
			}
	// Setup blocks repeat across models; each distinct block is parsed and run once.
	const blocks = [...new Set(cases.flatMap((c) => c.blocks))];
	const indexOf = new Map(blocks.map((code, i) => [code, i]));
	const where = (c: SnippetCase) => `${c.key} / ${c.variant} / ${JSON.stringify(c.id)}`;

	let syntaxErrors: Array<string | null> = [];
	let words: ReturnType<typeof shellWords> = [];
	let runs: RecordedCommand[][] = [];
	beforeAll(() => {
		syntaxErrors = bashSyntaxErrors(blocks);
		words = shellWords(blocks);
		// The expected programs get recording functions too: bash runs its not-found hook in a forked
		// subshell, which cost ~10 ms per command over 1,700 snippets; anything else still reaches the hook.
		runs = recordShellCommands(blocks, [...PATH_PROGRAMS, ...PROGRAMS]);
	}, 120_000);

	it("all pass bash -n and split into shell words", () => {
		expect(cases.length).toBeGreaterThan(1000);
		const failures = blocks
			.map((code, i) => ({ code, syntax: syntaxErrors[i], words: words[i] }))
			.filter((r) => r.syntax !== null || !r.words?.ok);
		expect(failures).toEqual([]);
	});

	it("start only the apps' own programs, with the model id one intact argument", () => {
		expect(runs).toHaveLength(blocks.length);
		for (const c of cases) {
			const commands = c.blocks.flatMap((code) => runs[indexOf.get(code)!]!);
			const programs = commands.map((command) => (command[0] ?? "").replace(/^.*\//, ""));
			expect(
				programs.filter((program) => !PROGRAMS.has(program)),
				where(c),
			).toEqual([]);
			if (c.id !== "")
				expect(
					commands.flat().some((arg) => holdsText(arg, c.id)),
					where(c),
				).toBe(true);
			if (takesPickedFile(c))
				expect(
					commands.flat().some((arg) => holdsText(arg, c.filepath!)),
					`${where(c)} file`,
				).toBe(true);
		}
	});

	it("send request bodies that are JSON naming the model", () => {
		let bodies = 0;
		for (const [i, code] of blocks.entries()) {
			const result = words[i];
			if (!result?.ok || !code.includes("curl http://localhost")) continue;
			const data = result.strings[result.strings.indexOf("--data") + 1]!;
			const body = JSON.parse(data) as { model: string };
			expect(typeof body.model).toBe("string");
			bodies += 1;
		}
		expect(bodies).toBeGreaterThan(100);
	});
});

describe("local app deep links", () => {
	const QUERY_KEYS = new Set(["model", "file", "hf-model-id", "repo_id", "model_id"]);

	it.each(deeplinkKeys)("%s opens a valid URL that holds the whole id", (key) => {
		const entry = app(key);
		if (!("deeplink" in entry)) throw new Error(`${key} has no deep link`);
		for (const id of IDS)
			for (const { model, filepath } of variants(id, ADVERSARIAL_TEXT)) {
				const url = entry.deeplink(model, filepath);
				expect(url).toBeInstanceOf(URL);
				expect(new URL(url.href).href).toBe(url.href);
				expect(url.hash).toBe("");
				const keys = [...url.searchParams.keys()];
				expect(
					keys.every((name) => QUERY_KEYS.has(name)),
					url.href,
				).toBe(true);
				expect(new Set(keys).size).toBe(keys.length);
				const values = [...url.searchParams.values()];
				const path = url.pathname.split("/").map(decodeURIComponent).join("/");
				const inQuery = values.includes(id.toWellFormed());
				expect(inQuery || path.endsWith(`/${id}`), `${key} ${JSON.stringify(id)} ${url.href}`).toBe(true);
				if (filepath && key === "lmstudio") expect(url.searchParams.get("file")).toBe(filepath);
			}
	});
});

describe("malformed model data", () => {
	it("is shown and rendered without throwing", () => {
		const bare = { id: "acme/bare" } as unknown as ModelData;
		const odd = {
			id: "acme/odd",
			tags: "gguf",
			siblings: "x",
			gguf: { context_length: "4096" },
		} as unknown as ModelData;
		for (const model of [bare, odd])
			for (const key of Object.keys(LOCAL_APPS) as LocalAppKey[]) {
				const entry = app(key);
				expect(typeof entry.displayOnModelPage(model), key).toBe("boolean");
				if ("deeplink" in entry) expect(entry.deeplink(model).href, key).toContain("acme");
				else expect(JSON.stringify(getLocalAppSnippets(entry, model)), key).toContain(model.id);
			}
		expect(localAppsForModel(bare)).toEqual(["hf-cli"]);
	});
});

describe("getLocalAppSnippets", () => {
	it("gives every app's output one shape", () => {
		const gguf = PROBES["gguf-llm"]!;
		expect(getLocalAppSnippets(app("ollama"), gguf)).toEqual([
			{ content: ["ollama run hf.co/acme/tiny-llm-GGUF"] },
		]);
		const [brew] = getLocalAppSnippets(app("llama.cpp"), gguf);
		expect(brew).toMatchObject({
			title: "Install with Homebrew (macOS, Linux)",
			setup: "brew install llama.cpp",
		});
		expect(brew!.content).toHaveLength(2);
		expect(getLocalAppSnippets(app("jan"), gguf)).toEqual([]);
	});
});
