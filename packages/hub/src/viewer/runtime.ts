import type { ViewerStatisticsAnswer } from "../api/viewer.js";
import { ByteBudgetLru } from "../serving/lru.js";
import { ViewerEngine } from "./engine.js";
import type { ConfigLayout } from "./layout.js";
import type { Feature } from "./features.js";
import type { ViewerSettings } from "./settings.js";
import { Spool } from "./spool.js";
import type { ZipListing } from "./zip.js";

/** What the viewer remembers of a split at a commit (commits never change, so these are never stale). */
export interface SplitFacts {
	columns: string[];
	features: Feature[];
	/** Columns of strings (what `/search` looks in). */
	textColumns: string[];
	numRows: number;
	/** Bytes of the columns uncompressed (Parquet), or of the files. */
	memoryBytes: number;
}

/** The viewer's parts for one hub process: local copies, the engine and what it remembers by commit. */
export class DatasetViewer {
	readonly layouts: ByteBudgetLru<ConfigLayout[]>;
	readonly splits: ByteBudgetLru<SplitFacts>;
	/** `/statistics` answers by commit, config and split (computing them reads every row). */
	readonly statistics: ByteBudgetLru<ViewerStatisticsAnswer>;
	/** The files of `.zip` archives (or their problem), by the archive's SHA-256: what its central directory lists. */
	readonly archives: ByteBudgetLru<ZipListing>;

	private constructor(
		readonly settings: ViewerSettings,
		readonly spool: Spool,
		readonly engine: ViewerEngine,
	) {
		const quarter = Math.floor(settings.cacheBytes / 4);
		this.layouts = new ByteBudgetLru(quarter, (value) => JSON.stringify(value).length);
		this.splits = new ByteBudgetLru(quarter, (value) => JSON.stringify(value).length);
		this.statistics = new ByteBudgetLru(quarter, (value) => JSON.stringify(value).length);
		this.archives = new ByteBudgetLru(quarter, (value) => JSON.stringify(value).length);
	}

	static async open(settings: ViewerSettings): Promise<DatasetViewer> {
		const spool = await Spool.open(settings.spoolDir, settings.spoolBytes);
		return new DatasetViewer(settings, spool, new ViewerEngine(settings));
	}

	async close(): Promise<void> {
		await this.spool.close();
	}
}
