/**
 * Snippets that run against the hub serving the files (issue 20): models uploaded with the real
 * huggingface_hub, their snippets generated from model info as the web app does (`{ hubUrl }` unless the
 * model carries only catalogue metadata), then executed as shown with the real client of the test
 * environment and nothing in the environment but HF_TOKEN: no HF_ENDPOINT, no network but the hub.
 * Python snippets run in children of one forking runner per generation (test-support/python-runner.ts);
 * the hf CLI, the publishing scripts and the run without a token are processes of their own.
 */
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
	getLibraryCodeBlocks,
	getLocalAppSnippets,
	LOCAL_APPS,
	localAppsForModel,
	type ModelData,
	type SnippetOptions,
} from "@modelhub/tasks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HUB_GENERATIONS, pythonEnv, type HubGeneration } from "../../../test-support/python-env.js";
import {
	MODEL_LIBRARY_PRELOAD,
	runProcess,
	startPythonRunner,
	type ProcessRun,
	type PythonRunner,
} from "../../../test-support/python-runner.js";
import type { ModelInfo } from "../src/api/models.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { parseModelList } from "../src/models/input.js";
import { saveModels } from "../src/services/import.js";
import { packageRoot, repoRoot } from "../src/paths.js";
import { bytes } from "./support/hf-client-suite.js";
import { startHub, type RunningHub } from "./support/hub.js";

const ADMIN_TOKEN = "snippets-admin-token-0123456789abcdef";
const PUBLIC_REPO = "alice/tiny-files";
const PRIVATE_REPO = "alice/secret-files";
const CATALOGUE_REPO = "acme/catalogue-only";
const GGUF_FILE = "tiny-Q4_K_M.gguf";

/** The uploaded files: a config, "weights" and a GGUF-named file, distinct per repository. */
function repoFiles(seed: number): Record<string, Buffer> {
	return {
		"config.json": Buffer.from(`${JSON.stringify({ architectures: ["TinyModel"], seed }, null, 2)}\n`),
		"model.safetensors": bytes(70_000, seed),
		[GGUF_FILE]: bytes(50_000, seed + 1),
	};
}

const RUN_TIMEOUT_MS = 120_000;

/** A separate process (the hf CLI, the publishing scripts, the run without a token). */
function run(
	file: string,
	args: string[],
	env: Record<string, string>,
	cwd: string,
	input?: string,
): Promise<ProcessRun> {
	return runProcess(file, args, {
		env,
		cwd,
		timeoutMs: RUN_TIMEOUT_MS,
		...(input === undefined ? {} : { input }),
	});
}

/** What the web app's model page hands the generators (apps/web src/view/model.ts), from model info. */
function modelData(info: ModelInfo): ModelData {
	return {
		id: info.id,
		tags: info.tags,
		private: info.private,
		...(info.library_name ? { library_name: info.library_name } : {}),
		...(info.pipeline_tag ? { pipeline_tag: info.pipeline_tag } : {}),
		...(info.siblings ? { siblings: info.siblings.map(({ rfilename }) => ({ rfilename })) } : {}),
		...(info.config ? { config: info.config as ModelData["config"] } : {}),
		...(info.cardData ? { cardData: info.cardData as ModelData["cardData"] } : {}),
		...(info.widgetData ? { widgetData: info.widgetData as ModelData["widgetData"] } : {}),
		...(info.transformersInfo
			? { transformersInfo: info.transformersInfo as ModelData["transformersInfo"] }
			: {}),
		...(info.mask_token ? { mask_token: info.mask_token } : {}),
	};
}

/** The web app's rule (apps/web src/view/snippet-hub.ts): this hub, unless only metadata is here. */
function optionsFor(info: ModelInfo, hubUrl: string): SnippetOptions {
	return info.metadataOnly === true ? {} : { hubUrl };
}

describe("snippets for models this hub serves, run as shown", () => {
	let db: Database;
	let hub: RunningHub;
	let dir: string;
	let aliceToken: string;
	/** The environment a user runs snippets in: their own home, and HF_TOKEN only for private models. */
	let baseEnv: Record<string, string>;
	/** One forking runner per generation (python-runner.ts), started in beforeAll. */
	const runners = new Map<HubGeneration, PythonRunner>();
	let starting: Promise<void>[] = [];

	/** A snippet run as `python -` with the code on stdin, in a child of the generation's runner. */
	function runSnippet(
		generation: HubGeneration,
		code: string,
		env: Record<string, string>,
	): Promise<ProcessRun> {
		return runners.get(generation)!.run(code, { env, cwd: dir, timeoutMs: RUN_TIMEOUT_MS });
	}

	async function modelInfo(id: string, token?: string): Promise<ModelInfo> {
		const response = await fetch(`${hub.url}/api/models/${id}`, {
			headers: token ? { authorization: `Bearer ${token}` } : {},
		});
		expect(response.status, id).toBe(200);
		return (await response.json()) as ModelInfo;
	}

	/** A fresh home and cache per run, so that nothing is found in a cache another run filled. */
	function userEnv(name: string, token?: string): Record<string, string> {
		const home = join(dir, `home-${name}`);
		mkdirSync(home, { recursive: true });
		return { ...baseEnv, HOME: home, HF_HOME: join(home, "hf"), ...(token ? { HF_TOKEN: token } : {}) };
	}

	/** The files of the snapshot a download put in the cache of `env`. */
	function cachedSnapshot(env: Record<string, string>, id: string): Record<string, Buffer> {
		const snapshots = join(env.HF_HOME!, "hub", `models--${id.replace("/", "--")}`, "snapshots");
		const [commit] = readdirSync(snapshots);
		const out: Record<string, Buffer> = {};
		// Top-level files only (a sentence-transformers model has module folders such as 1_Pooling/).
		for (const name of readdirSync(join(snapshots, commit!))) {
			const path = join(snapshots, commit!, name);
			if (statSync(path).isFile()) out[name] = readFileSync(path);
		}
		return out;
	}

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-snippets-"));
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({ db, seed: false, adminToken: ADMIN_TOKEN });
		const created = await fetch(`${hub.url}/api/admin/users`, {
			method: "POST",
			headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
			body: JSON.stringify({ name: "alice" }),
		});
		expect(created.status).toBe(201);
		aliceToken = ((await created.json()) as { token: string }).token;
		// A catalogue entry: metadata only, its card and config generated by the import.
		await saveModels(
			db,
			hub.storage,
			parseModelList({ id: CATALOGUE_REPO, library_name: "transformers", config: { model_type: "bert" } }),
		);

		const { bin, python } = pythonEnv();
		baseEnv = {
			PATH: `${bin}:/usr/bin:/bin`,
			HF_HUB_DISABLE_TELEMETRY: "1",
			HF_HUB_DISABLE_UPDATE_CHECK: "1",
			HF_HUB_DISABLE_PROGRESS_BARS: "1",
			NO_COLOR: "1",
		};
		// The runners import torch and the rest while the repositories are being published.
		starting = HUB_GENERATIONS.map(async (generation) => {
			const runner = await startPythonRunner(pythonEnv(generation).python, {
				preload: MODEL_LIBRARY_PRELOAD,
				env: { ...baseEnv, HOME: join(dir, `runner-${generation}`) },
			});
			runners.set(generation, runner);
		});
		// Awaited below: a failure to start is reported there, not as an unhandled rejection meanwhile.
		for (const start of starting) start.catch(() => undefined);
		// Alice publishes with the real client, as in the README: one public and one private repository.
		for (const [repo, seed, isPrivate] of [
			[PUBLIC_REPO, 1, false],
			[PRIVATE_REPO, 2, true],
		] as const) {
			const folder = join(dir, `upload-${seed}`);
			mkdirSync(folder);
			for (const [name, content] of Object.entries(repoFiles(seed)))
				writeFileSync(join(folder, name), content);
			const upload = await run(
				python,
				[
					"-c",
					"import sys; from huggingface_hub import HfApi; api = HfApi(); " +
						"api.create_repo(sys.argv[1], private=sys.argv[3] == 'private'); " +
						"api.upload_folder(repo_id=sys.argv[1], folder_path=sys.argv[2])",
					repo,
					folder,
					isPrivate ? "private" : "public",
				],
				{ ...userEnv(`upload-${seed}`, aliceToken), HF_ENDPOINT: hub.url },
				dir,
			);
			expect(upload.code, upload.stderr).toBe(0);
		}
		await Promise.all(starting);
	}, 240_000);

	afterAll(async () => {
		await Promise.allSettled(starting);
		await Promise.all([...runners.values()].map((runner) => runner.close()));
		await hub?.close();
		await db?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("tells catalogue models that carry only metadata from models whose files it serves", async () => {
		expect((await modelInfo(CATALOGUE_REPO)).metadataOnly).toBe(true);
		const uploaded = await modelInfo(PUBLIC_REPO);
		expect(uploaded.metadataOnly).toBeUndefined();
		expect(uploaded.siblings?.map((s) => s.rfilename).sort()).toEqual(
			[".gitattributes", "config.json", "model.safetensors", GGUF_FILE].sort(),
		);
		expect((await modelInfo(PRIVATE_REPO, aliceToken)).metadataOnly).toBeUndefined();
		// The catalogue model's snippets keep pointing at the public hub: no endpoint in them.
		const catalogue = await modelInfo(CATALOGUE_REPO);
		const blocks = getLibraryCodeBlocks("transformers", modelData(catalogue), optionsFor(catalogue, hub.url));
		expect(blocks.length).toBeGreaterThan(0);
		expect(blocks.map((b) => b.code).join("\n")).not.toContain("HF_ENDPOINT");
	});

	it("runs a huggingface_hub snapshot_download snippet, public and private, with only HF_TOKEN set", async () => {
		for (const [repo, seed, token] of [
			[PUBLIC_REPO, 1, undefined],
			[PRIVATE_REPO, 2, aliceToken],
		] as const) {
			const info = await modelInfo(repo, token);
			// audiocraft's snippet for weights of unknown class is huggingface_hub's snapshot_download alone.
			const [block] = getLibraryCodeBlocks("audiocraft", modelData(info), optionsFor(info, hub.url));
			expect(block?.code).toContain(`os.environ["HF_ENDPOINT"] = "${hub.url}"`);
			const env = userEnv(`snapshot-${seed}`, token);
			expect(env.HF_ENDPOINT).toBeUndefined();
			const result = await runSnippet("hub2", block!.code, env);
			expect(result.code, result.stderr).toBe(0);
			const files = cachedSnapshot(env, repo);
			for (const [name, content] of Object.entries(repoFiles(seed)))
				expect(files[name]?.equals(content), name).toBe(true);
		}
	});

	it("runs the hf CLI command of 'Use this model' for a picked file, public and private", async () => {
		for (const [repo, seed, token] of [
			[PUBLIC_REPO, 1, undefined],
			[PRIVATE_REPO, 2, aliceToken],
		] as const) {
			const info = await modelInfo(repo, token);
			const model = modelData(info);
			const options = optionsFor(info, hub.url);
			expect(localAppsForModel(model, options)).toContain("hf-cli");
			const [way] = getLocalAppSnippets(LOCAL_APPS["hf-cli"], model, GGUF_FILE, options);
			const command = way!.content[0]!;
			expect(command).toContain(`HF_ENDPOINT=${hub.url} hf download ${repo} ${GGUF_FILE}`);
			if (token) expect(command).toContain("HF_TOKEN");
			const env = userEnv(`cli-${seed}`, token);
			const result = await run("bash", ["-c", command], env, dir);
			expect(result.code, result.stderr).toBe(0);
			// hf prints the downloaded file's path (2.0: "  path: /…"), in the user's own cache.
			const path = /(\/\S+)\s*$/.exec(result.stdout)?.[1] ?? "";
			expect(path.startsWith(env.HF_HOME!), path).toBe(true);
			expect(existsSync(path)).toBe(true);
			expect(readFileSync(path).equals(repoFiles(seed)[GGUF_FILE]!)).toBe(true);
		}
	});

	it("refuses a private model's snippet run without HF_TOKEN, and prints no token", async () => {
		const { python } = pythonEnv();
		const info = await modelInfo(PRIVATE_REPO, aliceToken);
		const [block] = getLibraryCodeBlocks("audiocraft", modelData(info), optionsFor(info, hub.url));
		// The same code against this hub without the token: refused, and nothing is cached.
		const env = userEnv("no-token");
		const result = await run(python, ["-"], env, dir, block!.code);
		expect(result.code).not.toBe(0);
		expect(result.stderr).toMatch(/RepositoryNotFoundError|401|404/);
		expect(result.stderr).not.toContain(aliceToken);
	});

	it("announces MODELHUB_PUBLIC_URL to the web app's pages, and nothing when it is not set", async () => {
		const webDir = join(repoRoot(), "apps", "web", "dist");
		const page = async (publicUrl?: string) => {
			const other = await startHub({ db, seed: false, webDir, ...(publicUrl ? { publicUrl } : {}) });
			try {
				const response = await fetch(`${other.url}/${PUBLIC_REPO}`, { headers: { accept: "text/html" } });
				expect(response.status).toBe(200);
				return await response.text();
			} finally {
				await other.close();
			}
		};
		expect(await page("https://hub.example.com")).toContain(
			'<meta name="modelhub-hub-url" content="https://hub.example.com" />',
		);
		expect(await page()).not.toContain("modelhub-hub-url");
	});

	describe("library snippets, run with the real libraries on tiny random models", () => {
		/**
		 * Tiny models test/python/snippet_models.py builds and publishes, and the huggingface_hub generations
		 * whose environment has the library (sentence-transformers pins huggingface-hub<2.0: hub1 only).
		 */
		const LIBRARY_MODELS = [
			{ kind: "transformers", repo: "alice/tiny-bert-cls", private: false, generations: HUB_GENERATIONS },
			{ kind: "transformers", repo: "alice/tiny-bert-secret", private: true, generations: HUB_GENERATIONS },
			{ kind: "timm", repo: "alice/tiny-timm", private: false, generations: HUB_GENERATIONS },
			{ kind: "timm", repo: "alice/tiny-timm-secret", private: true, generations: HUB_GENERATIONS },
			{ kind: "sentence-transformers", repo: "alice/tiny-st", private: false, generations: ["hub1"] },
			{ kind: "sentence-transformers", repo: "alice/tiny-st-secret", private: true, generations: ["hub1"] },
		] as const;
		/**
		 * LoRA adapters (peft 0.21) on the tiny BERT classifiers above, made from the base as loaded from this
		 * hub, so that adapter_config.json names the base by its id here; peft writes the card (library_name:
		 * peft). Built after their bases, in the same run.
		 */
		const PEFT_ADAPTERS = [
			{
				kind: "peft",
				repo: "alice/tiny-bert-lora",
				base: "alice/tiny-bert-cls",
				private: false,
				generations: HUB_GENERATIONS,
			},
			{
				kind: "peft",
				repo: "alice/tiny-bert-lora-secret",
				base: "alice/tiny-bert-secret",
				private: true,
				generations: HUB_GENERATIONS,
			},
		] as const;

		/**
		 * Which snippets run in which environment: every block a public model shows runs in its first
		 * generation's environment; its other generation, and a private model (whose difference is only the
		 * token that huggingface_hub sends, the same for every block), run the first block. Each block and each
		 * client generation is run, public and private, at half the Python work of running every block
		 * everywhere (the costliest file of the suite on a 2-core machine).
		 */
		function runsOf<T>(
			spec: { private: boolean; generations: readonly HubGeneration[] },
			blocks: readonly T[],
		): Array<{ generation: HubGeneration; block: T; index: number }> {
			return spec.generations.flatMap((generation, order) =>
				blocks
					.map((block, index) => ({ generation, block, index }))
					.filter(({ index }) => index === 0 || (!spec.private && order === 0)),
			);
		}

		beforeAll(async () => {
			const work = join(dir, "library-models");
			mkdirSync(work);
			const script = join(packageRoot(), "test", "python", "snippet_models.py");
			// Each model is built where its library is installed (sentence-transformers: hub1).
			for (const generation of HUB_GENERATIONS) {
				const models = [...LIBRARY_MODELS, ...PEFT_ADAPTERS].filter(
					(spec) => (spec.generations as readonly string[])[0] === generation,
				);
				// Building and uploading the models takes the longest of any run: on a 2-core machine shared at
				// load ~20 it outlived the 120 s bound of a snippet run (killed, SIGTERM).
				const published = await runProcess(pythonEnv(generation).python, [script], {
					env: { ...userEnv(`publish-${generation}`, aliceToken), HF_ENDPOINT: hub.url },
					cwd: dir,
					timeoutMs: 300_000,
					input: JSON.stringify({ work_dir: work, models }),
				});
				expect(published.code, published.stderr).toBe(0);
			}
		}, 660_000);

		it.each(LIBRARY_MODELS)(
			"$kind $repo: the Python snippets shown run as shown",
			async (spec) => {
				const token = spec.private ? aliceToken : undefined;
				const info = await modelInfo(spec.repo, token);
				expect(info.library_name).toBe(spec.kind);
				expect(info.metadataOnly).toBeUndefined();
				const blocks = getLibraryCodeBlocks(spec.kind, modelData(info), optionsFor(info, hub.url));
				const pythonBlocks = blocks.filter((block) => block.language === "python");
				expect(pythonBlocks.length).toBeGreaterThan(0);
				for (const { generation, block, index } of runsOf(spec, pythonBlocks)) {
					const env = userEnv(`${spec.repo.replace("/", "--")}-${generation}-${index}`, token);
					const result = await runSnippet(generation, block.code, env);
					expect(result.code, `${generation}:\n${block.code}\n${result.stderr.slice(-3000)}`).toBe(0);
					// The model came from this hub, into the user's own cache.
					expect(Object.keys(cachedSnapshot(env, spec.repo))).toContain("config.json");
				}
			},
			300_000,
		);

		/** Model info once the hub's analysis of the last commit has filed the adapter (bounded wait). */
		async function analysedAdapter(id: string, token: string | undefined): Promise<ModelInfo> {
			const deadline = Date.now() + 60_000;
			for (;;) {
				const info = await modelInfo(id, token);
				if ((info.library_name === "peft" && info.config?.peft) || Date.now() > deadline) return info;
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
		}

		it.each(PEFT_ADAPTERS)(
			"peft $repo: the Python snippets shown load the adapter on its base from this hub",
			async (spec) => {
				const token = spec.private ? aliceToken : undefined;
				const info = await analysedAdapter(spec.repo, token);
				expect(info.library_name).toBe("peft");
				// peft 0.21 writes task_type SEQ_CLS for LoraConfig(task_type=TaskType.SEQ_CLS).
				expect(info.config?.peft).toEqual({ base_model_name_or_path: spec.base, task_type: "SEQ_CLS" });
				expect(info.pipeline_tag).toBe("text-classification");
				const blocks = getLibraryCodeBlocks("peft", modelData(info), optionsFor(info, hub.url));
				const pythonBlocks = blocks.filter((block) => block.language === "python");
				expect(pythonBlocks.length).toBeGreaterThan(0);
				for (const { generation, block, index } of runsOf(spec, pythonBlocks)) {
					const env = userEnv(`${spec.repo.replace("/", "--")}-${generation}-${index}`, token);
					// The snippet as shown, then what it loaded: the adapter's config and its LoRA weights.
					const check = [
						"import json",
						"print(json.dumps({'class': type(model).__name__, " +
							"'base': model.peft_config['default'].base_model_name_or_path, " +
							"'lora': sum(1 for name, _ in model.named_parameters() if 'lora_' in name)}))",
					].join("\n");
					const code = `${block.code}\n${check}\n`;
					const result = await runSnippet(generation, code, env);
					expect(result.code, `${generation}:\n${code}\n${result.stderr.slice(-3000)}`).toBe(0);
					const loaded = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as Record<
						string,
						unknown
					>;
					expect(loaded.class).toBe("PeftModelForSequenceClassification");
					expect(loaded.base).toBe(spec.base);
					// One layer, LoRA on query and value: an A and a B matrix each.
					expect(loaded.lora).toBe(4);
					// Both the base and the adapter came from this hub, into the user's own cache.
					expect(Object.keys(cachedSnapshot(env, spec.base))).toContain("config.json");
					expect(Object.keys(cachedSnapshot(env, spec.repo))).toContain("adapter_config.json");
				}
			},
			300_000,
		);
	});
});
