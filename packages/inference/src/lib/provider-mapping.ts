import { InferenceHubError } from "../core/errors.js";
import type { CallContext } from "../internal/context.js";
import { encodeModelId } from "../internal/url.js";
import type { InferenceProvider, InferenceProviderMappingEntry, InferenceTask, ModelId } from "../types.js";

/** One entry of the hub's `inferenceProviderMapping` object, keyed by provider id. */
export interface HubMappingEntry {
	providerId: string;
	status: "live" | "staging";
	task: InferenceTask;
	adapter?: string;
	adapterWeightsPath?: string;
}

export type HubProviderMapping = Record<string, HubMappingEntry>;

interface CacheEntry {
	mapping: HubProviderMapping;
	expires: number;
}

const limits = { maxEntries: 1000, ttlMs: 5 * 60 * 1000 };
/** A Map keeps insertion order, so re-inserting on every hit makes its first key the least recently used. */
const cache = new Map<string, CacheEntry>();
const stagingWarned = new Set<string>();

/** Empties the mapping cache and forgets which staging warnings were printed. */
export function clearProviderMappingCache(): void {
	cache.clear();
	stagingWarned.clear();
}

/** Changes the cache bounds (tests use it to see eviction and expiry without 1000 models). */
export function setProviderMappingCacheLimits(next: { maxEntries?: number; ttlMs?: number }): void {
	if (next.maxEntries !== undefined) limits.maxEntries = next.maxEntries;
	if (next.ttlMs !== undefined) limits.ttlMs = next.ttlMs;
}

export function providerMappingCacheSize(): number {
	return cache.size;
}

function cacheGet(key: string): HubProviderMapping | undefined {
	const hit = cache.get(key);
	if (!hit) return undefined;
	cache.delete(key);
	if (hit.expires <= Date.now()) return undefined;
	cache.set(key, hit);
	return hit.mapping;
}

function cacheSet(key: string, mapping: HubProviderMapping): void {
	cache.delete(key);
	cache.set(key, { mapping, expires: Date.now() + limits.ttlMs });
	while (cache.size > limits.maxEntries) {
		const oldest = cache.keys().next().value;
		if (oldest === undefined) break;
		cache.delete(oldest);
	}
}

function noProviderInfo(modelId: string): InferenceHubError {
	return new InferenceHubError(
		`We have not been able to find inference provider information for model ${modelId}.`,
	);
}

/**
 * GET {hub}/api/models/{id}?expand[]=inferenceProviderMapping through the caller's fetch, with the
 * token only when it is a hub token. Successful lookups are cached per hub and model (not per token,
 * as in 3.12.1).
 */
export async function fetchProviderMapping(
	modelId: ModelId,
	accessToken: string | undefined,
	ctx: CallContext,
): Promise<HubProviderMapping> {
	const key = `${ctx.hubUrl}\n${modelId}`;
	const cached = cacheGet(key);
	if (cached) return cached;
	const headers: Record<string, string> = {};
	if (accessToken?.startsWith("hf_")) headers.Authorization = `Bearer ${accessToken}`;
	const url = `${ctx.hubUrl}/api/models/${encodeModelId(modelId)}?expand[]=inferenceProviderMapping`;
	const response = await ctx.fetch(url, { headers, signal: ctx.signal });
	if (response.status === 404) {
		await response.body?.cancel().catch(() => undefined);
		throw new InferenceHubError(`Model ${modelId} does not exist`, 404);
	}
	let body: unknown;
	try {
		body = await response.json();
	} catch (error) {
		if (ctx.signal?.aborted) throw error;
		throw noProviderInfo(modelId);
	}
	const mapping = (body as { inferenceProviderMapping?: unknown } | null)?.inferenceProviderMapping;
	if (typeof mapping !== "object" || mapping === null || Array.isArray(mapping))
		throw noProviderInfo(modelId);
	cacheSet(key, mapping as HubProviderMapping);
	return mapping as HubProviderMapping;
}

/** The mapping entry for one provider, checked against the task, with the staging warning printed once. */
export async function getProviderMappingEntry(
	params: {
		modelId: ModelId;
		provider: InferenceProvider;
		task: InferenceTask | undefined;
		accessToken?: string;
	},
	ctx: CallContext,
): Promise<InferenceProviderMappingEntry> {
	const { modelId, provider, task } = params;
	const mapping = await fetchProviderMapping(modelId, params.accessToken, ctx);
	const entry = Object.prototype.hasOwnProperty.call(mapping, provider) ? mapping[provider] : undefined;
	if (!entry) throw noProviderInfo(modelId);
	// hf-inference serves sentence-transformers models under both embedding tasks.
	const equivalent =
		provider === "hf-inference" &&
		(task === "feature-extraction" || task === "sentence-similarity") &&
		(entry.task === "feature-extraction" || entry.task === "sentence-similarity");
	if (entry.task !== task && !equivalent) {
		throw new InferenceHubError(
			`Model ${modelId} is not supported for task ${task} and provider ${provider}. Supported task: ${entry.task}.`,
		);
	}
	if (entry.status === "staging") {
		const warnKey = `${modelId}\n${provider}`;
		if (!stagingWarned.has(warnKey)) {
			if (stagingWarned.size >= limits.maxEntries) stagingWarned.clear();
			stagingWarned.add(warnKey);
			console.warn(
				`Model ${modelId} is in staging mode for provider ${provider}. Meant for test purposes only.`,
			);
		}
	}
	return { ...entry, hfModelId: modelId };
}
