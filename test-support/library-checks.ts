/**
 * Shared checks for library families: every branch's example input from the facts, plus a corpus of
 * ordinary, missing and adversarial model data, run through real parsers. A family test calls
 * `checkLibraryFamily(family)` inside a vitest file.
 */
import { beforeAll, expect, it } from "vitest";
import { loadFacts } from "./facts.js";
import type { CodeBlock, LibraryUiElement, ModelData } from "../packages/tasks/src/libraries/types.js";
import type { SnippetOptions } from "../packages/tasks/src/snippets/hub-endpoint.js";
import {
	ADVERSARIAL_TEXTS,
	bashSyntaxErrors,
	parseBatch,
	parseJsModule,
	type ParseResult,
} from "./parsers.js";

export interface LibraryFact {
	key: string;
	prettyLabel: string;
	repoName: string;
	repoUrl: string;
	docsUrl: string | null;
	filter: boolean | null;
	countDownloads: string | null;
	hasSnippets: boolean;
	snippetFacts: null | {
		usesModelId: boolean;
		languages: string[];
		branches: Array<{
			when: string;
			exampleInput: Partial<ModelData>;
			snippetCount: number;
			mentions?: string[];
			doesNotMention?: string[];
		}>;
	};
}

export function loadLibraryFacts(): LibraryFact[] {
	return loadFacts<LibraryFact[]>("libraries.json");
}

/**
 * Mentions in the facts that record an incumbent bug (listed in its `incumbentQuirks`) rather than the
 * intended output; we check the corrected text instead.
 */
const CORRECTED_MENTIONS: Record<string, string> = {
	// The incumbent builds the class name "YOLOvv8" from the tag "yolov8".
	YOLOvv8: "YOLOv8",
	// 3DTopia-XL (3DTopia/3DTopia-XL 657b0b0) has no `threedtopia_xl` package: inference.py's main(config)
	// runs the checkpoints downloaded by id.
	"threedtopia_xl.from_pretrained": 'filename="model_sview_dit_fp16.pt"',
	'generate(cond="path/to/image.png")': "main(config)",
	// huggingface_hub 1.0 removed `huggingface-cli` (`hf` replaces it) and stopped using hf_transfer.
	"huggingface-cli download": "hf download",
	"pip install huggingface_hub hf_transfer": "pip install -U huggingface_hub",
	HF_HUB_ENABLE_HF_TRANSFER: "HF_XET_HIGH_PERFORMANCE",
	// skops 0.12 removed skops.hub_utils; the file is downloaded with huggingface_hub.
	"skops.hub_utils": "from huggingface_hub import hf_hub_download",
	// Sentis 2 replaced IWorker and WorkerFactory.CreateWorker with the Worker class.
	"WorkerFactory.CreateWorker": "new Worker(",
	IWorker: "Worker worker",
};

/**
 * Per library: whole mentions that record an API the library's current release no longer has (or an
 * incumbent bug that one library shares with another), replaced before CORRECTED_MENTIONS applies.
 */
const CORRECTED_LIBRARY_MENTIONS: Record<string, Record<string, string>> = {
	// ultralytics 8.3 and 8.4 export one YOLO class, loaded from a local .pt file; no from_pretrained.
	ultralytics: {
		"from ultralytics import YOLOvv8": "from ultralytics import YOLO\n",
		"YOLOvv8.from_pretrained": "model = YOLO(checkpoint)",
		YOLOvXX: "model = YOLO(checkpoint)",
		"Couldn't find a valid YOLO version tag.": "list_repo_files(repo_id)",
	},
	// THU-MIG/yolov10 (453c6e3) exports YOLOv10 only, whatever the tags say.
	yolov10: {
		"from ultralytics import YOLOvv8": "from ultralytics import YOLOv10",
		"YOLOvv8.from_pretrained": "YOLOv10.from_pretrained",
		YOLOvXX: "YOLOv10.from_pretrained",
		"Couldn't find a valid YOLO version tag.": "git+https://github.com/THU-MIG/yolov10.git",
	},
	// huggingface_hub 1.0 replaced the huggingface-cli command with hf.
	"depth-pro": { "huggingface-cli download --local-dir checkpoints": "hf download --local-dir checkpoints" },
	// The incumbent hard-codes the official repository; we load the one given.
	"derm-foundation": { "google/derm-foundation": 'snapshot_download(repo_id="acme/demo-model"' },
	// The chat example is the task's shared one (the inference snippets and the web app show it too).
	transformers: {
		'{"role": "user", "content": "Who are you?"}':
			'{"role": "user", "content": "What is the capital of France?"}',
	},
};

function correctedLibraryMention(key: string, mention: string): string {
	const corrections = Object.hasOwn(CORRECTED_LIBRARY_MENTIONS, key)
		? CORRECTED_LIBRARY_MENTIONS[key]
		: undefined;
	return corrections && Object.hasOwn(corrections, mention) ? (corrections[mention] as string) : mention;
}

const BASE_MODEL: ModelData = { id: "acme/demo-model", tags: [], inference: "" };

/** Ids that real hubs hold: dots, underscores, digits, no namespace. */
const ORDINARY_IDS = ["acme/demo-model", "org.name/model_v1.5-2", "single-segment-model", "a/b/c"];

/** A text with no special characters, standing in for each adversarial text in the confinement check. */
const BENIGN_TEXT = "benign text-1.0";

/** Model data with `text` in every field a generator may read. */
function modelWith(text: string): ModelData {
	return {
		id: `acme/${text}`,
		tags: [text, "conversational", "custom_code"],
		inference: "",
		pipeline_tag: "text-generation",
		mask_token: text,
		config: {
			architectures: [text],
			adapter_transformers: { model_name: text },
			keras_hub: { tasks: [text, "CausalLM"] },
			peft: { base_model_name_or_path: text, task_type: "CAUSAL_LM" },
			sklearn: { model: { file: text }, model_format: "pickle" },
			speechbrain: { speechbrain_interface: text },
			tokenizer_config: { chat_template: text },
		},
		cardData: { base_model: text, instance_prompt: text },
		widgetData: [{ text, source_sentence: text, sentences: [text, text] }],
		transformersInfo: { auto_model: text, processor: text },
	};
}

/** Model data that exercises every field with adversarial text. */
function adversarialModels(): ModelData[] {
	return ADVERSARIAL_TEXTS.filter((text) => text !== "").map(modelWith);
}

/**
 * The structure bash sees in a script, as a string: "w" per word, unquoted operators and newlines as
 * themselves, and "$" per substitution bash would perform (`$(`, backtick, `${` outside single quotes).
 * Quoting follows bash: '…' is literal, $'…' and "…" honour backslash escapes, # starts a comment at
 * the start of a word, backslash-newline continues the line. Two scripts that differ only inside
 * their quoted literals have the same shape.
 */
export function shellShape(code: string): string {
	const out: string[] = [];
	let inWord = false;
	// A backtick opens and closes one substitution; count it once.
	let inBackticks = false;
	const substitution = (char: string) => {
		if (char === "`") {
			inBackticks = !inBackticks;
			if (!inBackticks) return;
		}
		out.push("$");
	};
	const word = () => {
		if (!inWord) out.push("w");
		inWord = true;
	};
	for (let i = 0; i < code.length; i++) {
		const c = code[i] as string;
		if (c === "\\") {
			if (code[i + 1] === "\n") {
				i++;
				continue;
			}
			word();
			i++;
		} else if (c === "'") {
			word();
			const end = code.indexOf("'", i + 1);
			i = end === -1 ? code.length : end;
		} else if (c === "$" && code[i + 1] === "'") {
			word();
			for (i += 2; i < code.length && code[i] !== "'"; i++) if (code[i] === "\\") i++;
		} else if (c === '"') {
			word();
			for (i++; i < code.length && code[i] !== '"'; i++) {
				if (code[i] === "\\") i++;
				else if (code[i] === "`" || (code[i] === "$" && /[({]/.test(code[i + 1] ?? "")))
					substitution(code[i] as string);
			}
		} else if (c === "`" || (c === "$" && /[({]/.test(code[i + 1] ?? ""))) {
			word();
			substitution(c);
		} else if (c === "#" && !inWord) {
			const end = code.indexOf("\n", i);
			i = end === -1 ? code.length : end - 1;
		} else if (c === "\n") {
			inWord = false;
			out.push("nl");
		} else if (/\s/.test(c)) {
			inWord = false;
		} else if (/[;&|<>()]/.test(c)) {
			inWord = false;
			let op = c;
			while (/[;&|<>]/.test(code[i + 1] ?? "") && op.length < 3) op += code[++i];
			out.push(op);
		} else {
			word();
		}
	}
	return out.join(" ");
}

interface Produced {
	label: string;
	model: ModelData;
	blocks: CodeBlock[];
}

function blocksOf(entry: LibraryUiElement, model: ModelData, options?: SnippetOptions): CodeBlock[] {
	if (entry.codeBlocks) return entry.codeBlocks(model, options);
	return (entry.snippets?.(model, options) ?? []).map((code) => ({ language: "python", code }));
}

/**
 * Another hub serving the model, as a page would pass it: with a path and a trailing slash (the
 * snippets drop the slash), and characters shell and Python must keep inside their literals.
 */
const OTHER_HUB = "http://127.0.0.1:8080/hub's/$(x)/";
const OTHER_HUB_NORMALISED = "http://127.0.0.1:8080/hub's/$(x)";

/** A shell block of package installs from elsewhere (no hub involved), comments aside. */
function installsOnly(code: string): boolean {
	return code
		.split("\n")
		.map((line) => line.trim())
		.every(
			(line) => line === "" || line.startsWith("#") || /^pip install git\+https:\/\/github\.com\//.test(line),
		);
}

/** Line index of the first line matching `pattern`, or -1. */
function firstLine(code: string, pattern: RegExp): number {
	return code.split("\n").findIndex((line) => pattern.test(line));
}

/**
 * For a model another hub serves: Python blocks set HF_ENDPOINT (to the hub, as one literal) before any
 * import but `import os`; shell blocks that fetch the model export it; Transformers.js sets its remote
 * host; a private model's blocks name HF_TOKEN and never hold a token.
 */
function assertTargetsHub(produced: Produced[], parsed: ParsedBlocks): void {
	for (const p of produced) {
		for (const b of p.blocks) {
			const label = `${p.label} (${b.language})\n${b.code}`;
			if (b.language === "python") {
				const result = parsed.python(b.code);
				expect(result.ok && result.strings.includes(OTHER_HUB_NORMALISED), label).toBe(true);
				const set = firstLine(b.code, /^os\.environ\["HF_ENDPOINT"\] = /);
				const firstImport = firstLine(b.code, /^\s*(import (?!os$)|from \S+ import )/);
				expect(set, label).toBeGreaterThan(0);
				if (firstImport !== -1) expect(set, label).toBeLessThan(firstImport);
			} else if (b.language === "shell" && !installsOnly(b.code)) {
				expect(b.code, label).toMatch(/^export HF_ENDPOINT=/m);
				const words = parsed.shell(b.code).words;
				expect(words.ok && words.strings.includes(`HF_ENDPOINT=${OTHER_HUB_NORMALISED}`), label).toBe(true);
			} else if (b.language === "javascript") {
				const result = parseJsModule(b.code);
				expect(result.ok && result.strings.includes(`${OTHER_HUB_NORMALISED}/`), label).toBe(true);
			}
			const fetches =
				b.language === "python" ||
				b.language === "javascript" ||
				(b.language === "shell" && !installsOnly(b.code));
			if (p.model.private === true && fetches) expect(b.code, label).toContain("HF_TOKEN");
			expect(b.code, label).not.toMatch(/\b(hf|mh)_[A-Za-z0-9]{20,}/);
		}
	}
}

/**
 * Parser results for every block of a family, filled by ONE batch (one python3 process for `ast` and
 * `shlex`, one bash process for `bash -n`) before the family's cases run, then looked up per case.
 */
class ParsedBlocks {
	private readonly pythonResults = new Map<string, ParseResult>();
	private readonly shellWordResults = new Map<string, ParseResult>();
	private readonly bashErrors = new Map<string, string | null>();

	prime(produced: Produced[]): void {
		const codes = (language: string) => [
			...new Set(produced.flatMap((p) => p.blocks.filter((b) => b.language === language).map((b) => b.code))),
		];
		const pythonCodes = codes("python");
		const shellCodes = codes("shell");
		const results = parseBatch([
			...pythonCodes.map((code) => ({ lang: "python" as const, code })),
			...shellCodes.map((code) => ({ lang: "shell-words" as const, code })),
		]);
		pythonCodes.forEach((code, i) => this.pythonResults.set(code, results[i]!));
		shellCodes.forEach((code, i) => this.shellWordResults.set(code, results[pythonCodes.length + i]!));
		bashSyntaxErrors(shellCodes).forEach((error, i) => this.bashErrors.set(shellCodes[i]!, error));
	}

	private lookup<T>(map: Map<string, T>, code: string): T {
		if (!map.has(code)) throw new Error(`block was not parsed in the batch:\n${code}`);
		return map.get(code)!;
	}

	python(code: string): ParseResult {
		return this.lookup(this.pythonResults, code);
	}

	shell(code: string): { words: ParseResult; bashError: string | null } {
		return { words: this.lookup(this.shellWordResults, code), bashError: this.lookup(this.bashErrors, code) };
	}
}

function assertParses(produced: Produced[], parsed: ParsedBlocks): void {
	for (const p of produced) {
		for (const b of p.blocks) {
			if (b.language === "python") {
				const result = parsed.python(b.code);
				expect(
					result.ok,
					`${p.label}: python does not parse: ${!result.ok ? result.error : ""}\n${b.code}`,
				).toBe(true);
			} else if (b.language === "shell") {
				expect(parsed.shell(b.code).bashError, `${p.label}: bash -n fails\n${b.code}`).toBeNull();
			} else if (b.language === "javascript") {
				const result = parseJsModule(b.code);
				expect(result.ok, `${p.label}: js does not parse: ${!result.ok ? result.error : ""}\n${b.code}`).toBe(
					true,
				);
			}
		}
	}
}

/**
 * The model id must survive as one whole literal in at least one block of every output: a snippet
 * loads THE model given, or at least shows the command that fetches it (ids in comments do not count).
 */
function assertIdRoundTrips(produced: Produced[], parsed: ParsedBlocks): void {
	for (const p of produced) {
		const strings: string[] = [];
		for (const b of p.blocks) {
			const result =
				b.language === "python"
					? parsed.python(b.code)
					: b.language === "shell"
						? parsed.shell(b.code).words
						: b.language === "javascript"
							? parseJsModule(b.code)
							: undefined;
			if (result?.ok) strings.push(...result.strings);
		}
		// Shell words cannot hold NUL, so the shell builder drops it; every other literal keeps it.
		const ids = [p.model.id, p.model.id.replaceAll("\u0000", "")];
		const found = strings.some((s) => ids.some((id) => s.includes(id)));
		expect(found, `${p.label}: model id ${JSON.stringify(p.model.id)} is not inside any literal`).toBe(true);
	}
}

function shapeOf(block: CodeBlock, parsed: ParsedBlocks): string | undefined {
	const result =
		block.language === "python"
			? parsed.python(block.code)
			: block.language === "shell"
				? parsed.shell(block.code).words
				: block.language === "javascript"
					? parseJsModule(block.code)
					: undefined;
	if (!result) return undefined; // C# has no parser here; its literals are covered by csString's tests.
	if (!result.ok) return `unparsable: ${result.error}`;
	return block.language === "shell" ? shellShape(block.code) : result.shape;
}

/**
 * An adversarial value (quotes, newlines, `${}`, `$()`, backticks, NUL…) must give code of exactly the
 * shape a plain value gives: same blocks, same syntax tree apart from string contents, and for shell
 * the same words, operators and substitutions. Anything else means the value escaped its literal.
 */
function assertSameShape(pair: { adversarial: Produced; benign: Produced }, parsed: ParsedBlocks): void {
	const { adversarial, benign } = pair;
	expect(
		adversarial.blocks.map((b) => b.language),
		`${adversarial.label}: blocks`,
	).toEqual(benign.blocks.map((b) => b.language));
	adversarial.blocks.forEach((block, i) => {
		const other = benign.blocks[i] as CodeBlock;
		expect(shapeOf(block, parsed), `${adversarial.label} block ${i}: shape differs\n${block.code}`).toBe(
			shapeOf(other, parsed),
		);
	});
}

/**
 * Registers vitest cases for each entry of a family against the facts: metadata, branch mentions,
 * parsing of every snippet on ordinary and adversarial data, and literal round trips of the id.
 */
export function checkLibraryFamily(family: Record<string, LibraryUiElement>): void {
	const facts = new Map(loadLibraryFacts().map((fact) => [fact.key, fact]));
	const parsed = new ParsedBlocks();
	const everything: Produced[] = [];
	beforeAll(() => parsed.prime(everything));

	for (const [key, entry] of Object.entries(family)) {
		const fact = facts.get(key);
		it(`${key}: metadata matches the facts`, () => {
			expect(fact, `unknown library key ${key}`).toBeDefined();
			expect(entry.prettyLabel).toBe(fact!.prettyLabel);
			expect(entry.repoName).toBe(fact!.repoName);
			expect(entry.repoUrl).toBe(fact!.repoUrl);
			expect(entry.docsUrl ?? null).toBe(fact!.docsUrl);
			expect(entry.filter ?? null).toBe(fact!.filter);
			expect(entry.countDownloads ?? null).toBe(fact!.countDownloads);
			expect(typeof entry.snippets === "function").toBe(fact!.hasSnippets);
		});
		if (!fact?.snippetFacts || !entry.snippets) continue;
		const snippetFacts = fact.snippetFacts;

		// Generating is cheap and pure: every case's blocks are built now, parsed once in beforeAll.
		const branches: Produced[] = snippetFacts.branches.map((branch) => {
			const model = { ...BASE_MODEL, ...branch.exampleInput } as ModelData;
			return { label: `${key} [${branch.when}]`, model, blocks: blocksOf(entry, model) };
		});
		const corpus: Produced[] = [
			...ORDINARY_IDS.map((id) => ({ id, tags: [], inference: "" }) as ModelData),
			...snippetFacts.branches.flatMap((branch) =>
				ORDINARY_IDS.map((id) => ({ ...BASE_MODEL, ...branch.exampleInput, id }) as ModelData),
			),
			...adversarialModels(),
		].map((model, i) => ({
			label: `${key} #${i} ${JSON.stringify(model.id)}`,
			model,
			blocks: blocksOf(entry, model),
		}));
		// The same inputs for a model another hub serves, public and private.
		const onOtherHub: Produced[] = [...branches, ...corpus].flatMap((p) =>
			[false, true].map((isPrivate) => {
				const model = { ...p.model, private: isPrivate };
				return {
					label: `${p.label} on another hub${isPrivate ? ", private" : ""}`,
					model,
					blocks: blocksOf(entry, model, { hubUrl: OTHER_HUB }),
				};
			}),
		);
		const benign: Produced = { label: `${key} benign`, model: modelWith(BENIGN_TEXT), blocks: [] };
		benign.blocks = blocksOf(entry, benign.model);
		const confinementPairs = corpus
			.filter((p) => p.model.id.startsWith("acme/") && ADVERSARIAL_TEXTS.includes(p.model.id.slice(5)))
			.map((adversarial) => ({ adversarial, benign }));
		everything.push(...branches, ...corpus, ...onOtherHub, benign);

		it(`${key}: every branch holds its facts and parses`, () => {
			branches.forEach((p, i) => {
				const branch = snippetFacts.branches[i]!;
				const text = p.blocks.map((b) => b.code).join("\n");
				if (branch.snippetCount > 0) expect(p.blocks.length, `${p.label}: snippet count`).toBeGreaterThan(0);
				else expect(p.blocks.length, `${p.label}: snippet count`).toBe(0);
				for (const mention of branch.mentions ?? []) {
					const corrected = Object.entries(CORRECTED_MENTIONS).reduce(
						(m, [bad, good]) => m.replaceAll(bad, good),
						correctedLibraryMention(key, mention),
					);
					expect(text, `${p.label} mentions`).toContain(corrected);
				}
				for (const absent of branch.doesNotMention ?? [])
					expect(text, `${p.label} must not mention`).not.toContain(absent);
				expect(entry.snippets!(p.model)).toEqual(p.blocks.map((b) => b.code));
			});
			assertParses(branches, parsed);
		});

		it(`${key}: ordinary and adversarial model data give valid code with the id intact`, () => {
			assertParses(corpus, parsed);
			assertIdRoundTrips(
				corpus.filter((p) => p.blocks.length > 0),
				parsed,
			);
		});

		it(`${key}: for a model another hub serves, every block targets that hub and parses`, () => {
			assertParses(onOtherHub, parsed);
			assertIdRoundTrips(
				onOtherHub.filter((p) => p.blocks.length > 0),
				parsed,
			);
			assertTargetsHub(onOtherHub, parsed);
			// The public hub, named or not, gives the snippets of no options at all.
			for (const p of branches) {
				expect(blocksOf(entry, p.model, {}), p.label).toEqual(p.blocks);
				expect(blocksOf(entry, p.model, { hubUrl: "https://huggingface.co/" }), p.label).toEqual(p.blocks);
			}
		});

		it(`${key}: model values stay inside their literals (same code shape as for plain text)`, () => {
			for (const pair of confinementPairs) assertSameShape(pair, parsed);
		});
	}
}
