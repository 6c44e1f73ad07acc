// Starting and stopping the servers a benchmark measures.
import { spawn } from "node:child_process";

/**
 * Starts a server process and resolves its URL once it prints `listening on http://127.0.0.1:<port>/`.
 * `input`, when given, is written to its standard input.
 */
export function startServer(command, args, env, input) {
	const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
	let output = "";
	const url = new Promise((resolve, reject) => {
		const onData = (chunk) => {
			output += chunk.toString("utf8");
			const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
			if (match) resolve(match[1]);
		};
		child.stdout.on("data", onData);
		child.stderr.on("data", onData);
		child.on("exit", (code) => reject(new Error(`${command} exited (${code}) before listening:\n${output}`)));
		// Generous: hubs start slowly on a loaded machine (over 120 s at load 20+ on 2 cores).
		setTimeout(() => reject(new Error(`timed out starting ${command}:\n${output}`)), 300_000).unref();
	});
	child.stdin.end(input);
	return { child, url };
}

/** SIGTERM, then SIGKILL when the process has not exited within 10 s. */
export async function stopServer(child) {
	if (child.exitCode !== null) return;
	const exited = new Promise((resolve) => child.once("exit", resolve));
	child.kill("SIGTERM");
	await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
	if (child.exitCode === null) child.kill("SIGKILL");
}
