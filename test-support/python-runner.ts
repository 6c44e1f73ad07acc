/**
 * Runs Python snippets as `python -` with the code on stdin would (and scripts as `python script args…`),
 * without paying the heavy imports per run: one long-lived interpreter (python_runner.py) imports the
 * modules named in `preload` once (torch and the like, whose behaviour does not depend on the
 * environment) and forks a child per run; the child sets the run's environment and working folder and
 * only then runs it, so the libraries that read HF_* at import (huggingface_hub, transformers,
 * datasets…) see the run's own values. Their import in the runner is refused, as is a preload that
 * leaves a thread running across a fork. Each run's stdout, stderr and exit status are what a
 * process's are.
 *
 * Runs whose point is the process itself (a CLI, a shell command) stay separate processes: runProcess.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const RUNNER_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "python_runner.py");

/**
 * What the model libraries' code (transformers, timm, peft, sentence-transformers, datasets) imports
 * whose behaviour does not depend on the environment: torch alone is ~3 s of CPU per interpreter. Not
 * pandas (nor scikit-learn, which imports it): its pyarrow starts a thread that outlives a fork.
 */
export const MODEL_LIBRARY_PRELOAD: readonly string[] = [
	"torch",
	"torchvision",
	"numpy",
	"PIL.Image",
	"safetensors.torch",
];

/** What a finished process leaves: its exit code (128 + the signal's number when killed), its output. */
export interface ProcessRun {
	code: number;
	/** The signal that ended it, if one did (a timeout's SIGKILL). */
	signal?: NodeJS.Signals;
	stdout: string;
	stderr: string;
}

export interface RunOptions {
	/** The whole environment (nothing is inherited from the test process). */
	env: Record<string, string>;
	cwd: string;
	/** Killed (SIGKILL) after this long. */
	timeoutMs: number;
}

/**
 * Variables an interpreter reads once, at start (locale, PYTHON*): a forked child keeps its parent's,
 * so a run must have the runner's.
 */
const START_VARIABLES = /^(PYTHON.*|LC_.*|LANG|LANGUAGE)$/;

function signalName(number: number): NodeJS.Signals | undefined {
	return (Object.keys(constants.signals) as NodeJS.Signals[]).find(
		(name) => constants.signals[name] === number,
	);
}

/** A separate process: `file args…` with `input` on stdin (the CLI and shell runs, the no-fork reference). */
export function runProcess(
	file: string,
	args: string[],
	options: RunOptions & { input?: string },
): Promise<ProcessRun> {
	return new Promise((resolve) => {
		const child = execFile(
			file,
			args,
			{ env: options.env, cwd: options.cwd, timeout: options.timeoutMs, maxBuffer: 64 * 1024 * 1024 },
			(error, stdout, stderr) => {
				const failure = error as (Error & { code?: number | string; signal?: NodeJS.Signals }) | null;
				const signal = failure?.signal ?? undefined;
				const code = !failure
					? 0
					: typeof failure.code === "number"
						? failure.code
						: signal
							? 128 + constants.signals[signal]
							: 1;
				resolve({ code, ...(signal ? { signal } : {}), stdout, stderr });
			},
		);
		child.stdin?.end(options.input);
	});
}

interface Pending {
	resolve: (run: ProcessRun) => void;
	reject: (error: Error) => void;
	/** The files the child's stdout and stderr go to, and its stdin comes from (if any). */
	stdout: string;
	stderr: string;
	stdin?: string;
	timer: NodeJS.Timeout;
}

type Reply =
	| { ready: string[] }
	| { refused: string }
	| { started: string; pid: number }
	| { exited: string; status: number };

export interface PythonRunner {
	/** The interpreter it was started with. */
	readonly python: string;
	/** The modules the runner imported once, before any fork. */
	readonly preloaded: readonly string[];
	/** Runs `code` as `python -` would in `options.cwd` with exactly `options.env`. */
	run(code: string, options: RunOptions): Promise<ProcessRun>;
	/** Runs `script` (an absolute path) as `python script args…` would, with `options.input` on stdin. */
	runScript(script: string, args: string[], options: RunOptions & { input?: string }): Promise<ProcessRun>;
	/** Ends the runner (children still running are killed). */
	close(): Promise<void>;
}

/**
 * Starts the runner with `python` (a venv's interpreter), in environment `env` (the one every run shares
 * the start variables of), importing `preload` once.
 */
export async function startPythonRunner(
	python: string,
	{ preload, env }: { preload: readonly string[]; env: Record<string, string> },
): Promise<PythonRunner> {
	const dir = mkdtempSync(join(tmpdir(), "modelhub-python-runner-"));
	const config = join(dir, "config.json");
	writeFileSync(config, JSON.stringify({ preload, spawn_env: Object.keys(env) }));
	const child: ChildProcessWithoutNullStreams = spawn(python, [RUNNER_SCRIPT, config], {
		env,
		cwd: dir,
		stdio: "pipe",
	});
	// A runner that died is reported by "close" (with its stderr); writing to it then must not throw.
	child.stdin.on("error", () => undefined);
	let runnerStderr = "";
	child.stderr.on("data", (chunk: Buffer) => {
		runnerStderr = (runnerStderr + chunk.toString("utf8")).slice(-8000);
	});
	const pending = new Map<string, Pending>();
	let next = 0;
	let ended: Error | undefined;
	const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));

	const ready = new Promise<string[]>((resolve, reject) => {
		const fail = (error: Error): void => {
			ended ??= error;
			reject(error);
			for (const [id, run] of pending) {
				clearTimeout(run.timer);
				pending.delete(id);
				run.reject(error);
			}
		};
		child.on("error", fail);
		child.on("close", (code, signal) =>
			fail(new Error(`The Python runner ended (${signal ?? `exit ${code}`}):\n${runnerStderr}`)),
		);
		createInterface({ input: child.stdout }).on("line", (line) => {
			const reply = JSON.parse(line) as Reply;
			if ("ready" in reply) resolve(reply.ready);
			else if ("refused" in reply) fail(new Error(`The Python runner refused to start: ${reply.refused}`));
			else if ("exited" in reply) {
				const run = pending.get(reply.exited);
				if (!run) return;
				pending.delete(reply.exited);
				clearTimeout(run.timer);
				const signal = reply.status < 0 ? signalName(-reply.status) : undefined;
				run.resolve({
					code: reply.status < 0 ? 128 - reply.status : reply.status,
					...(signal ? { signal } : {}),
					stdout: readFileSync(run.stdout, "utf8"),
					stderr: readFileSync(run.stderr, "utf8"),
				});
				for (const file of [run.stdout, run.stderr, run.stdin])
					if (file !== undefined) rmSync(file, { force: true });
			}
		});
	});
	const preloaded = await ready.catch(async (error: unknown) => {
		await exited;
		rmSync(dir, { recursive: true, force: true });
		throw error;
	});

	/** Forks a child for `what` (the code, or a script and its arguments), stdin from `input`. */
	function start(
		what: { code: string } | { script: string; args: string[] },
		options: RunOptions,
		input?: string,
	): Promise<ProcessRun> {
		if (ended) return Promise.reject(ended);
		for (const name of new Set([...Object.keys(env), ...Object.keys(options.env)]))
			if (START_VARIABLES.test(name) && env[name] !== options.env[name])
				return Promise.reject(
					new Error(
						`${name} is read at interpreter start: a run must have the runner's value (${env[name]})`,
					),
				);
		const id = String(next++);
		return new Promise<ProcessRun>((resolve, reject) => {
			const timer = setTimeout(
				() => child.stdin.write(`${JSON.stringify({ kill: id })}\n`),
				options.timeoutMs,
			);
			const files = { stdout: join(dir, `${id}.out`), stderr: join(dir, `${id}.err`) };
			let stdin: string | undefined;
			if (input !== undefined) {
				stdin = join(dir, `${id}.in`);
				writeFileSync(stdin, input);
			}
			pending.set(id, { resolve, reject, ...files, ...(stdin ? { stdin } : {}), timer });
			const request = { run: id, ...what, env: options.env, cwd: options.cwd, ...files, stdin };
			child.stdin.write(`${JSON.stringify(request)}\n`);
		});
	}

	return {
		python,
		preloaded,
		run: (code, options) => start({ code }, options),
		runScript: (script, args, { input, ...options }) => start({ script, args }, options, input),
		async close() {
			child.stdin.end();
			await exited;
			rmSync(dir, { recursive: true, force: true });
		},
	};
}
