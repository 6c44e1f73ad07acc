/**
 * Runs snippets in batches: one Python interpreter per batch (each snippet exec'd as its own
 * `__main__`), one node process per batch (each snippet imported as its own module file), one bash per
 * batch (each snippet sourced in a subshell, curl configured by its own `.curlrc`). Each process gets
 * only a shell's environment plus the harness's redirect settings; each snippet adds its own tokens.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PythonEnv } from "../../../../../test-support/python-env.js";
import { RUN_HEADER } from "./server.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const BATCH_DEADLINE_MS = 8 * 60_000;

export interface BatchItem {
	id: string;
	code: string;
	/** The snippet's own environment (its tokens). */
	env: Record<string, string>;
	/** `parse`: compile only (Python snippets whose library cannot be installed). */
	mode?: "run" | "parse";
}

export interface BatchResult {
	id: string;
	/** What `python file.py` / `node file.mjs` / `bash file.sh` would exit with. */
	status: number;
	/** One line naming the error, if the snippet raised one. */
	error?: string | null;
	output: string;
	seconds?: number;
}

export interface BatchSetting {
	/** The run's folder: sample files, snippet files, results. */
	work: string;
	/** `127.0.0.1:{port}` of the protocol servers' HTTP listener. */
	httpAddress: string;
	httpsPort: number;
	/** The certificate curl trusts for the HTTPS listener. */
	certFile: string;
	/** The build of `@modelhub/inference` the js snippets import. */
	bundle: string;
	python: PythonEnv;
}

function roundRobin<T>(items: T[], count: number): T[][] {
	const batches: T[][] = Array.from({ length: count }, () => []);
	items.forEach((item, index) => batches[index % count]!.push(item));
	return batches.filter((batch) => batch.length > 0);
}

function exec(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
	return new Promise((resolve, reject) => {
		// Asynchronous on purpose: the servers answering this process live in this event loop.
		const child = spawn(command, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
		let stderr = "";
		child.stderr.on("data", (chunk: Buffer) => {
			stderr = (stderr + chunk.toString("utf8")).slice(-20_000);
		});
		const timer = setTimeout(() => child.kill("SIGKILL"), BATCH_DEADLINE_MS);
		child.on("error", reject);
		child.on("close", () => {
			clearTimeout(timer);
			resolve(stderr);
		});
	});
}

/** A shell's environment, nothing from the test process (no tokens, proxies or NODE_OPTIONS). */
function shellEnvironment(setting: BatchSetting, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	return {
		PATH: process.env.PATH ?? "/usr/bin:/bin",
		LANG: process.env.LANG ?? "C.UTF-8",
		HOME: join(setting.work, "home"),
		HF_HOME: join(setting.work, "hf-home"),
		...extra,
	};
}

async function runJsonBatch(
	what: string,
	command: string,
	args: (input: string, output: string) => string[],
	env: NodeJS.ProcessEnv,
	items: unknown[],
	work: string,
): Promise<BatchResult[]> {
	const input = join(work, `${what}.json`);
	const output = `${input}.out`;
	writeFileSync(input, JSON.stringify(items));
	const stderr = await exec(command, args(input, output), env, work);
	if (!existsSync(output)) throw new Error(`batch ${what} ended without results:\n${stderr}`);
	return JSON.parse(readFileSync(output, "utf8")) as BatchResult[];
}

export async function runPythonBatches(
	items: BatchItem[],
	count: number,
	setting: BatchSetting,
): Promise<BatchResult[]> {
	const env = shellEnvironment(setting, {
		PATH: `${setting.python.bin}:${process.env.PATH ?? ""}`,
		// sitecustomize.py in this folder redirects the transports to the protocol servers.
		PYTHONPATH: join(HERE, "python"),
		PYTHONDONTWRITEBYTECODE: "1",
		MODELHUB_REDIRECT: setting.httpAddress,
	});
	const batches = roundRobin(items, count).map((batch, index) =>
		runJsonBatch(
			`python-${index}`,
			setting.python.python,
			(input, output) => [join(HERE, "python", "run_batch.py"), input, output],
			env,
			batch.map((item) => ({ ...item, mode: item.mode ?? "run" })),
			setting.work,
		),
	);
	return (await Promise.all(batches)).flat();
}

export async function runNodeBatches(
	items: BatchItem[],
	count: number,
	setting: BatchSetting,
): Promise<BatchResult[]> {
	const env = shellEnvironment(setting, {
		MODELHUB_REDIRECT: setting.httpAddress,
		MODELHUB_INFERENCE_BUNDLE: setting.bundle,
	});
	const batches = roundRobin(items, count).map((batch, index) => {
		const files = batch.map((item) => {
			const file = join(setting.work, "js", `${item.id}.mjs`);
			writeFileSync(file, item.code);
			return { id: item.id, file, env: item.env };
		});
		return runJsonBatch(
			`node-${index}`,
			process.execPath,
			(input, output) => [
				"--import",
				join(HERE, "node", "redirect.mjs"),
				join(HERE, "node", "run-batch.mjs"),
				input,
				output,
			],
			env,
			files,
			setting.work,
		);
	});
	return (await Promise.all(batches)).flat();
}

function shellQuote(value: string): string {
	if (value.includes("'")) throw new Error(`cannot quote ${value}`);
	return `'${value}'`;
}

/** One bash for all curl snippets: each sourced in a subshell with its own tokens and `.curlrc`. */
export async function runCurlBatch(items: BatchItem[], setting: BatchSetting): Promise<BatchResult[]> {
	if (items.length === 0) return [];
	const status = join(setting.work, "curl-status.txt");
	const lines = ["set -u", `: > ${shellQuote(status)}`];
	for (const item of items) {
		const curlHome = join(setting.work, "curl", item.id);
		mkdirSync(curlHome, { recursive: true });
		// curl reads $CURL_HOME/.curlrc: real HTTPS to the local listener (`--connect-to`), trusting its certificate.
		writeFileSync(
			join(curlHome, ".curlrc"),
			[
				`connect-to = "::127.0.0.1:${setting.httpsPort}"`,
				`cacert = "${setting.certFile}"`,
				`header = "${RUN_HEADER}: ${item.id}"`,
				"max-time = 60",
				"",
			].join("\n"),
		);
		writeFileSync(join(setting.work, "sh", `${item.id}.sh`), `${item.code}\n`);
		const exports = Object.entries({ CURL_HOME: curlHome, ...item.env })
			.map(([name, value]) => `export ${name}=${shellQuote(value)};`)
			.join(" ");
		lines.push(
			`( ${exports} . ./sh/${item.id}.sh ) >./out/${item.id}.log 2>&1 </dev/null; printf '%s %s\\n' ${shellQuote(item.id)} "$?" >>${shellQuote(status)}`,
		);
	}
	const script = join(setting.work, "curl.sh");
	writeFileSync(script, `${lines.join("\n")}\n`);
	const stderr = await exec("bash", [script], shellEnvironment(setting), setting.work);
	if (!existsSync(status)) throw new Error(`the curl batch ended without results:\n${stderr}`);
	return readFileSync(status, "utf8")
		.split("\n")
		.filter((line) => line.includes(" "))
		.map((line) => {
			const [id = "", code = ""] = line.split(" ");
			return {
				id,
				status: Number(code),
				output: readFileSync(join(setting.work, "out", `${id}.log`), "utf8").slice(-4000),
			};
		});
}
