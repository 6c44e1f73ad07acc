import { spawn } from "node:child_process";
import { join } from "node:path";
import { type HubGeneration, pythonEnv } from "../../../../test-support/python-env.js";
import type { PythonRunner } from "../../../../test-support/python-runner.js";
import { packageRoot } from "../../src/paths.js";

/** A client run is killed after this long. */
const CLIENT_TIMEOUT_MS = 170_000;

/**
 * Runs one group of test/python/hf_hub_client.py (the real huggingface_hub) against a hub, in one
 * Python process, and returns what it printed. HF_ENDPOINT points the client at the hub; its caches
 * live in `workDir`, so runs never share state. `generation` picks the test environment: huggingface_hub
 * 2.x ("hub2", the default) or 1.x ("hub1"). With `runner` (python-runner.ts, started with that
 * generation's interpreter) the script runs in a child of the runner instead of a process of its own.
 */
export async function runHubClient<T = Record<string, unknown>>(
	group: string,
	hubUrl: string,
	workDir: string,
	params: Record<string, unknown>,
	extraEnv: Record<string, string> = {},
	scriptName = "hf_hub_client.py",
	generation: HubGeneration = "hub2",
	runner?: PythonRunner,
): Promise<T> {
	const { python } = pythonEnv(generation);
	const script = join(packageRoot(), "test", "python", scriptName);
	const env: Record<string, string> = {
		PATH: process.env.PATH ?? "",
		HOME: workDir,
		HF_HOME: join(workDir, "hf-home"),
		HF_ENDPOINT: hubUrl,
		HF_HUB_DISABLE_TELEMETRY: "1",
		HF_HUB_DISABLE_PROGRESS_BARS: "1",
		HF_HUB_DISABLE_UPDATE_CHECK: "1",
		HF_HUB_DISABLE_IMPLICIT_TOKEN: "1",
		...extraEnv,
	};
	const input = JSON.stringify({ ...params, work_dir: workDir, cache_dir: join(workDir, "cache") });
	const { code, stdout, stderr } = runner
		? await inRunner(runner, python, script, group, env, input)
		: await inProcess(python, script, group, env, input);
	if (code !== 0) throw new Error(`${scriptName} ${group} exited with ${code}:\n${stderr.slice(-4000)}`);
	try {
		return JSON.parse(stdout.trim().split("\n").pop() ?? "") as T;
	} catch {
		throw new Error(
			`${scriptName} ${group} printed no JSON:\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`,
		);
	}
}

interface ClientRun {
	/** The exit code, or the signal that ended it. */
	code: number | string;
	stdout: string;
	stderr: string;
}

function inRunner(
	runner: PythonRunner,
	python: string,
	script: string,
	group: string,
	env: Record<string, string>,
	input: string,
): Promise<ClientRun> {
	if (runner.python !== python)
		throw new Error(`the runner runs ${runner.python}, this generation's interpreter is ${python}`);
	// The folder a process of its own would inherit.
	return runner
		.runScript(script, [group], { env, cwd: process.cwd(), timeoutMs: CLIENT_TIMEOUT_MS, input })
		.then((run) => ({ ...run, code: run.signal ?? run.code }));
}

function inProcess(
	python: string,
	script: string,
	group: string,
	env: Record<string, string>,
	input: string,
): Promise<ClientRun> {
	return new Promise((resolve, reject) => {
		const child = spawn(python, [script, group], { env, stdio: ["pipe", "pipe", "pipe"] });
		let stdout = "";
		let stderr = "";
		const timer = setTimeout(() => child.kill("SIGKILL"), CLIENT_TIMEOUT_MS);
		child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
		child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
		child.on("error", reject);
		child.on("close", (code, signal) => {
			clearTimeout(timer);
			resolve({ code: code ?? signal ?? "unknown", stdout, stderr });
		});
		child.stdin.end(input);
	});
}

/** One call's outcome as the client scripts print it: its result, or the error huggingface_hub raised. */
export type Attempt = { ok: unknown } | { error: string; status: number | null; message: string };

/** The result of an attempt that must have succeeded. */
export function ok(attempt: Attempt | undefined): unknown {
	if (!attempt || !("ok" in attempt)) throw new Error(`expected success, got ${JSON.stringify(attempt)}`);
	return attempt.ok;
}

/** The error of an attempt that must have failed. */
export function failed(attempt: Attempt | undefined): {
	error: string;
	status: number | null;
	message: string;
} {
	if (!attempt || !("error" in attempt)) throw new Error(`expected an error, got ${JSON.stringify(attempt)}`);
	return attempt;
}
