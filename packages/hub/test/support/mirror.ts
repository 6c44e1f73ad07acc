import { openDatabase } from "../../src/db/open.js";
import type { Database } from "../../src/db/types.js";
import { DEFAULT_UPSTREAM_SETTINGS, type UpstreamSettings } from "../../src/mirror/settings.js";
import { startHub, type RunningHub, type StartOptions } from "./hub.js";

/** What a hub of the pair may be started with besides what the pair decides (its database, admin token, seed). */
type HubOptions = Omit<StartOptions, "db" | "adminToken" | "seed" | "upstream">;

export interface MirrorPairOptions {
	/** Both hubs' admin token. */
	adminToken: string;
	upstream?: HubOptions;
	downstream?: HubOptions;
	/** Laid over the downstream's upstream settings (the defaults, the upstream's URL, no token). */
	settings?: Partial<UpstreamSettings>;
	/**
	 * Runs once the upstream is up, before the downstream starts; what it returns is laid over `settings`
	 * (a token made upstream).
	 */
	prepare?: (upstream: RunningHub) => Promise<Partial<UpstreamSettings> | void>;
}

/** An upstream hub and a downstream hub mirroring it (MODELHUB_UPSTREAM_URL), each with its own in-memory database. */
export interface MirrorPair {
	upstream: RunningHub;
	downstream: RunningHub;
	upstreamDb: Database;
	downstreamDb: Database;
	/** The downstream's upstream settings. */
	settings: UpstreamSettings;
	/** Stops both hubs (either may have been stopped already) and closes their databases. */
	close(): Promise<void>;
}

export async function startMirrorPair(options: MirrorPairOptions): Promise<MirrorPair> {
	const upstreamDb = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	const downstreamDb = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	const started: RunningHub[] = [];
	const close = async (): Promise<void> => {
		for (const hub of started.reverse()) await hub.close();
		await downstreamDb.close();
		await upstreamDb.close();
	};
	try {
		const upstream = await startHub({
			...options.upstream,
			db: upstreamDb,
			adminToken: options.adminToken,
			seed: false,
		});
		started.push(upstream);
		const extra = (await options.prepare?.(upstream)) ?? {};
		const settings: UpstreamSettings = {
			...DEFAULT_UPSTREAM_SETTINGS,
			url: upstream.url,
			token: undefined,
			...options.settings,
			...extra,
		};
		const downstream = await startHub({
			...options.downstream,
			db: downstreamDb,
			adminToken: options.adminToken,
			seed: false,
			upstream: settings,
		});
		started.push(downstream);
		return { upstream, downstream, upstreamDb, downstreamDb, settings, close };
	} catch (error) {
		await close();
		throw error;
	}
}
