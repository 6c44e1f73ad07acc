/**
 * Local apps for a model another hub serves (`options.hubUrl`): which apps are offered, and that every
 * command they show starts its program with the hub in the variable that program reads. The commands
 * run in real bash with each program replaced by a stub that logs its arguments and environment.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bashSyntaxErrors, shellWords } from "../../../../test-support/parsers.js";
import type { ModelData } from "../libraries/types.js";
import { HubUrlError, otherHubUrl } from "../snippets/hub-endpoint.js";
import {
	LOCAL_APPS,
	getLocalAppSnippets,
	localAppsForModel,
	type LocalApp,
	type LocalAppKey,
} from "./index.js";

const HUB = "http://127.0.0.1:8080";

const MODELS: Record<string, ModelData> = {
	gguf: {
		id: "alice/tiny-llm-GGUF",
		tags: ["gguf", "text-generation", "conversational"],
		pipeline_tag: "text-generation",
		gguf: { total: 1_000, architecture: "llama", context_length: 2048 },
		siblings: [{ rfilename: "tiny-Q4_K_M.gguf" }, { rfilename: "tiny-Q8_0.gguf" }],
	},
	safetensors: {
		id: "alice/tiny-llm",
		library_name: "transformers",
		tags: ["transformers", "safetensors", "text-generation", "conversational", "text-generation-inference"],
		pipeline_tag: "text-generation",
	},
	diffusers: {
		id: "alice/tiny-t2i",
		library_name: "diffusers",
		tags: ["diffusers", "safetensors", "text-to-image"],
		pipeline_tag: "text-to-image",
	},
	mlx: {
		id: "alice/tiny-llm-4bit",
		library_name: "mlx",
		tags: ["mlx", "text-generation", "conversational"],
		pipeline_tag: "text-generation",
	},
};

/** Apps whose programs download from another hub when told to (README "Local apps", VERIFIED). */
const REACH_OTHER_HUBS: ReadonlySet<LocalAppKey> = new Set([
	"llama.cpp",
	"node-llama-cpp",
	"vllm",
	"sglang",
	"mlx-lm",
	"localai",
	"llama-cpp-python",
	"hf-cli",
]);
/** …of which these send no token another hub accepts, so they are not offered for private models there. */
const PUBLIC_MODELS_ONLY: ReadonlySet<LocalAppKey> = new Set(["llama.cpp", "localai"]);

const KEYS = Object.keys(LOCAL_APPS) as LocalAppKey[];
const app = (key: LocalAppKey): LocalApp => LOCAL_APPS[key];

function blocksOf(key: LocalAppKey, model: ModelData, hubUrl?: string): string[] {
	return getLocalAppSnippets(
		app(key),
		model,
		undefined,
		hubUrl === undefined ? undefined : { hubUrl },
	).flatMap((way) => [...(way.setup === undefined ? [] : [way.setup]), ...way.content]);
}

describe("hubUrl", () => {
	it("is normalised, and the public hub counts as none", () => {
		expect(otherHubUrl({ hubUrl: "http://127.0.0.1:8080/" })).toBe(HUB);
		expect(otherHubUrl({ hubUrl: "https://hub.example.com/models//" })).toBe(
			"https://hub.example.com/models",
		);
		expect(otherHubUrl({ hubUrl: "HTTPS://Hub.Example.com:443" })).toBe("https://hub.example.com");
		expect(otherHubUrl({ hubUrl: "https://huggingface.co/" })).toBeUndefined();
		expect(otherHubUrl({})).toBeUndefined();
		expect(otherHubUrl(undefined)).toBeUndefined();
	});

	it("refuses what is not a hub address, without echoing credentials", () => {
		const refused: Array<[string, string]> = [
			["hub.example.com", "is not an absolute URL"],
			["ftp://hub.example.com", "must use http or https, not ftp"],
			["javascript:alert(1)", "must use http or https, not javascript"],
			["https://alice:s3cret@hub.example.com", "must not carry a user name or password"],
			["https://hub.example.com/?token=x", "must not have a query or a fragment"],
			["https://hub.example.com/#x", "must not have a query or a fragment"],
			[`https://hub.example.com/${"a".repeat(3000)}`, "is longer than 2048 characters"],
		];
		for (const [hubUrl, problem] of refused) {
			const call = () => otherHubUrl({ hubUrl });
			expect(call, hubUrl).toThrow(HubUrlError);
			expect(call, hubUrl).toThrow(`hubUrl ${problem}`);
			try {
				call();
			} catch (error) {
				expect((error as Error).message).not.toContain("s3cret");
			}
		}
		expect(() => getLocalAppSnippets(app("hf-cli"), MODELS.gguf!, undefined, { hubUrl: "nope" })).toThrow(
			HubUrlError,
		);
	});
});

describe("apps offered for a model another hub serves", () => {
	it("are the apps that can fetch from it, for public and private models", () => {
		for (const [name, model] of Object.entries(MODELS))
			for (const isPrivate of [false, true]) {
				const subject = { ...model, private: isPrivate };
				const expected = localAppsForModel(subject).filter(
					(key) => REACH_OTHER_HUBS.has(key) && !(isPrivate && PUBLIC_MODELS_ONLY.has(key)),
				);
				expect(localAppsForModel(subject, { hubUrl: HUB }), `${name} private=${isPrivate}`).toEqual(expected);
				expect(localAppsForModel(subject, { hubUrl: HUB })).toContain("hf-cli");
			}
		// Ollama, Docker Model Runner, the desktop apps' deep links and TGI reach the public hub only.
		expect(localAppsForModel(MODELS.gguf!)).toEqual(expect.arrayContaining(["ollama", "lmstudio", "jan"]));
		expect(localAppsForModel(MODELS.safetensors!)).toEqual(
			expect.arrayContaining(["tgi", "docker-model-runner"]),
		);
	});

	it("are unchanged, with unchanged commands, when the hub named is the public one", () => {
		for (const model of Object.values(MODELS))
			for (const hubUrl of ["https://huggingface.co", "https://huggingface.co/", "https://hf.co"]) {
				expect(localAppsForModel(model, { hubUrl })).toEqual(localAppsForModel(model));
				for (const key of localAppsForModel(model))
					expect(blocksOf(key, model, hubUrl), key).toEqual(blocksOf(key, model));
			}
	});
});

/** Programs the commands may start, each replaced by a stub that logs its environment and arguments. */
const STUBS = [
	"hf",
	"pip",
	"brew",
	"winget",
	"git",
	"cmake",
	"curl",
	"docker",
	"npx",
	"python3",
	"vllm",
	"llama-server",
	"llama-cli",
	"llama-completion",
	"local-ai",
	"mlx_lm.chat",
	"mlx_lm.generate",
	"mlx_lm.server",
];
/** Programs that only install or call a running server: they fetch nothing from a hub. */
const NO_FETCH = new Set(["pip", "brew", "winget", "git", "cmake", "curl"]);

interface Started {
	program: string;
	args: string[];
	hfEndpoint: string;
	modelEndpoint: string;
}

/** Runs each block in real bash with the stubs first on PATH (and as ./llama-* and ./build/bin/llama-*). */
function runWithStubs(blocks: string[]): Started[][] {
	const dir = mkdtempSync(join(tmpdir(), "modelhub-hub-apps-"));
	try {
		const bin = join(dir, "bin");
		mkdirSync(bin);
		const log = join(dir, "log");
		const stub = `#!/bin/bash\n{ printf '%s\\x1f' "$(basename "$0")" "$HF_ENDPOINT" "$MODEL_ENDPOINT" "$@"; printf '\\x1e'; } >> ${JSON.stringify(log)}\nexit 0\n`;
		for (const name of STUBS) {
			writeFileSync(join(bin, name), stub);
			chmodSync(join(bin, name), 0o755);
		}
		return blocks.map((code, index) => {
			const work = join(dir, `work-${index}`);
			mkdirSync(join(work, "build", "bin"), { recursive: true });
			for (const name of ["llama-server", "llama-cli", "llama-completion"])
				for (const where of [work, join(work, "build", "bin")]) {
					writeFileSync(join(where, name), stub);
					chmodSync(join(where, name), 0o755);
				}
			writeFileSync(log, "");
			execFileSync("bash", ["-c", code], {
				cwd: work,
				env: { PATH: `${bin}:/usr/bin:/bin`, HOME: work },
				stdio: ["ignore", "ignore", "pipe"],
				timeout: 20_000,
			});
			return readFileSync(log, "utf8")
				.split("\x1e")
				.filter((record) => record !== "")
				.map((record) => {
					const [program = "", hfEndpoint = "", modelEndpoint = "", ...args] = record.split("\x1f");
					args.pop(); // the empty unit after the last separator
					return { program, hfEndpoint, modelEndpoint, args };
				});
		});
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

describe("commands for a model another hub serves", () => {
	const cases: Array<{ key: LocalAppKey; name: string; model: ModelData; blocks: string[] }> = [];
	for (const [name, model] of Object.entries(MODELS))
		for (const isPrivate of [false, true]) {
			const subject = { ...model, private: isPrivate };
			for (const key of localAppsForModel(subject, { hubUrl: `${HUB}/` }))
				cases.push({
					key,
					name: `${name}${isPrivate ? " (private)" : ""}`,
					model: subject,
					blocks: blocksOf(key, subject, `${HUB}/`),
				});
		}
	const blocks = [...new Set(cases.flatMap((c) => c.blocks))];
	let runs: Started[][] = [];
	beforeAll(() => {
		runs = runWithStubs(blocks);
	}, 120_000);
	afterAll(() => undefined);

	it("pass bash -n and split into shell words", () => {
		expect(KEYS.length).toBeGreaterThan(20);
		expect(bashSyntaxErrors(blocks).filter((error) => error !== null)).toEqual([]);
		expect(shellWords(blocks).every((result) => result.ok)).toBe(true);
	});

	it("start every program that fetches the model with the hub in the variable it reads", () => {
		for (const c of cases) {
			const started = c.blocks.flatMap((code) => runs[blocks.indexOf(code)]!);
			const fetching = started.filter((s) => !NO_FETCH.has(s.program));
			expect(fetching.length, `${c.key} / ${c.name}`).toBeGreaterThan(0);
			for (const s of fetching) {
				const where = `${c.key} / ${c.name}: ${s.program} ${s.args.join(" ")}`;
				expect(s.args.join(" "), where).toContain(c.model.id);
				if (s.program === "docker")
					expect(
						s.args.some((arg) => arg === `HF_ENDPOINT=${HUB}` || arg === `MODEL_ENDPOINT=${HUB}`),
						where,
					).toBe(true);
				// llama.cpp and node-llama-cpp read MODEL_ENDPOINT before HF_ENDPOINT; the rest HF_ENDPOINT.
				else if (c.key === "llama.cpp" || c.key === "node-llama-cpp")
					expect(s.modelEndpoint, where).toBe(HUB);
				else expect(s.hfEndpoint, where).toBe(HUB);
			}
			const text = c.blocks.join("\n");
			if (c.model.private) expect(text, `${c.key} / ${c.name}`).toContain("HF_TOKEN");
		}
	});

	it("name the GGUF file for llama.cpp and node-llama-cpp (no manifest route needed)", () => {
		const gguf = MODELS.gguf!;
		expect(blocksOf("llama.cpp", gguf, HUB).join("\n")).toContain(
			`MODEL_ENDPOINT=${HUB} llama-server -hf alice/tiny-llm-GGUF --hf-file tiny-Q4_K_M.gguf`,
		);
		expect(blocksOf("node-llama-cpp", gguf, HUB).join("\n")).toContain(
			`MODEL_ENDPOINT=${HUB} npx -y node-llama-cpp chat hf:alice/tiny-llm-GGUF/tiny-Q4_K_M.gguf`,
		);
	});
});
