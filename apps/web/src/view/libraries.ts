/** Rows of the libraries table and their filtering and sorting; pure. */
import type { LibraryInfo } from "@modelhub/hub/api";

/** A library of the hub's `GET /api/libraries`; the model count is undefined when the hub did not say. */
export type LibraryRow = Omit<LibraryInfo, "modelCount"> & { modelCount?: number };

export type LibrarySortKey = "prettyLabel" | "key" | "modelCount" | "filter";
export type SortDirection = "ascending" | "descending";

export interface LibraryEntryLike {
	prettyLabel: string;
	repoName: string;
	repoUrl: string;
	docsUrl?: string;
	filter?: boolean;
	countDownloads?: string;
	installCommand?: string;
	codeBlocks?: unknown;
}

/** Builds rows from the catalogue, adding model counts from the hub's `/api/libraries` where known. */
export function libraryRows(
	catalogue: Record<string, LibraryEntryLike>,
	counts: ReadonlyMap<string, number> = new Map(),
): LibraryRow[] {
	return Object.entries(catalogue).map(([key, entry]) => ({
		key,
		prettyLabel: entry.prettyLabel,
		repoName: entry.repoName,
		repoUrl: entry.repoUrl,
		docsUrl: entry.docsUrl,
		filter: entry.filter === true,
		countDownloads: entry.countDownloads,
		installCommand: entry.installCommand,
		hasSnippets: typeof entry.codeBlocks === "function",
		modelCount: counts.get(key),
	}));
}

function normalize(text: string): string {
	return text.toLowerCase().normalize("NFKD");
}

/** Rows whose label, key or repository name contains every word of `query` (case-insensitive). */
export function filterLibraries(rows: LibraryRow[], query: string): LibraryRow[] {
	const words = normalize(query).split(/\s+/).filter(Boolean);
	if (words.length === 0) return rows;
	return rows.filter((row) => {
		const haystack = normalize(`${row.prettyLabel} ${row.key} ${row.repoName}`);
		return words.every((word) => haystack.includes(word));
	});
}

export function sortLibraries(
	rows: LibraryRow[],
	key: LibrarySortKey,
	direction: SortDirection,
): LibraryRow[] {
	const sign = direction === "ascending" ? 1 : -1;
	const value = (row: LibraryRow): string | number => {
		switch (key) {
			case "modelCount":
				return row.modelCount ?? -1;
			case "filter":
				return row.filter ? 1 : 0;
			default:
				return row[key].toLowerCase();
		}
	};
	return [...rows].sort((a, b) => {
		const va = value(a);
		const vb = value(b);
		const order =
			typeof va === "number" && typeof vb === "number" ? va - vb : String(va).localeCompare(String(vb));
		// Ties keep a stable, readable order by label.
		return order !== 0 ? sign * order : a.prettyLabel.localeCompare(b.prettyLabel);
	});
}

/**
 * A plain-language reading of a download-counting query. The default files are the public hub's
 * (hub-docs "Models Download Stats"), which the hub counts by (its src/services/downloads.ts).
 */
export function describeDownloadRule(query: string | undefined): string {
	if (!query) return "Default rule (config.json, config.yaml, hyperparams.yaml, params.json, meta.yaml)";
	return query;
}
