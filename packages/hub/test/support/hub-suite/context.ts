/**
 * What every part of the hub suite shares: the running hub (set by defineHubSuite's beforeAll), the
 * admin token, and a raw request that keeps its path exactly as written.
 */
import { expect } from "vitest";
import type { Database } from "../../../src/db/types.js";
import type { RunningHub } from "../hub.js";

export { rawRequest, type RawResponse } from "../raw-http.js";

export const ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

/** The hub under test and what its checks share; read inside tests (it is set before they run). */
export interface HubSuite {
	db: Database;
	hub: RunningHub;
	/** The hub's URL. */
	base: string;
	/** How many models the seed holds. */
	seedCount: number;
	/** Folders a check made, removed after the suite. */
	tempDirs: string[];
}

export function auth(token = ADMIN_TOKEN): Record<string, string> {
	return { authorization: `Bearer ${token}`, "content-type": "application/json" };
}

/** A model of the list in its compact form. */
export interface CompactModel {
	id: string;
	modelId: string;
	author: string;
	pipeline_tag?: string;
	library_name?: string;
	tags: string[];
	downloads: number;
	likes: number;
	lastModified: string;
	private: boolean;
	inferenceProviderMapping?: Record<string, Record<string, string>>;
}

/** Every model of the list for `query`, page after page, and how many pages it took. */
export async function walk(base: string, query: string): Promise<{ models: CompactModel[]; pages: number }> {
	const models: CompactModel[] = [];
	let next: string | null = `${base}/api/models?${query}`;
	let pages = 0;
	while (next) {
		const res: Response = await fetch(next);
		expect(res.status).toBe(200);
		const page = (await res.json()) as CompactModel[];
		models.push(...page);
		pages++;
		const link = res.headers.get("link");
		const cursor = res.headers.get("x-next-cursor");
		if (link) {
			const match = /^<([^>]+)>; rel="next"$/.exec(link);
			expect(match).not.toBeNull();
			const target = new URL((match as RegExpExecArray)[1] as string);
			expect(target.searchParams.get("cursor")).toBe(cursor);
			next = target.toString();
		} else {
			expect(cursor).toBeNull();
			next = null;
		}
		if (pages > 1000) throw new Error("pagination does not end");
	}
	return { models, pages };
}
