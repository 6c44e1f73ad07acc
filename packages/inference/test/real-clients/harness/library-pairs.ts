/**
 * The protocol servers checked against a second real client: huggingface_hub 2.0.0 calls every
 * (provider, task) pair of its own provider table that no snippet reaches yet (the providers and
 * tasks our client does not serve today), through the router with a hub token and directly with the
 * provider's key. The table is read from the installed library, so it is the library's truth.
 */
import { execFileSync } from "node:child_process";
import type { HubModel, ProviderProtocol } from "../protocols/types.js";
import { HUB_TOKEN, providerKey } from "./credentials.js";

export interface InstalledLibraries {
	/** huggingface_hub's provider → tasks table (`inference/_providers/__init__.py`, `PROVIDERS`). */
	table: Record<string, string[]>;
	/** The installed releases of the Python clients, by distribution name. */
	versions: Record<string, string>;
}

/** Read from the installed libraries themselves, so it is their truth. */
export function installedLibraries(python: string): InstalledLibraries {
	const out = execFileSync(
		python,
		[
			"-c",
			[
				"import json",
				"from importlib.metadata import version",
				"from huggingface_hub.inference._providers import PROVIDERS",
				"table = {p: sorted(t) for p, t in PROVIDERS.items()}",
				'versions = {name: version(name) for name in ("huggingface_hub", "requests", "openai")}',
				'print(json.dumps({"table": table, "versions": versions}))',
			].join("\n"),
		],
		{ encoding: "utf8" },
	);
	return JSON.parse(out) as InstalledLibraries;
}

/** The InferenceClient call per task, with the sample files the harness writes. */
const CALLS: Record<string, (model: string) => string> = {
	conversational: (m) =>
		`client.chat_completion([{"role": "user", "content": "What is the capital of France?"}], model=${m})`,
	"text-generation": (m) => `client.text_generation("Once upon a time,", model=${m})`,
	"feature-extraction": (m) => `client.feature_extraction("The library opens at nine.", model=${m})`,
	"text-to-speech": (m) => `client.text_to_speech("Welcome to ModelHub.", model=${m})`,
	"automatic-speech-recognition": (m) => `client.automatic_speech_recognition("sample1.wav", model=${m})`,
	"text-to-image": (m) => `client.text_to_image("A lighthouse at sunset", model=${m})`,
	"text-to-video": (m) => `client.text_to_video("A red kite over a beach", model=${m})`,
	"image-to-image": (m) => `client.image_to_image("cat.png", prompt="Paint it as a watercolour", model=${m})`,
	"image-to-video": (m) => `client.image_to_video("cat.png", prompt="The cat walks away", model=${m})`,
	"image-segmentation": (m) => `client.image_segmentation("cat.png", model=${m})`,
	"visual-question-answering": (m) =>
		`client.visual_question_answering("cat.png", "What animal is this?", model=${m})`,
};

/** The hub pipeline (and tags) of a model served for `task`. */
function pipelineOf(task: string): { pipeline: string; tags: string[]; hubId: string } {
	if (task === "conversational") {
		return { pipeline: "text-generation", tags: ["conversational"], hubId: "acme-labs/text-generation-chat" };
	}
	return { pipeline: task, tags: [], hubId: `acme-labs/${task}` };
}

export interface LibraryPairRun {
	id: string;
	provider: string;
	task: string;
	credential: "hub" | "key";
	code: string;
}

export interface LibraryPairs {
	runs: LibraryPairRun[];
	/** Pairs of the library's table that have no call above (each is a failure). */
	missingCalls: string[];
	/** Pairs whose provider has no protocol server (each is a failure). */
	missingProtocols: string[];
}

/**
 * Calls for the pairs no snippet case covers; adds their models to `hubModels` (merging mappings into
 * models the cases already registered).
 */
export function libraryPairRuns(
	table: Record<string, string[]>,
	covered: ReadonlySet<string>,
	protocols: readonly ProviderProtocol[],
	hubModels: Map<string, HubModel>,
): LibraryPairs {
	const runs: LibraryPairRun[] = [];
	const missingCalls: string[] = [];
	const missingProtocols: string[] = [];
	for (const [provider, tasks] of Object.entries(table)) {
		for (const task of tasks) {
			if (covered.has(`${provider}:${task}`)) continue;
			const protocol = protocols.find((candidate) => candidate.provider === provider);
			const call = CALLS[task];
			if (!protocol) {
				missingProtocols.push(`${provider} ${task}`);
				continue;
			}
			if (!call) {
				missingCalls.push(`${provider} ${task}`);
				continue;
			}
			const { pipeline, tags, hubId } = pipelineOf(task);
			const model = hubModels.get(hubId) ?? {
				id: hubId,
				pipeline_tag: pipeline,
				tags,
				inferenceProviderMapping: {},
			};
			model.inferenceProviderMapping[provider] = {
				providerId: protocol.providerModelId(hubId),
				status: "live",
				task,
			};
			hubModels.set(hubId, model);
			const credentials = [
				...(protocol.routed ? (["hub"] as const) : []),
				...(protocol.direct ? (["key"] as const) : []),
			];
			for (const credential of credentials) {
				const token = credential === "hub" ? HUB_TOKEN : providerKey(provider);
				runs.push({
					id: `lib.${provider}.${task}.${credential}`,
					provider,
					task,
					credential,
					code: [
						"from huggingface_hub import InferenceClient",
						"",
						`client = InferenceClient(provider=${JSON.stringify(provider)}, api_key=${JSON.stringify(token)})`,
						`result = ${call(JSON.stringify(hubId))}`,
						"print(type(result).__name__)",
					].join("\n"),
				});
			}
		}
	}
	return { runs, missingCalls, missingProtocols };
}
