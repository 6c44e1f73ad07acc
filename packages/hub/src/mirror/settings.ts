import { DEFAULT_OUTBOUND_SETTINGS, type OutboundSettings } from "../outbound/http.js";

/** Mirror mode (MODELHUB_UPSTREAM_URL): the upstream hub and how it is reached and cached. */
export interface UpstreamSettings {
	/** The upstream hub's base URL, without a trailing slash (`https://huggingface.co`). */
	url: string;
	/** A server-side token sent to the upstream only (never to storage hosts, never a user's own). */
	token: string | undefined;
	/** A branch's commit (and answers at a branch) are asked again after this long; older ones serve offline. */
	ttlMs: number;
	/** Hosts (`host` or `host:port`, `*.suffix` for any sub-host) the upstream may redirect downloads to. */
	storageHosts: readonly string[];
	/** Largest JSON answer taken from the upstream. */
	maxAnswerBytes: number;
	/** Namespaces or `namespace/name` repositories mirrored; empty: every one. */
	allow: readonly string[];
	/**
	 * Namespaces or `namespace/name` repositories whose upstream reads with the token (private or gated
	 * repositories the token may read) anonymous downstream clients get too; `*`: every one. Empty (the
	 * default): only signed-in downstream users are answered with the token, anonymous ones as the public.
	 */
	tokenForAnonymous: readonly string[];
	/**
	 * Bytes of upstream files kept in this hub's storage (MODELHUB_MIRROR_CACHE_BYTES): past it, the
	 * files served longest ago lose their stored bytes (fetched again when asked for). 0: no budget.
	 */
	cacheBytes: number;
	/** Namespaces or `namespace/name` repositories whose files are never evicted (MODELHUB_MIRROR_PINNED). */
	pinned: readonly string[];
	/**
	 * Bytes one prefetch may fetch at most (MODELHUB_MIRROR_PREFETCH_MAX_BYTES; a request may ask for
	 * less). With a cache budget, never more than it: a prefetch would evict its own files.
	 */
	prefetchMaxBytes: number;
	outbound: OutboundSettings;
}

/**
 * The public hub's download hosts: LFS files redirect to `cdn-lfs*.hf.co`, Xet files to
 * `cas-bridge.xethub.hf.co` (huggingface_hub's constants and the redirects its downloads follow).
 */
export const PUBLIC_HUB_STORAGE_HOSTS: readonly string[] = ["*.hf.co"];

export const DEFAULT_UPSTREAM_SETTINGS: Omit<UpstreamSettings, "url" | "token"> = {
	ttlMs: 600_000,
	storageHosts: [],
	maxAnswerBytes: 32 * 1024 * 1024,
	allow: [],
	tokenForAnonymous: [],
	cacheBytes: 0,
	pinned: [],
	prefetchMaxBytes: 100 * 1024 ** 3,
	outbound: DEFAULT_OUTBOUND_SETTINGS,
};

/** Whether `host` (`name` or `name:port`) is one of `patterns`. */
export function hostAllowed(patterns: readonly string[], host: string): boolean {
	const lower = host.toLowerCase();
	const name = lower.replace(/:\d+$/, "");
	return patterns.some((pattern) => {
		const p = pattern.toLowerCase();
		if (p.startsWith("*.")) return name.endsWith(p.slice(1));
		return p.includes(":") ? p === lower : p === name;
	});
}

/** Whether the allow-list takes this repository (`ns/name`, or a bare `name`). */
export function repoAllowed(allow: readonly string[], id: string): boolean {
	if (allow.length === 0) return true;
	const lower = id.toLowerCase();
	const namespace = lower.includes("/") ? lower.slice(0, lower.indexOf("/")) : undefined;
	return allow.some((entry) => {
		const e = entry.toLowerCase();
		return e === lower || (namespace !== undefined && e === namespace);
	});
}

/** Whether an anonymous downstream client of this repository is answered with the upstream token. */
export function tokenForAnonymous(listed: readonly string[], id: string): boolean {
	if (listed.includes("*")) return true;
	return listed.length > 0 && repoAllowed(listed, id);
}

/** The bytes a prefetch may fetch: the asked bound, within the hub's limit and its cache budget. */
export function prefetchLimit(settings: UpstreamSettings, asked?: number): number {
	const bounds = [settings.prefetchMaxBytes];
	if (settings.cacheBytes > 0) bounds.push(settings.cacheBytes);
	if (asked !== undefined) bounds.push(asked);
	return Math.min(...bounds);
}
