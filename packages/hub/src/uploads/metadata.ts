import { cardFacts, readFrontMatter } from "../cards/front-matter.js";
import { checkJson, ModelInputError } from "../models/input.js";
import type { Queryable } from "../db/types.js";
import type { RepoKey } from "../repo-identity.js";
import type { BlobStore } from "../storage/types.js";
import type { CommitOperation } from "./operations.js";

/**
 * What a commit to `main` changes in the model's metadata, as on the public hub: README.md's front
 * matter becomes `cardData` and gives the task, library and tags; config.json becomes `config`.
 * `undefined` leaves a field as it is, `null` clears it (the file was deleted).
 */
export interface MetadataChange {
	card?: (ReturnType<typeof cardFacts> & { cardData: Record<string, unknown> }) | null;
	config?: Record<string, unknown> | null;
}

/** Front matter sits at the top: this much of a README is read for it. */
const README_HEAD_BYTES = 300 * 1024;
const MAX_CONFIG_BYTES = 1024 * 1024;

async function readText(storage: BlobStore, sha256: string, size: number, max: number): Promise<string> {
	const stream = await storage.read(sha256, { start: 0, end: Math.min(size, max) });
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString("utf8");
}

/** The last operation of the commit that touches `path`, if any. */
function lastTouching(operations: readonly CommitOperation[], path: string): CommitOperation | undefined {
	for (let index = operations.length - 1; index >= 0; index--) {
		const op = operations[index] as CommitOperation;
		if (op.path === path) return op;
	}
	return undefined;
}

export async function metadataChange(
	storage: BlobStore,
	operations: readonly CommitOperation[],
	objectSize: (sha256: string) => number | undefined,
): Promise<MetadataChange> {
	const change: MetadataChange = {};
	const readme = lastTouching(operations, "README.md");
	if (readme?.kind === "deletedFile") change.card = null;
	else if (readme && (readme.kind === "file" || readme.kind === "lfsFile")) {
		const size = readme.size ?? objectSize(readme.sha256);
		if (size !== undefined) {
			const front = readFrontMatter(await readText(storage, readme.sha256, size, README_HEAD_BYTES));
			change.card = front.data ? { cardData: front.data, ...cardFacts(front.data) } : null;
		}
	}
	const config = lastTouching(operations, "config.json");
	if (config?.kind === "deletedFile") change.config = null;
	else if (config && (config.kind === "file" || config.kind === "lfsFile")) {
		const size = config.size ?? objectSize(config.sha256);
		if (size !== undefined && size <= MAX_CONFIG_BYTES) {
			try {
				const value: unknown = JSON.parse(await readText(storage, config.sha256, size, MAX_CONFIG_BYTES));
				if (typeof value === "object" && value !== null && !Array.isArray(value)) {
					checkJson(value, "config.json");
					change.config = value as Record<string, unknown>;
				}
			} catch (error) {
				// Not JSON, or JSON PostgreSQL cannot hold: the file is kept, the metadata left alone.
				if (!(error instanceof SyntaxError) && !(error instanceof ModelInputError)) throw error;
			}
		}
	}
	return change;
}

/** Applies a metadata change to a repository (inside the commit's transaction). */
export async function applyMetadataChange(
	tx: Queryable,
	repo: RepoKey,
	change: MetadataChange,
): Promise<void> {
	if (change.card !== undefined) {
		const card = change.card;
		await tx.query(
			`UPDATE repos SET card_data = $3::jsonb,
				pipeline_tag = COALESCE($4, pipeline_tag), library_name = COALESCE($5, library_name),
				tags = CASE WHEN $3::jsonb IS NULL THEN tags ELSE $6::text[] END
			WHERE type = $1 AND id = $2`,
			[
				repo.type,
				repo.id,
				card ? JSON.stringify(card.cardData) : null,
				card?.pipelineTag ?? null,
				card?.libraryName ?? null,
				card?.tags ?? [],
			],
		);
	}
	if (change.config !== undefined) {
		await tx.query("UPDATE repos SET config = $3::jsonb WHERE type = $1 AND id = $2", [
			repo.type,
			repo.id,
			change.config === null ? null : JSON.stringify(change.config),
		]);
	}
}
