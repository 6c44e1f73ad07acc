import { modelIdProblem } from "../models/ids.js";

/**
 * Where a request under `/api/models/` or a `/…/resolve/…` URL points. Both are read from the raw URL,
 * one percent-decoded segment at a time: huggingface_hub sends revisions such as `refs/pr/1` as one
 * segment (`refs%2Fpr%2F1`), which decoding the whole path first would split.
 */
export type ApiModelTarget =
	| { kind: "info"; id: string }
	| { kind: "revision"; id: string; revision: string }
	| { kind: "tree"; id: string; revision: string; path: string }
	| { kind: "paths-info"; id: string; revision: string }
	| { kind: "refs"; id: string }
	| { kind: "commits"; id: string; revision: string };

export type Parsed<T> = { ok: true; target: T } | { ok: false; status: 400 | 404; error: string };

/** Segments of a raw path (without query), decoded; undefined when a segment has broken encoding. */
export function decodeSegments(rawPath: string): string[] | undefined {
	try {
		return rawPath.split("/").map((segment) => decodeURIComponent(segment));
	} catch {
		return undefined;
	}
}

/** The raw path of a request URL, without its query. */
export function rawPathOf(url: string): string {
	const query = url.indexOf("?");
	return query < 0 ? url : url.slice(0, query);
}

function checkId(id: string): string | undefined {
	const problem = modelIdProblem(id);
	return problem ? `invalid model id: ${problem}` : undefined;
}

const ACTIONS: Record<string, (rest: string[]) => boolean> = {
	revision: (rest) => rest.length === 1,
	tree: (rest) => rest.length >= 1,
	"paths-info": (rest) => rest.length === 1,
	refs: (rest) => rest.length === 0,
	commits: (rest) => rest.length === 1,
};

function action(id: string, name: string, rest: string[]): ApiModelTarget {
	switch (name) {
		case "revision":
			return { kind: "revision", id, revision: rest[0] as string };
		case "tree":
			return { kind: "tree", id, revision: rest[0] as string, path: rest.slice(1).join("/") };
		case "paths-info":
			return { kind: "paths-info", id, revision: rest[0] as string };
		case "commits":
			return { kind: "commits", id, revision: rest[0] as string };
		default:
			return { kind: "refs", id };
	}
}

/**
 * Reads the segments after `/api/models/`. A namespaced id (`ns/name/action/…`) is tried before a bare
 * one (`name/action/…`), so a model named like an action (`ns/tree`) stays reachable.
 */
export function parseApiModelPath(segments: string[]): Parsed<ApiModelTarget> {
	const tries: Array<[string, string | undefined, string[]]> = [];
	if (segments.length >= 3) tries.push([`${segments[0]}/${segments[1]}`, segments[2], segments.slice(3)]);
	if (segments.length >= 2) tries.push([segments[0] as string, segments[1], segments.slice(2)]);
	for (const [id, name, rest] of tries) {
		const accepts = name === undefined ? undefined : ACTIONS[name];
		if (accepts && accepts(rest) && rest.every((part) => part !== "" || name === "tree")) {
			const problem = checkId(id);
			if (problem) return { ok: false, status: 400, error: problem };
			return { ok: true, target: action(id, name as string, rest) };
		}
	}
	if (segments.length === 1 || segments.length === 2) {
		const id = segments.join("/");
		const problem = checkId(id);
		if (problem) return { ok: false, status: 400, error: problem };
		return { ok: true, target: { kind: "info", id } };
	}
	return { ok: false, status: 404, error: "no such API route" };
}

export interface ResolveTarget {
	id: string;
	revision: string;
	path: string;
}

/** Reads `ns/name/resolve/rev/path…` or `name/resolve/rev/path…` (segments after the leading `/`). */
export function parseResolvePath(segments: string[]): Parsed<ResolveTarget> {
	let id: string | undefined;
	let rest: string[] = [];
	if (segments.length >= 5 && segments[2] === "resolve") {
		id = `${segments[0]}/${segments[1]}`;
		rest = segments.slice(3);
	} else if (segments.length >= 4 && segments[1] === "resolve") {
		id = segments[0] as string;
		rest = segments.slice(2);
	}
	if (id === undefined) return { ok: false, status: 404, error: "not found" };
	const problem = checkId(id);
	if (problem) return { ok: false, status: 400, error: problem };
	return { ok: true, target: { id, revision: rest[0] as string, path: rest.slice(1).join("/") } };
}
