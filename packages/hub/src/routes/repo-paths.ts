import { HubError, malformedUrl, noSuchApiRoute, noSuchPath } from "../errors.js";
import { modelIdProblem } from "../models/ids.js";
import { repoPathProblem } from "../repos/paths.js";

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

/** Segments of a raw path (without query), decoded (a segment with broken encoding is a 400). */
export function decodeSegments(rawPath: string): string[] {
	try {
		return rawPath.split("/").map((segment) => decodeURIComponent(segment));
	} catch {
		throw malformedUrl();
	}
}

/** The raw path of a request URL, without its query. */
export function rawPathOf(url: string): string {
	const query = url.indexOf("?");
	return query < 0 ? url : url.slice(0, query);
}

/** A path inside a repository as a route receives it: invalid ones are a 400. */
export function checkRepoPath(path: string): string {
	const problem = repoPathProblem(path);
	if (problem) throw new HubError("Invalid", `invalid path: ${problem}`);
	return path;
}

/** A model id as a route receives it: invalid ones are a 400. */
export function checkModelId(id: string): string {
	const problem = modelIdProblem(id);
	if (problem) throw new HubError("Invalid", `invalid model id: ${problem}`);
	return id;
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
export function parseApiModelPath(segments: string[]): ApiModelTarget {
	const tries: Array<[string, string | undefined, string[]]> = [];
	if (segments.length >= 3) tries.push([`${segments[0]}/${segments[1]}`, segments[2], segments.slice(3)]);
	if (segments.length >= 2) tries.push([segments[0] as string, segments[1], segments.slice(2)]);
	for (const [id, name, rest] of tries) {
		const accepts = name === undefined ? undefined : ACTIONS[name];
		if (accepts && accepts(rest) && rest.every((part) => part !== "" || name === "tree")) {
			return action(checkModelId(id), name as string, rest);
		}
	}
	if (segments.length === 1 || segments.length === 2) {
		return { kind: "info", id: checkModelId(segments.join("/")) };
	}
	throw noSuchApiRoute();
}

export interface ResolveTarget {
	id: string;
	revision: string;
	path: string;
}

/** Reads `ns/name/resolve/rev/path…` or `name/resolve/rev/path…` (segments after the leading `/`). */
export function parseResolvePath(segments: string[]): ResolveTarget {
	let id: string | undefined;
	let rest: string[] = [];
	if (segments.length >= 5 && segments[2] === "resolve") {
		id = `${segments[0]}/${segments[1]}`;
		rest = segments.slice(3);
	} else if (segments.length >= 4 && segments[1] === "resolve") {
		id = segments[0] as string;
		rest = segments.slice(2);
	}
	if (id === undefined) throw noSuchPath();
	return { id: checkModelId(id), revision: rest[0] as string, path: rest.slice(1).join("/") };
}
