/**
 * The real git client against a running hub, as the git suites drive it: a throwaway HOME and global
 * config (never the user's, and no prompt for credentials), and the hub's JSON API beside it.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect } from "vitest";

const run = promisify(execFile);

/** git's environment for a throwaway `home`. */
export function gitEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	return {
		PATH: process.env.PATH ?? "",
		HOME: home,
		GIT_CONFIG_GLOBAL: join(home, "gitconfig"),
		GIT_CONFIG_NOSYSTEM: "1",
		GIT_TERMINAL_PROMPT: "0",
		...extra,
	};
}

const INSTALL_GIT = "install them with `apt-get install git git-lfs` (or run .ci/run, which does)";

/**
 * The one line the git suites fail with when `git` or git-lfs is not installed (undefined when both
 * are), looked up on `path` as the suites' git runs.
 */
export async function gitMissing(git = "git", path = process.env.PATH ?? ""): Promise<string | undefined> {
	const env = { PATH: path, GIT_CONFIG_NOSYSTEM: "1" };
	try {
		await run(git, ["--version"], { env });
	} catch {
		return `git not found (${git}): the git suites run the real git and git-lfs; ${INSTALL_GIT}`;
	}
	try {
		await run(git, ["lfs", "version"], { env });
	} catch {
		return `git-lfs not found (\`${git} lfs\` fails): the git suites run the real git and git-lfs; ${INSTALL_GIT}`;
	}
	return undefined;
}

let gitChecked: Promise<string | undefined> | undefined;

/** Fails at once with gitMissing's line when git or git-lfs is missing (checked once per test file). */
async function requireGit(): Promise<void> {
	const missing = await (gitChecked ??= gitMissing());
	if (missing) throw new Error(missing);
}

/** Runs git in `cwd` with the throwaway `home`, failing on a non-zero exit. */
export async function runGit(
	home: string,
	args: string[],
	cwd = home,
	extraEnv: Record<string, string> = {},
) {
	await requireGit();
	return run("git", args, { cwd, env: gitEnv(home, extraEnv), maxBuffer: 64 * 1024 * 1024 });
}

/** git's exit and output without throwing. */
export async function gitOutcome(home: string, args: string[], cwd = home) {
	await requireGit();
	try {
		const { stdout, stderr } = await runGit(home, args, cwd);
		return { code: 0, stdout, stderr };
	} catch (error) {
		const failed = error as { code: number; stdout: string; stderr: string };
		return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
	}
}

/** A GET (no body) or POST to the hub's API, as `token` when given. */
export function hubCall(
	hubUrl: string,
	path: string,
	token: string | undefined,
	body?: unknown,
	type = "application/json",
): Promise<Response> {
	return fetch(`${hubUrl}${path}`, {
		method: body === undefined ? "GET" : "POST",
		headers: {
			...(token ? { authorization: `Bearer ${token}` } : {}),
			...(body === undefined ? {} : { "content-type": type }),
		},
		...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
	});
}

/** One API commit of regular files to `main` (huggingface_hub's NDJSON); its commit id. */
export async function ndjsonCommit(
	hubUrl: string,
	repo: { api: "models" | "datasets"; id: string },
	token: string,
	files: Record<string, string>,
	summary: string,
): Promise<string> {
	const lines = [
		{ key: "header", value: { summary, description: "" } },
		...Object.entries(files).map(([path, content]) => ({
			key: "file",
			value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" },
		})),
	];
	const res = await hubCall(
		hubUrl,
		`/api/${repo.api}/${repo.id}/commit/main`,
		token,
		lines.map((line) => JSON.stringify(line)).join("\n"),
		"application/x-ndjson",
	);
	expect(res.status, await res.clone().text()).toBe(200);
	return ((await res.json()) as { commitOid: string }).commitOid;
}

/**
 * An LFS file through the batch API (upload, then an NDJSON commit naming it), as huggingface_hub does;
 * to a model repository, or to a dataset one when `api` says so.
 */
export async function lfsCommit(
	hubUrl: string,
	id: string,
	token: string,
	path: string,
	bytes: Buffer,
	api: "models" | "datasets" = "models",
): Promise<void> {
	const oid = createHash("sha256").update(bytes).digest("hex");
	const res = await hubCall(
		hubUrl,
		`${api === "datasets" ? "/datasets" : ""}/${id}.git/info/lfs/objects/batch`,
		token,
		{
			operation: "upload",
			transfers: ["basic"],
			objects: [{ oid, size: bytes.length }],
			hash_algo: "sha256",
		},
		"application/vnd.git-lfs+json",
	);
	const answer = (await res.json()) as { objects: Array<{ actions?: { upload: { href: string } } }> };
	const href = answer.objects[0]?.actions?.upload.href as string;
	expect((await fetch(href, { method: "PUT", body: new Uint8Array(bytes) })).status).toBe(200);
	const lines = [
		{ key: "header", value: { summary: `Add ${path}`, description: "" } },
		{ key: "lfsFile", value: { path, algo: "sha256", oid, size: bytes.length } },
	];
	const committed = await hubCall(
		hubUrl,
		`/api/${api}/${id}/commit/main`,
		token,
		lines.map((line) => JSON.stringify(line)).join("\n"),
		"application/x-ndjson",
	);
	expect(committed.status, await committed.clone().text()).toBe(200);
}
