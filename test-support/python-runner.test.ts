import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pythonEnv } from "./python-env.js";
import { runProcess, startPythonRunner, type PythonRunner, type RunOptions } from "./python-runner.js";

/** Prints what a script sees of its process: argv, path, folder, environment, module, stdin; then exits 3. */
const PROBE = `
import json, os, sys
print(json.dumps({
    "argv": sys.argv,
    "path0": sys.path[0],
    "cwd": os.getcwd(),
    "env": dict(os.environ),
    "name": __name__,
    "file": __file__,
    "main": sys.modules["__main__"].__dict__ is globals(),
    "stdin": sys.stdin.read(),
}))
print("to stderr", file=sys.stderr)
sys.exit(3)
`;

/** A script: what it sees of argv, path, file, stdin and module; a traceback and exit 1 when asked. */
const SCRIPT = `
import json, os, sys
print(json.dumps({
    "argv": sys.argv,
    "path0": sys.path[0],
    "cwd": os.getcwd(),
    "file": __file__,
    "name": __name__,
    "stdin": sys.stdin.read(),
}))
if "raise" in sys.argv:
    raise KeyError("asked to")
`;

/**
 * Leaves a thread that runs once the main one is done, an atexit handler and unflushed output: the
 * interpreter joins the thread, then runs the handler, then flushes.
 */
const ENDING = `
import atexit, sys, threading
atexit.register(lambda: print("atexit ran"))
def after_main():
    threading.main_thread().join()
    print("thread done")
threading.Thread(target=after_main).start()
print("main done", end=" ")
sys.stderr.write("no newline on stderr")
`;

const RAISES = `
def inner():
    raise ValueError("boom from the snippet")

inner()
`;

describe("the forking Python runner: snippets run as `python -` would", () => {
	let dir: string;
	let runner: PythonRunner;
	let baseEnv: Record<string, string>;
	let python: string;

	function options(name: string, extra: Record<string, string> = {}): RunOptions {
		const home = join(dir, `home-${name}`);
		const cwd = join(dir, `work-${name}`);
		mkdirSync(home, { recursive: true });
		mkdirSync(cwd, { recursive: true });
		return { env: { ...baseEnv, HOME: home, ...extra }, cwd, timeoutMs: 60_000 };
	}

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-python-runner-test-"));
		const env = pythonEnv();
		python = env.python;
		baseEnv = { PATH: `${env.bin}:/usr/bin:/bin`, HF_HUB_DISABLE_TELEMETRY: "1" };
		runner = await startPythonRunner(python, { preload: ["numpy"], env: { ...baseEnv, HOME: dir } });
	}, 120_000);

	afterAll(async () => {
		await runner?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("gives the same argv, path, folder, environment, stdout, stderr and exit status as a real process", async () => {
		const forked = await runner.run(PROBE, options("forked", { HF_TOKEN: "one" }));
		const real = await runProcess(python, ["-"], { ...options("real", { HF_TOKEN: "one" }), input: PROBE });
		expect(real.code).toBe(3);
		expect(forked.code).toBe(3);
		expect(forked.stderr).toBe(real.stderr);
		const seen = JSON.parse(forked.stdout) as Record<string, unknown>;
		const expected = JSON.parse(real.stdout) as Record<string, unknown>;
		// Each ran in its own folder and home; with those swapped, nothing else differs.
		expect(seen.cwd).toBe(join(dir, "work-forked"));
		expect((seen.env as Record<string, string>).HOME).toBe(join(dir, "home-forked"));
		expect({
			...seen,
			cwd: expected.cwd,
			env: { ...(seen.env as Record<string, string>), HOME: join(dir, "home-real") },
		}).toEqual(expected);
		expect(seen.argv).toEqual(["-"]);
		expect(seen.stdin).toBe("");
	});

	it("runs a script with arguments and stdin as `python script args…` would", async () => {
		const scripts = join(dir, "scripts");
		mkdirSync(scripts, { recursive: true });
		const script = join(scripts, "probe.py");
		writeFileSync(script, SCRIPT);
		const input = '{"from": "stdin"}\n';
		for (const args of [["one", "two words"], ["raise"]]) {
			const forked = await runner.runScript(script, args, { ...options("script"), input });
			const real = await runProcess(python, [script, ...args], { ...options("script"), input });
			expect(forked).toEqual(real);
			expect(real.code).toBe(args.includes("raise") ? 1 : 0);
			const seen = JSON.parse(forked.stdout.split("\n")[0]!) as Record<string, unknown>;
			expect(seen).toEqual({
				argv: [script, ...args],
				path0: scripts,
				cwd: join(dir, "work-script"),
				file: script,
				name: "__main__",
				stdin: input,
			});
			if (args.includes("raise")) expect(forked.stderr).toContain(`File "${script}", line 12, in <module>`);
		}
	});

	it("ends a run as the interpreter ends: threads joined, atexit handlers run, output flushed", async () => {
		const forked = await runner.run(ENDING, options("ending"));
		const real = await runProcess(python, ["-"], { ...options("ending"), input: ENDING });
		expect(real).toEqual({
			code: 0,
			stdout: "main done thread done\natexit ran\n",
			stderr: "no newline on stderr",
		});
		expect(forked).toEqual(real);
	});

	it("fails a snippet that raises with exit 1 and the snippet's own traceback, as Python does", async () => {
		const forked = await runner.run(RAISES, options("raises"));
		const real = await runProcess(python, ["-"], { ...options("raises-real"), input: RAISES });
		expect(real.code).toBe(1);
		expect(forked.code).toBe(1);
		expect(forked.stderr).toContain('File "<stdin>", line 5, in <module>');
		expect(forked.stderr).toContain("ValueError: boom from the snippet");
		expect(forked.stderr).toBe(real.stderr);
		// sys.exit with a message: the message on stderr, exit 1.
		const message = await runner.run("import sys; sys.exit('stopped here')", options("exit-message"));
		expect(message).toEqual({ code: 1, stdout: "", stderr: "stopped here\n" });
	});

	it("imports the preloaded modules once, and the HF_* readers in each child with its own environment", async () => {
		const code = [
			"import sys",
			"print('numpy' in sys.modules, 'huggingface_hub' in sys.modules)",
			"from huggingface_hub import constants",
			"print(constants.ENDPOINT, constants.HF_HOME)",
		].join("\n");
		const first = options("endpoint-1", { HF_ENDPOINT: "http://127.0.0.1:1", HF_HOME: join(dir, "hf-1") });
		const second = options("endpoint-2", { HF_ENDPOINT: "http://127.0.0.1:2", HF_HOME: join(dir, "hf-2") });
		const [one, two] = await Promise.all([runner.run(code, first), runner.run(code, second)]);
		expect(one).toEqual({
			code: 0,
			stdout: `True False\nhttp://127.0.0.1:1 ${join(dir, "hf-1")}\n`,
			stderr: "",
		});
		expect(two).toEqual({
			code: 0,
			stdout: `True False\nhttp://127.0.0.1:2 ${join(dir, "hf-2")}\n`,
			stderr: "",
		});
		// A fresh interpreter has not imported numpy: the runner's children have, from their parent.
		const real = await runProcess(python, ["-"], {
			...options("fresh"),
			input: code.split("\n").slice(0, 2).join("\n"),
		});
		expect(real.stdout).toBe("False False\n");
		expect(runner.preloaded).toEqual(["numpy"]);
	});

	it("refuses to preload a module that reads the environment at import", async () => {
		await expect(
			startPythonRunner(python, { preload: ["numpy", "huggingface_hub"], env: { ...baseEnv, HOME: dir } }),
		).rejects.toThrow(/refused to start: .*huggingface_hub/);
	}, 60_000);

	it("refuses to preload a module that leaves a thread running across a fork", async () => {
		// pyarrow's jemalloc starts a background thread that a fork does not stop (OpenBLAS's, numpy's, is
		// stopped at each fork: numpy is accepted above).
		const hub1 = pythonEnv("hub1");
		await expect(
			startPythonRunner(hub1.python, {
				preload: ["numpy", "pyarrow"],
				env: { ...baseEnv, PATH: `${hub1.bin}:/usr/bin:/bin`, HOME: dir },
			}),
		).rejects.toThrow(/refused to start: the preload leaves threads running across a fork: jemalloc_bg_thd/);
	}, 60_000);

	it("refuses a run whose interpreter-start variables differ from the runner's", async () => {
		await expect(runner.run("print(1)", options("pythonpath", { PYTHONPATH: dir }))).rejects.toThrow(
			/PYTHONPATH is read at interpreter start/,
		);
	});

	it("kills a run that outlives its bound, and goes on running others", async () => {
		const stuck = await runner.run("import time\nprint('waiting', flush=True)\ntime.sleep(600)", {
			...options("stuck"),
			timeoutMs: 1_000,
		});
		expect(stuck).toEqual({ code: 137, signal: "SIGKILL", stdout: "waiting\n", stderr: "" });
		expect(await runner.run("print('after')", options("after"))).toEqual({
			code: 0,
			stdout: "after\n",
			stderr: "",
		});
	});
});
