import type { Readable } from "node:stream";
import { canRead, type Viewer } from "../accounts/viewer.js";
import type { RepoKey } from "../repo-identity.js";
import type { ServingCache } from "../serving/cache.js";
import type { ChangeEvent } from "./changes.js";
import {
	checkRevisionName,
	fileAt,
	fileBytes,
	fileLocation,
	readableRevision,
	type LocatedFile,
	type ReadableRevision,
} from "./contents.js";
import type { ReadContext } from "./models.js";
import type { RepoContext } from "./repos.js";

/**
 * Serving files (`/{id}/resolve/{revision}/{path}`) from what the hub remembers (serving/cache.ts):
 * every `from_pretrained` asks for a few small files, HEAD then GET, and `snapshot_download` for every
 * file of a repository, so their metadata and small bytes come from memory after the first request.
 *
 * Rights are still checked on every request, against the viewer of that request: a revision is kept
 * with the repository's visibility and namespace, and `canRead` decides each time. A private
 * repository's revisions are kept for the viewer who read them only, so that nobody else's request can
 * tell, from its speed, that someone has read it (a private repository the viewer may not read runs
 * the same database query as a missing one, every time: see readableRevision).
 */

/** What serving needs: the database, the storage, and this process's serving cache. */
export interface ServingContext extends ReadContext, Pick<RepoContext, "storage"> {
	serving: ServingCache;
}

/** Whose entries a private repository's revision is kept under (anonymous viewers read no private one). */
function viewerScope(viewer: Viewer): string | undefined {
	if (viewer.kind === "admin") return "admin";
	return viewer.kind === "user" ? `user:${viewer.account.name.toLowerCase()}` : undefined;
}

function revisionKey(scope: string, target: RepoKey, revision: string): string {
	// Ids are matched case-insensitively (as the database lookup does); a revision is matched exactly.
	return `${scope}\n${target.type}\n${target.id.toLowerCase()}\n${revision}`;
}

/** Scope of the revisions of public repositories, shared by every viewer. */
const PUBLIC_SCOPE = "*";

/** readableRevision, answered from memory when this revision was resolved since the last change. */
export async function servedRevision(
	context: ServingContext,
	viewer: Viewer,
	target: RepoKey,
	revision: string,
): Promise<ReadableRevision> {
	checkRevisionName(revision);
	const cache = context.serving;
	const shared = cache.revision(revisionKey(PUBLIC_SCOPE, target, revision));
	if (shared !== undefined && canRead(viewer, shared)) return shared;
	const scope = viewerScope(viewer);
	if (scope !== undefined) {
		const own = cache.revision(revisionKey(scope, target, revision));
		if (own !== undefined && canRead(viewer, own)) return own;
	}
	const version = cache.version;
	const resolved = await readableRevision(context, viewer, target, revision);
	const kept = Object.freeze({ ...resolved, libraryName: resolved.libraryName ?? null });
	const keptScope = resolved.private ? scope : PUBLIC_SCOPE;
	if (keptScope !== undefined) cache.setRevision(revisionKey(keptScope, target, revision), kept, version);
	return kept;
}

/**
 * fileAt, answered from memory after the first time (a commit's files never change), with where the
 * file's bytes are kept: looked up once here, so that downloads of a file not kept in memory read the
 * file store without asking the database first (readBlob falls back when the blob has moved since).
 */
export async function servedFile(
	context: ServingContext,
	at: ReadableRevision,
	path: string,
): Promise<LocatedFile | undefined> {
	const cache = context.serving;
	const key = `${at.type}\n${at.id}\n${at.commitId}\n${path}`;
	const known = cache.file(key);
	if (known !== undefined) return known ?? undefined;
	const version = cache.version;
	const found = await fileAt(context, at, path);
	const located = found && { ...found, storedIn: await fileLocation(context, found) };
	cache.setFile(key, located ? Object.freeze(located) : null, version);
	return located;
}

/** The whole bytes of a small file, from storage; undefined when the store's size is not the entry's. */
async function readWhole(context: ServingContext, file: LocatedFile): Promise<Buffer | undefined> {
	const stream = await fileBytes(context, file);
	const chunks: Buffer[] = [];
	let length = 0;
	for await (const chunk of stream as AsyncIterable<Buffer>) {
		length += chunk.byteLength;
		// Bounded by the entry's size, whatever the store holds.
		if (length > file.size) {
			stream.destroy();
			return undefined;
		}
		chunks.push(chunk);
	}
	return length === file.size ? Buffer.concat(chunks, length) : undefined;
}

/**
 * A file's bytes (or the range `start` ≤ byte < `end`): a small file's from memory (read whole once,
 * then kept by SHA-256), a larger one's streamed from storage.
 */
export async function servedBytes(
	context: ServingContext,
	file: LocatedFile,
	range?: { start: number; end: number },
): Promise<Readable | Buffer> {
	const cache = context.serving;
	if (!cache.keepsBlob(file.size)) return fileBytes(context, file, range);
	let bytes = cache.blob(file.sha256);
	if (bytes === undefined) {
		bytes = await cache.readOnce(file.sha256, () => readWhole(context, file));
		// The store disagrees with the entry: served as stored, as a larger file is, and not kept.
		if (bytes === undefined) return fileBytes(context, file, range);
		cache.setBlob(file.sha256, bytes);
	}
	return range ? bytes.subarray(range.start, range.end) : bytes;
}

/**
 * What a change makes the serving cache forget: where revisions point after any change a reader could
 * see (commits, visibility, members, analysis of the library that counts downloads); the file entries
 * too when repositories are deleted or replaced. Counted downloads and uploads change neither.
 */
export function forgetOnChange(cache: ServingCache, event: ChangeEvent): void {
	switch (event.type) {
		case "downloads.counted":
		case "repo.uploaded":
		case "repo.liked":
		case "webhooks.changed":
			return;
		case "account.changed":
			// Rights come from organisations' members; a new user or token changes no one's.
			if (event.what === "members" || event.what === "org.created") cache.clearRevisions();
			return;
		case "repo.deleted":
		case "repo.moved":
		case "repos.imported":
		case "hub.changed":
			cache.clearMetadata();
			return;
		default:
			cache.clearRevisions();
	}
}
