/**
 * The parsing the hub does off its event loop, one job per kind: each a pure function of its input
 * (and of the bytes it reads through `read`, which the hub's main thread answers from storage). The
 * worker (worker.ts) runs them; the pool (pool.ts) only dispatches. Inputs and outputs cross threads by
 * structured clone, so they are plain data.
 */
import { deriveMetadata, type DerivedMetadata } from "../analysis/derive.js";
import { readGgufInfo } from "../analysis/gguf.js";
import { detectLibrary } from "../analysis/library.js";
import { readSnapshot, type SkippedFile } from "../analysis/read.js";
import { readSafetensorsInfo } from "../analysis/safetensors.js";
import type { RevisionSnapshot } from "../analysis/snapshot.js";
import type { ReadRange, RevisionFile } from "../analysis/types.js";
import { readFrontMatter } from "../cards/front-matter.js";

/** What the snapshot job reads of a revision: its small JSON files and the README's head. */
export interface SnapshotParts {
	json: RevisionSnapshot["json"];
	readme: string | undefined;
	skipped: SkippedFile[];
}

export const PARSE_JOBS = {
	/** A model card's YAML front matter (`POST /api/validate-yaml`, a commit's README.md). */
	frontMatter: (input: { content: string; kind?: "model" | "dataset" }) =>
		readFrontMatter(input.content, input.kind),
	/** A revision's config.json and the other small JSON files, and the README's head. */
	snapshot: async (
		input: { files: RevisionFile[]; card: Record<string, unknown> | undefined },
		read: ReadRange,
	): Promise<SnapshotParts> => {
		const { snapshot, skipped } = await readSnapshot(input.files, read, input.card);
		return { json: snapshot.json, readme: snapshot.readme, skipped };
	},
	/** The safetensors headers (and index) of a revision's main weights. */
	safetensors: (input: { snapshot: RevisionSnapshot }, read: ReadRange) =>
		readSafetensorsInfo(input.snapshot.files, read, { library: detectLibrary(input.snapshot) }),
	/** The header of a revision's GGUF file (all shards' tensor counts). */
	gguf: (input: { files: RevisionFile[] }, read: ReadRange) => readGgufInfo(input.files, read),
	/** Everything analysis derives from a revision's snapshot (tags, task, library, config…). */
	derive: (input: { snapshot: RevisionSnapshot }): DerivedMetadata => deriveMetadata(input.snapshot),
} satisfies Record<string, (input: never, read: ReadRange) => unknown>;

export type ParseJobs = typeof PARSE_JOBS;
export type ParseJobName = keyof ParseJobs;
export type ParseJobInput<Name extends ParseJobName> = Parameters<ParseJobs[Name]>[0];
export type ParseJobOutput<Name extends ParseJobName> = Awaited<ReturnType<ParseJobs[Name]>>;

/** What each job parses, for the errors a caller reads. */
export const PARSE_JOB_SUBJECT: Readonly<Record<ParseJobName, string>> = {
	frontMatter: "the model card's metadata",
	snapshot: "the configuration files",
	safetensors: "the safetensors headers",
	gguf: "the GGUF header",
	derive: "the derived metadata",
};

/** Messages from the hub's main thread to a worker. */
export type ToWorker =
	| { type: "job"; id: number; name: ParseJobName; input: unknown }
	| { type: "read-result"; readId: number; bytes: Uint8Array }
	| { type: "read-failed"; readId: number; message: string };

/** Messages from a worker to the hub's main thread. */
export type FromWorker =
	| { type: "read"; id: number; readId: number; path: string; start: number; end: number }
	| { type: "done"; id: number; result: unknown }
	| { type: "failed"; id: number; message: string };
