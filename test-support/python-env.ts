/**
 * A Python virtual environment with the real client libraries users run (`huggingface_hub`, `openai`,
 * `requests`), made from the pinned `python/requirements.txt`. It lives under
 * `node_modules/.cache/`, keyed by a hash of the requirements, so a change of pins makes a new one and
 * `npm ci` starts clean.
 *
 * pip resolves from whatever the machine configures (here: a local package mirror); `--retries 0`
 * keeps an unreachable default index from stalling the install. If the install fails, the error says
 * which packages could not be installed: tests that need the environment fail, they are never skipped.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const REQUIREMENTS = join(root, "test-support", "python", "requirements.txt");

function envDir(): string {
	const hash = createHash("sha256").update(readFileSync(REQUIREMENTS)).digest("hex").slice(0, 12);
	return join(root, "node_modules", ".cache", `modelhub-python-${hash}`);
}

export interface PythonEnv {
	/** The venv's python interpreter. */
	python: string;
	/** The venv's bin directory (put first on PATH to get its `hf` and `openai` commands). */
	bin: string;
	/** Versions of the pinned client libraries, for test names and notes. */
	versions: Record<string, string>;
}

function describe(dir: string): PythonEnv {
	const bin = join(dir, "bin");
	const versions = Object.fromEntries(
		readFileSync(REQUIREMENTS, "utf8")
			.split("\n")
			.map((line) => /^([A-Za-z0-9_.-]+)==(\S+)/.exec(line.trim()))
			.filter((m): m is RegExpExecArray => m !== null)
			.map((m) => [(m[1] as string).toLowerCase().replace(/_/g, "-"), m[2] as string]),
	);
	return { python: join(bin, "python"), bin, versions };
}

/** The environment if it is ready; throws with the reason otherwise. */
export function pythonEnv(): PythonEnv {
	const dir = envDir();
	if (!existsSync(join(dir, ".ready"))) {
		throw new Error(
			`The Python test environment is missing (${dir}). It is made by the vitest global setup ` +
				"(test-support/global-setup.ts); run the tests through vitest, or call ensurePythonEnv().",
		);
	}
	return describe(dir);
}

/** Creates the environment when it is missing (idempotent; safe to call from several processes). */
export function ensurePythonEnv(): PythonEnv {
	const dir = envDir();
	if (existsSync(join(dir, ".ready"))) return describe(dir);
	mkdirSync(dirname(dir), { recursive: true });
	// A venv records its own path, so it is built in place; the `.ready` marker, written last, says it
	// is complete, and the lock folder makes other processes wait instead of building a second one.
	const lock = `${dir}.lock`;
	const deadline = Date.now() + 10 * 60_000;
	for (;;) {
		try {
			mkdirSync(lock);
			break;
		} catch {
			if (existsSync(join(dir, ".ready"))) return describe(dir);
			if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lock}`);
			execFileSync("sleep", ["0.5"]);
		}
	}
	try {
		if (existsSync(join(dir, ".ready"))) return describe(dir);
		rmSync(dir, { recursive: true, force: true });
		execFileSync("python3", ["-m", "venv", dir], { stdio: "pipe" });
		const pip = join(dir, "bin", "pip");
		try {
			execFileSync(
				pip,
				[
					"install",
					"--quiet",
					"--no-input",
					"--disable-pip-version-check",
					"--retries",
					"0",
					"--timeout",
					"20",
					"-r",
					REQUIREMENTS,
				],
				{ stdio: "pipe", maxBuffer: 64 * 1024 * 1024, timeout: 10 * 60_000 },
			);
		} catch (error) {
			const stderr = String((error as { stderr?: Buffer }).stderr ?? "");
			const wanted = stderr
				.split("\n")
				.filter((line) => /No matching distribution|Could not find a version|ERROR/.test(line))
				.slice(0, 10)
				.join("\n");
			throw new Error(
				`pip could not install ${REQUIREMENTS} from this machine's package sources:\n${wanted || stderr.slice(-2000)}`,
			);
		}
		const tmp = join(dir, ".ready.tmp");
		writeFileSync(tmp, new Date().toISOString());
		renameSync(tmp, join(dir, ".ready"));
		return describe(dir);
	} finally {
		rmSync(lock, { recursive: true, force: true });
	}
}
