import { spawn } from "node:child_process";
import { join } from "node:path";
import { type HubGeneration, pythonEnv } from "../../../../test-support/python-env.js";
import { packageRoot } from "../../src/paths.js";

/**
 * Runs one group of test/python/hf_hub_client.py (the real huggingface_hub) against a hub, in one
 * Python process, and returns what it printed. HF_ENDPOINT points the client at the hub; its caches
 * live in `workDir`, so runs never share state. `generation` picks the test environment: huggingface_hub
 * 2.x ("hub2", the default) or 1.x ("hub1").
 */
export async function runHubClient<T = Record<string, unknown>>(
	group: string,
	hubUrl: string,
	workDir: string,
	params: Record<string, unknown>,
	extraEnv: Record<string, string> = {},
	scriptName = "hf_hub_client.py",
	generation: HubGeneration = "hub2",
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
	return new Promise((resolve, reject) => {
		const child = spawn(python, [script, group], { env, stdio: ["pipe", "pipe", "pipe"] });
		let stdout = "";
		let stderr = "";
		const timer = setTimeout(() => child.kill("SIGKILL"), 170_000);
		child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
		child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
		child.on("error", reject);
		child.on("close", (code) => {
			clearTimeout(timer);
			if (code !== 0) {
				reject(new Error(`${scriptName} ${group} exited with ${code}:\n${stderr.slice(-4000)}`));
				return;
			}
			try {
				resolve(JSON.parse(stdout.trim().split("\n").pop() ?? "") as T);
			} catch {
				reject(
					new Error(
						`${scriptName} ${group} printed no JSON:\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`,
					),
				);
			}
		});
		child.stdin.end(JSON.stringify({ ...params, work_dir: workDir, cache_dir: join(workDir, "cache") }));
	});
}
