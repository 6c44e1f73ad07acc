/**
 * The library catalogue as the pages read it, and the rows of the libraries table with their filtering
 * and sorting; pure. What the libraries table and a library's page show of each library (everything but
 * its snippet generator) is computed at build time (`virtual:library-index`, see vite.config.ts), so
 * neither page's first load carries the generators: a library's page loads its family's chunk for the
 * snippets (`loadLibraryEntry` of @modelhub/tasks) while it asks the hub for a sample model.
 */
import type { LibraryInfo } from "@modelhub/hub/api";
import type { ModelLibraryFamily } from "@modelhub/tasks";

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

/**
 * A library as the pages show it: what `GET /api/libraries` says of it but its key and model count (the
 * same catalogue entry without the generator), and the catalogue family (a chunk of its own) whose entry
 * has the generator.
 */
export interface LibraryIndexEntry extends Omit<LibraryInfo, "key" | "modelCount"> {
	family: ModelLibraryFamily;
}

/** Every library of the catalogue, in catalogue order. */
export type LibraryIndex = Record<string, LibraryIndexEntry>;

/**
 * The index of `catalogue` (`MODEL_LIBRARIES_UI_ELEMENTS`), each library with its family from `families`
 * (built by loading `MODEL_LIBRARY_FAMILIES`). Throws for a library in no family, as the page could not
 * load its snippets.
 */
export function libraryIndex(
	catalogue: Record<string, LibraryEntryLike>,
	families: ReadonlyMap<string, ModelLibraryFamily>,
): LibraryIndex {
	return Object.fromEntries(
		Object.entries(catalogue).map(([key, entry]): [string, LibraryIndexEntry] => {
			const family = families.get(key);
			if (!family) throw new Error(`The library ${key} is in no family of the catalogue.`);
			const indexed: LibraryIndexEntry = {
				prettyLabel: entry.prettyLabel,
				repoName: entry.repoName,
				repoUrl: entry.repoUrl,
				filter: entry.filter === true,
				hasSnippets: typeof entry.codeBlocks === "function",
				family,
			};
			if (entry.docsUrl !== undefined) indexed.docsUrl = entry.docsUrl;
			if (entry.countDownloads !== undefined) indexed.countDownloads = entry.countDownloads;
			if (entry.installCommand !== undefined) indexed.installCommand = entry.installCommand;
			return [key, indexed];
		}),
	);
}

/**
 * Which family holds each library, by loading every family of `families` (`MODEL_LIBRARY_FAMILIES`) once;
 * throws for a library in two families.
 */
export async function familiesOf(
	families: Readonly<Record<ModelLibraryFamily, () => Promise<Readonly<Record<string, unknown>>>>>,
): Promise<Map<string, ModelLibraryFamily>> {
	const found = new Map<string, ModelLibraryFamily>();
	for (const [family, load] of Object.entries(families) as Array<
		[ModelLibraryFamily, () => Promise<Readonly<Record<string, unknown>>>]
	>) {
		for (const key of Object.keys(await load())) {
			const other = found.get(key);
			if (other) throw new Error(`The library ${key} is in two families: ${other} and ${family}.`);
			found.set(key, family);
		}
	}
	return found;
}

/** Builds rows from the index, adding model counts from the hub's `/api/libraries` where known. */
export function libraryRows(
	index: Readonly<Record<string, Omit<LibraryIndexEntry, "family">>>,
	counts: ReadonlyMap<string, number> = new Map(),
): LibraryRow[] {
	return Object.entries(index).map(([key, entry]) => ({
		key,
		prettyLabel: entry.prettyLabel,
		repoName: entry.repoName,
		repoUrl: entry.repoUrl,
		docsUrl: entry.docsUrl,
		filter: entry.filter,
		countDownloads: entry.countDownloads,
		installCommand: entry.installCommand,
		hasSnippets: entry.hasSnippets,
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
