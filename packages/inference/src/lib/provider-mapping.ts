import { InferenceHubError, InferenceHubRateLimitError } from "../core/errors.js";
import { parseRetryAfter } from "../internal/retry.js";
import type { CallContext } from "../internal/context.js";
import { discardBody } from "../internal/http.js";
import { encodeModelId } from "../internal/url.js";
import { isRecord } from "../providers/checks.js";
import type { InferenceProviderMappingEntry, InferenceTask, ModelId } from "../types.js";
import { replaceControlCharacters } from "@modelhub/tasks/literals";

/** A model's mapping, normalised: one entry per provider, in the hub's (the user's preference) order. */
export type ProviderMappingList = readonly InferenceProviderMappingEntry[];

interface CacheEntry {
	mapping: ProviderMappingList;
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

function cacheGet(key: string): ProviderMappingList | undefined {
	const hit = cache.get(key);
	if (!hit) return undefined;
	cache.delete(key);
	if (hit.expires <= Date.now()) return undefined;
	cache.set(key, hit);
	return hit.mapping;
}

function cacheSet(key: string, mapping: ProviderMappingList): void {
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

/** Longest part of the hub's own error message quoted in a rate-limit error. */
const MAX_HUB_MESSAGE = 300;

/**
 * How long a 429 asks to wait, in milliseconds: `Retry-After` (seconds or an HTTP date), else the
 * `t=` (seconds until the window resets) of the `RateLimit` header the public hub sends
 * (`"api";r=0;t=55`, read by huggingface_hub ≥ 1.2). Undefined when neither says.
 */
function rateLimitWait(headers: Headers): number | undefined {
	const retryAfter = parseRetryAfter(headers.get("retry-after"));
	if (retryAfter !== undefined) return retryAfter;
	const reset = /(?:^|[;,\s])t=(\d{1,9})(?:$|[;,\s])/.exec(headers.get("ratelimit") ?? "");
	return reset ? Number(reset[1]) * 1000 : undefined;
}

/** The hub's 429 as an error that says so: the status, the wait it asked for, and its own words. */
async function hubRateLimited(
	response: Response,
	modelId: string,
	url: string,
): Promise<InferenceHubRateLimitError> {
	const retryAfterMs = rateLimitWait(response.headers);
	let said: string | undefined;
	try {
		const text = (await response.text()).slice(0, 64 * 1024);
		const parsed: unknown = JSON.parse(text);
		if (isRecord(parsed) && typeof parsed.error === "string") said = parsed.error;
	} catch {
		// Not JSON (or no body): the status says enough.
	}
	const quoted = said && replaceControlCharacters(said, " ").trim().slice(0, MAX_HUB_MESSAGE);
	const wait =
		retryAfterMs === undefined
			? "retry later"
			: `retry in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} seconds`;
	const where = url.split("?")[0] as string;
	return new InferenceHubRateLimitError(
		`The hub rate-limited the lookup of model ${modelId}'s inference providers (HTTP 429 Too Many Requests from ${new URL(where).origin}): ${wait}.${quoted ? ` The hub said: ${quoted}` : ""}`,
		{ retryAfterMs, url: where },
	);
}

/**
 * The hub's `inferenceProviderMapping` as a list: the object form (keyed by provider, the
 * `model_info` style, in the user's order) or the list form (entries naming their `provider`, the
 * `list_models` style). Entries without a provider or provider id are left out. `undefined` when the
 * value is neither form.
 */
export function normalizeProviderMapping(modelId: ModelId, raw: unknown): ProviderMappingList | undefined {
	let entries: Array<[unknown, unknown]>;
	if (Array.isArray(raw)) entries = raw.map((entry) => [isRecord(entry) ? entry.provider : undefined, entry]);
	else if (isRecord(raw)) entries = Object.entries(raw);
	else return undefined;
	const list: InferenceProviderMappingEntry[] = [];
	for (const [provider, entry] of entries) {
		if (typeof provider !== "string" || !isRecord(entry) || typeof entry.providerId !== "string") continue;
		list.push({
			...(entry as Omit<InferenceProviderMappingEntry, "provider" | "hfModelId">),
			provider,
			hfModelId: typeof entry.hfModelId === "string" ? entry.hfModelId : modelId,
		});
	}
	return list;
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
): Promise<ProviderMappingList> {
	const key = `${ctx.hubUrl}\n${modelId}`;
	const cached = cacheGet(key);
	if (cached) return cached;
	const headers: Record<string, string> = {};
	if (accessToken?.startsWith("hf_")) headers.Authorization = `Bearer ${accessToken}`;
	const url = `${ctx.hubUrl}/api/models/${encodeModelId(modelId)}?expand[]=inferenceProviderMapping`;
	const response = await ctx.fetch(url, { headers, signal: ctx.signal });
	if (response.status === 404) {
		await discardBody(response);
		throw new InferenceHubError(`Model ${modelId} does not exist`, 404);
	}
	// A rate-limited hub knows the model's providers; it just will not say yet (see README, deviations).
	if (response.status === 429) throw await hubRateLimited(response, modelId, url);
	let body: unknown;
	try {
		body = await response.json();
	} catch (error) {
		if (ctx.signal?.aborted) throw error;
		throw noProviderInfo(modelId);
	}
	const mapping = normalizeProviderMapping(
		modelId,
		(body as { inferenceProviderMapping?: unknown } | null)?.inferenceProviderMapping,
	);
	if (!mapping) throw noProviderInfo(modelId);
	cacheSet(key, mapping);
	return mapping;
}

const EMBEDDING_TASKS: readonly (InferenceTask | undefined)[] = ["feature-extraction", "sentence-similarity"];

/** Whether a mapping entry serves `task` (hf-inference serves sentence-transformers models under both embedding tasks). */
export function servesTask(entry: InferenceProviderMappingEntry, task: InferenceTask | undefined): boolean {
	return (
		entry.task === task ||
		(entry.provider === "hf-inference" &&
			EMBEDDING_TASKS.includes(task) &&
			EMBEDDING_TASKS.includes(entry.task))
	);
}

/**
 * The entry for one provider in a model's mapping, checked against the task, with the staging
 * warning printed once per model and provider.
 */
export function pickMappingEntry(
	mapping: ProviderMappingList,
	params: { modelId: ModelId; provider: string; task: InferenceTask | undefined },
): InferenceProviderMappingEntry {
	const { modelId, provider, task } = params;
	const entry = mapping.find((candidate) => candidate.provider === provider);
	if (!entry) throw noProviderInfo(modelId);
	if (!servesTask(entry, task)) {
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
	return { ...entry, hfModelId: entry.hfModelId || modelId };
}
