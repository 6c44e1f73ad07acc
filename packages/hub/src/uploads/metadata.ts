import { applyEffectiveMetadata } from "../analysis/store.js";
import type { BlobLocation } from "../blobs/small.js";
import type { Queryable } from "../db/types.js";
import type { ParsePool } from "../parsing/pool.js";
import type { RepoKey } from "../repo-identity.js";
import type { Readable } from "node:stream";
import type { ByteRange } from "../storage/types.js";
import type { CommitOperation } from "./operations.js";

/**
 * What a commit to `main` changes in the model's card, as on the public hub: README.md's front matter
 * becomes `cardData`, whose task, library and tags win over what analysis derives from the files
 * (analysis/, after the commit; config.json and the other files are its business). `undefined` leaves
 * the card as it is, `null` clears it (the file was deleted, or has no front matter).
 */
export interface MetadataChange {
	card?: { cardData: Record<string, unknown> } | null;
}

/** Front matter sits at the top: this much of a README is read for it. */
const README_HEAD_BYTES = 300 * 1024;

/** Reads a stored blob's bytes, from wherever they are kept (services/blobs.ts: readBlob). */
export type BlobRead = (
	blob: { sha256: string; size: number; storedIn?: BlobLocation | undefined },
	range: ByteRange,
) => Promise<Readable>;

async function readText(
	read: BlobRead,
	blob: { sha256: string; size: number; storedIn?: BlobLocation | undefined },
	max: number,
): Promise<string> {
	const stream = await read(blob, { start: 0, end: Math.min(blob.size, max) });
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

/**
 * The card change of a commit's operations. The front matter is parsed by a worker (up to a second of
 * CPU for a 256 KiB block); one that overruns MODELHUB_PARSE_TIMEOUT_MS refuses the commit (400).
 */
export async function metadataChange(
	context: { read: BlobRead; parsing: ParsePool },
	operations: readonly CommitOperation[],
	objectSize: (sha256: string) => number | undefined,
	repo: RepoKey,
): Promise<MetadataChange> {
	const change: MetadataChange = {};
	const readme = lastTouching(operations, "README.md");
	if (readme?.kind === "deletedFile") change.card = null;
	else if (readme && (readme.kind === "file" || readme.kind === "lfsFile")) {
		const size = readme.size ?? objectSize(readme.sha256);
		if (size !== undefined) {
			const storedIn = readme.kind === "file" ? readme.storedIn : undefined;
			const content = await readText(
				context.read,
				{ sha256: readme.sha256, size, storedIn },
				README_HEAD_BYTES,
			);
			const front = await context.parsing.run("frontMatter", {
				content,
				kind: repo.type === "dataset" ? "dataset" : "model",
			});
			change.card = front.data ? { cardData: front.data } : null;
		}
	}
	return change;
}

/**
 * Applies a metadata change to a repository (inside the commit's transaction): the card is stored and
 * the effective metadata written again at once, so a card edit shows in the same answer as the commit.
 */
export async function applyMetadataChange(
	tx: Queryable,
	repo: RepoKey,
	change: MetadataChange,
): Promise<void> {
	if (change.card === undefined) return;
	await tx.query("UPDATE repos SET card_data = $3::jsonb WHERE type = $1 AND id = $2", [
		repo.type,
		repo.id,
		change.card ? JSON.stringify(change.card.cardData) : null,
	]);
	await applyEffectiveMetadata(tx, repo);
}
