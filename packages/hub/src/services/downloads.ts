import { isModelDownload } from "@modelhub/tasks";
import {
	DEFAULT_DOWNLOAD_COUNTER_SETTINGS,
	DownloadCounter,
	type DownloadCounterSettings,
} from "../downloads/counter.js";
import { addDownloads, addMirrorDownloads } from "../downloads/store.js";
import { write, type WriteContext } from "./write.js";
import type { ReadableRevision } from "./contents.js";

/**
 * Download counts, as the public hub documents them ("Models Download Stats",
 * huggingface/hub-docs docs/hub/models-download-stats.md):
 * - counted server-side as files are served, no call from the client: every request, GET or HEAD, for a
 *   model's *query files* counts;
 * - the query files are the model's library's `countDownloads` rule from the catalogue, else the default
 *   files `config.json`, `config.yaml`, `hyperparams.yaml`, `params.json`, `meta.yaml` (root level);
 *   every `.gguf` file counts; diffusers counts `model_index.json` and root-level checkpoints
 *   (`isModelDownload` in @modelhub/tasks);
 * - `downloads` is the last 30 days, `downloadsAllTime` every download.
 * Datasets ("Datasets Download Stats", hub-docs docs/hub/datasets-download-stats.md): every file of a
 * dataset counts, GET or HEAD, but all files one client (by IP address) downloads from one dataset
 * within a 5-minute window are one download (subsets, splits and shards are many files).
 * What this hub adds: only answers that serve the file count (200, 206, 304, the 302 to storage; not a
 * 404 or a 416); for models, one count per client address, repository and file per hour; for datasets
 * the window is fixed from the counted request, so a client fetching for longer counts once per window
 * (`DownloadCounter`, both windows configurable); the hub's own reads (`INTERNAL_READ_HEADER`) never
 * count.
 * Mirror mode (src/mirror/): downloads of a mirrored repository's files count by the same rules (its
 * library is the one its upstream info names), apart from local ones (migration 27), except those whose
 * answer asked the upstream for the file: the upstream counted that request itself, and a mirrored
 * repository's `downloads` is the upstream's figure plus the ones counted here.
 */

/**
 * Marks a request the hub makes for itself (the web app fetching a card to render it, the golden
 * recorder): never counted. Anyone may send it; it only keeps their own request out of the count.
 */
export const INTERNAL_READ_HEADER = "x-modelhub-internal-read";

/** What counting needs: the database and bus to flush through, and this process's counter. */
export interface DownloadsContext extends WriteContext {
	downloads: DownloadCounter;
}

/** This process's counter, flushing through `write` (so other processes' caches hear of it). */
export function createDownloadCounter(
	context: WriteContext,
	settings: Partial<DownloadCounterSettings> = {},
	onError: (error: unknown, lost: number) => void = () => {},
): DownloadCounter {
	const counter = new DownloadCounter(
		async (increments, today) => {
			await write(context, async (tx) => {
				const local = increments.filter((increment) => increment.mirrored !== true);
				const total = await addDownloads(tx, local, today);
				// Mirrored repositories' counts are read at each answer: no cache to tell.
				await addMirrorDownloads(
					tx,
					increments.filter((increment) => increment.mirrored === true),
				);
				return { value: total, change: total > 0 ? { type: "downloads.counted", total } : undefined };
			});
		},
		{ ...DEFAULT_DOWNLOAD_COUNTER_SETTINGS, ...settings },
		onError,
	);
	counter.start();
	return counter;
}

/**
 * Counts a served file asked for by a client (not by the hub itself): any file of a dataset
 * (repository-wide, in the dataset window), a model's query files. Returns whether it counted.
 */
export function countDownload(
	context: Pick<DownloadsContext, "downloads">,
	request: {
		at: Pick<ReadableRevision, "type" | "id" | "libraryName"> & { mirrored?: boolean };
		path: string;
		client: string;
		internal: boolean;
	},
): boolean {
	const { at } = request;
	if (request.internal) return false;
	const mirrored = at.mirrored === true ? { mirrored: true } : {};
	if (at.type === "dataset")
		return context.downloads.record({ type: at.type, id: at.id, client: request.client, ...mirrored });
	if (at.type !== "model") return false;
	if (!isModelDownload(at.libraryName ?? undefined, request.path)) return false;
	return context.downloads.record({
		type: at.type,
		id: at.id,
		path: request.path,
		client: request.client,
		...mirrored,
	});
}
