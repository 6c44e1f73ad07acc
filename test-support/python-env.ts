/**
 * The Python virtual environments with the real client libraries users run, one per huggingface_hub
 * generation (see python/requirements*.txt for what each holds and why):
 * - "hub2": huggingface_hub 2.0.0, transformers 5.18, peft, timm, gguf, safetensors, torch (CPU), openai,
 *   requests, … made from `python/requirements.txt`;
 * - "hub1": huggingface_hub 1.33.0 with datasets, sentence-transformers and the same model libraries,
 *   made from `python/requirements-hub1.txt`.
 * torch and torchvision (with their own dependencies) are installed once into a folder both environments
 * see through a `.pth` file: it is the largest part (~900 MB installed, ~1.5 min), and both pin the same
 * release. Each lives under `node_modules/.cache/`, keyed by a hash of what it is made from, so a change of
 * pins makes a new one and `npm ci` starts clean.
 *
 * Every file pins every dependency and is installed exactly as listed (`pip --no-deps`); `pip check` then
 * proves nothing is missing or conflicting, except the conflicts a file documents (ACCEPTED_CONFLICTS).
 * pip resolves from whatever the machine configures (here: a local package mirror); `--retries 0` keeps
 * an unreachable default index from stalling the install. If the install fails, the error says which
 * packages could not be installed: tests that need the environment fail, they are never skipped.
 */
import { execFile, execFileSync, type ExecFileOptions } from "node:child_process";
import { createHash } from "node:crypto";
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pythonDir = join(root, "test-support", "python");
const cacheDir = join(root, "node_modules", ".cache");

/** The huggingface_hub generations the tests run under. */
export type HubGeneration = "hub2" | "hub1";
export const HUB_GENERATIONS: readonly HubGeneration[] = ["hub2", "hub1"];

const REQUIREMENTS_OF: Readonly<Record<HubGeneration, string>> = {
	hub2: join(pythonDir, "requirements.txt"),
	hub1: join(pythonDir, "requirements-hub1.txt"),
};
/** The default ("hub2") environment's requirements, kept under its historical name. */
export const REQUIREMENTS = REQUIREMENTS_OF.hub2;

/** Installed once into the shared folder: torch, torchvision and what only they depend on. */
const SHARED_PACKAGES: readonly string[] = [
	"torch",
	"torchvision",
	"sympy",
	"mpmath",
	"networkx",
	"jinja2",
	"markupsafe",
];
/** Imported at interpreter start from the `.pth` line (why: see the module's docstring). */
const TORCHVISION_GUARD = join(pythonDir, "modelhub_torchvision_guard.py");

/**
 * `pip check` lines a generation accepts, each documented in its requirements file: every tokenizers
 * release declares huggingface-hub<2.0 while transformers 5.18 (the first to accept hub 2.x) needs it.
 */
const ACCEPTED_CONFLICTS: Readonly<Record<HubGeneration, readonly string[]>> = {
	hub2: [
		"tokenizers 0.23.2 has requirement huggingface-hub<2.0,>=0.16.4, but you have huggingface-hub 2.0.0.",
	],
	hub1: [],
};

const hash12 = (...parts: (string | Buffer)[]): string => {
	const digest = createHash("sha256");
	for (const part of parts) digest.update(part);
	return digest.digest("hex").slice(0, 12);
};

/** `name==version` lines, names normalised as pip compares them (PEP 503). */
function pins(file: string): { name: string; line: string; version: string }[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.map((line) => /^([A-Za-z0-9_.-]+)==(\S+)$/.exec(line.trim()))
		.filter((m): m is RegExpExecArray => m !== null)
		.map((m) => ({
			name: (m[1] as string).toLowerCase().replace(/[-_.]+/g, "-"),
			line: m[0],
			version: m[2] as string,
		}));
}

/** The shared folder's pins, the same in every requirements file (else a clear error). */
function sharedPins(): string[] {
	const perFile = HUB_GENERATIONS.map((generation) => {
		const lines = pins(REQUIREMENTS_OF[generation])
			.filter((pin) => SHARED_PACKAGES.includes(pin.name))
			.map((pin) => pin.line)
			.sort();
		if (lines.length !== SHARED_PACKAGES.length) {
			throw new Error(`${REQUIREMENTS_OF[generation]} must pin each of ${SHARED_PACKAGES.join(", ")}`);
		}
		return lines;
	});
	const [first, ...rest] = perFile;
	if (rest.some((lines) => lines.join("\n") !== first?.join("\n"))) {
		throw new Error(`The pins of ${SHARED_PACKAGES.join(", ")} must be the same in every requirements file`);
	}
	return first ?? [];
}

function sharedDir(): string {
	return join(
		cacheDir,
		`modelhub-python-torch-${hash12(sharedPins().join("\n"), readFileSync(TORCHVISION_GUARD))}`,
	);
}

function envDir(generation: HubGeneration): string {
	const hash = hash12(readFileSync(REQUIREMENTS_OF[generation]));
	// hub2 keeps the historical name: scripts outside the tests (upgrade fixture, upload bench) find it so.
	return join(
		cacheDir,
		generation === "hub2" ? `modelhub-python-${hash}` : `modelhub-python-${generation}-${hash}`,
	);
}

export interface PythonEnv {
	/** Which huggingface_hub generation this environment holds. */
	generation: HubGeneration;
	/** The venv's python interpreter. */
	python: string;
	/** The venv's bin directory (put first on PATH to get its `hf` and `openai` commands). */
	bin: string;
	/** Versions of the pinned libraries (names normalised: lower case, `-`), for test names and notes. */
	versions: Record<string, string>;
}

function describeEnv(generation: HubGeneration, dir: string): PythonEnv {
	const bin = join(dir, "bin");
	const versions = Object.fromEntries(
		pins(REQUIREMENTS_OF[generation]).map((pin) => [pin.name, pin.version]),
	);
	return { generation, python: join(bin, "python"), bin, versions };
}

/**
 * Where the global setup leaves the one line saying why the environments could not be made (a missing
 * system package), for every test that needs them to fail with; removed once they are made.
 */
const PROBLEM_FILE = join(cacheDir, "modelhub-python-problem.txt");

/** Records why the environments could not be made (the global setup), or that they were (`undefined`). */
export function recordPythonProblem(problem: string | undefined): void {
	if (problem === undefined) {
		rmSync(PROBLEM_FILE, { force: true });
		return;
	}
	mkdirSync(cacheDir, { recursive: true });
	writeFileSync(PROBLEM_FILE, problem);
}

/**
 * Says that the global setup is making the environments in the background (the id of its process): test
 * files that need them wait (pythonEnv), the others run meanwhile. Removed when the making ends.
 */
const PENDING_FILE = join(cacheDir, "modelhub-python-pending");

/** Whether the process with this id runs on this machine. */
function isRunning(pid: number): boolean {
	if (!Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code !== "ESRCH";
	}
}

/** Whether the making announced in PENDING_FILE is still under way (its process alive). */
function makingUnderWay(): boolean {
	let pid: number;
	try {
		pid = Number(readFileSync(PENDING_FILE, "utf8"));
	} catch {
		return false;
	}
	return isRunning(pid);
}

/** Blocks this thread for `ms` (pythonEnv is synchronous: test files call it while they are collected). */
function sleepSync(ms: number): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The environment of one generation (default "hub2") if it is ready; throws with the reason otherwise. */
export function pythonEnv(generation: HubGeneration = "hub2"): PythonEnv {
	const dir = envDir(generation);
	// Made in the background by the global setup: waits for it (bounded, as a build is: 20 minutes).
	const deadline = Date.now() + 20 * 60_000;
	while (!existsSync(join(dir, ".ready")) && !existsSync(PROBLEM_FILE) && makingUnderWay()) {
		if (Date.now() > deadline) throw new Error(`Timed out waiting for the Python environment ${dir}`);
		sleepSync(500);
	}
	if (!existsSync(join(dir, ".ready"))) {
		if (existsSync(PROBLEM_FILE)) throw new Error(readFileSync(PROBLEM_FILE, "utf8"));
		throw new Error(
			`The Python test environment "${generation}" is missing (${dir}). It is made by the vitest global ` +
				"setup (test-support/global-setup.ts); run the tests through vitest, or call ensurePythonEnv().",
		);
	}
	return describeEnv(generation, dir);
}

/** Both generations' environments, in HUB_GENERATIONS order (for describe.each). */
export function pythonEnvs(): PythonEnv[] {
	return HUB_GENERATIONS.map((generation) => pythonEnv(generation));
}

/** Whether the process that took `lock` (its id in `lock/pid`) no longer runs on this machine. */
function lockHolderIsGone(lock: string): boolean {
	let pid: number;
	try {
		pid = Number(readFileSync(join(lock, "pid"), "utf8"));
	} catch {
		return false; // just taken, the id not written yet (or already released)
	}
	return Number.isInteger(pid) && pid > 0 && !isRunning(pid);
}

/** Which folders this process is building now: a second builder of the same folder here waits for the first. */
const building = new Map<string, Promise<void>>();

/**
 * Runs `build` to make `dir` unless its `.ready` marker exists. The marker, written last, says it is
 * complete; the lock folder makes other processes wait instead of building a second one.
 */
async function buildOnce(dir: string, build: () => Promise<void>): Promise<void> {
	if (existsSync(join(dir, ".ready"))) return;
	const under = building.get(dir);
	if (under) return under;
	const made = lockAndBuild(dir, build).finally(() => building.delete(dir));
	building.set(dir, made);
	return made;
}

async function lockAndBuild(dir: string, build: () => Promise<void>): Promise<void> {
	mkdirSync(dirname(dir), { recursive: true });
	const lock = `${dir}.lock`;
	const deadline = Date.now() + 20 * 60_000;
	for (;;) {
		try {
			mkdirSync(lock);
			writeFileSync(join(lock, "pid"), String(process.pid));
			break;
		} catch {
			if (existsSync(join(dir, ".ready"))) return;
			if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lock}`);
			// A builder that was killed leaves its lock behind: a lock whose process is gone is taken over.
			if (lockHolderIsGone(lock)) rmSync(lock, { recursive: true, force: true });
			else await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}
	try {
		if (existsSync(join(dir, ".ready"))) return;
		rmSync(dir, { recursive: true, force: true });
		await build();
		const tmp = join(dir, ".ready.tmp");
		writeFileSync(tmp, new Date().toISOString());
		renameSync(tmp, join(dir, ".ready"));
	} finally {
		rmSync(lock, { recursive: true, force: true });
	}
}

/** `pip install --no-deps` of a pinned list, with an error naming what could not be installed. */
async function pipInstall(pip: string, requirements: string, extraArgs: string[]): Promise<void> {
	try {
		await execFileAsync(
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
				"--no-deps",
				// Byte-compiling every module at install is most of the install time (torch: ~100 s against
				// ~17 s here); Python compiles what is imported on first use and caches it beside the source.
				"--no-compile",
				...extraArgs,
				"-r",
				requirements,
			],
			{ maxBuffer: 64 * 1024 * 1024, timeout: 15 * 60_000 },
		);
	} catch (error) {
		const stderr = String((error as { stderr?: string }).stderr ?? "");
		const wanted = stderr
			.split("\n")
			.filter((line) => /No matching distribution|Could not find a version|ERROR/.test(line))
			.slice(0, 10)
			.join("\n");
		throw new Error(
			`pip could not install ${requirements} from this machine's package sources:\n${wanted || stderr.slice(-2000)}`,
		);
	}
}

/** The problems `pip check` reports in a venv, minus the generation's accepted conflicts. */
export function unexpectedPipProblems(generation: HubGeneration, python: string): string[] {
	let output: string;
	try {
		output = execFileSync(python, PIP_CHECK, { encoding: "utf8", stdio: "pipe" });
	} catch (error) {
		output = String((error as { stdout?: string }).stdout ?? "");
	}
	return pipProblems(generation, output);
}

/** unexpectedPipProblems without blocking the process (the global setup's background making). */
async function unexpectedPipProblemsAsync(generation: HubGeneration, python: string): Promise<string[]> {
	let output: string;
	try {
		output = (await execFileAsync(python, PIP_CHECK)).stdout;
	} catch (error) {
		output = String((error as { stdout?: string }).stdout ?? "");
	}
	return pipProblems(generation, output);
}

const PIP_CHECK = ["-m", "pip", "check", "--disable-pip-version-check"];

function pipProblems(generation: HubGeneration, output: string): string[] {
	return output
		.split("\n")
		.map((line) => line.trim())
		.filter((line) => line !== "" && line !== "No broken requirements found.")
		.filter((line) => !ACCEPTED_CONFLICTS[generation].includes(line));
}

/** The `.pth` that puts the shared torch folder on sys.path (after the venv's own packages) and arms the guard. */
function sharedPth(shared: string): string {
	return `${shared}\nimport modelhub_torchvision_guard\n`;
}

/** The shared torch folder, installed with `pip` (a venv's; python3 itself may have no pip) when missing. */
async function ensureShared(pip: string): Promise<string> {
	const shared = sharedDir();
	await buildOnce(shared, async () => {
		mkdirSync(shared, { recursive: true });
		const list = join(shared, "requirements.txt");
		writeFileSync(list, `${sharedPins().join("\n")}\n`);
		await pipInstall(pip, list, ["--target", shared]);
		copyFileSync(TORCHVISION_GUARD, join(shared, "modelhub_torchvision_guard.py"));
	});
	return shared;
}

/** The venv's site-packages `.pth` file naming the shared folder. */
function pthFile(dir: string): string {
	const lib = join(dir, "lib");
	const python = readdirSync(lib).find((name) => /^python3\.\d+$/.test(name));
	if (python === undefined) throw new Error(`${lib} holds no python3.N folder`);
	return join(lib, python, "site-packages", "modelhub-shared-torch.pth");
}

/** What to install when python3 itself is missing, or its venv module cannot install pip. */
export const PYTHON_MISSING =
	"python3 not found: install it with `apt-get install python3 python3-venv` (the tests make a virtual environment with the real client libraries)";
export const VENV_MISSING =
	"python3 cannot make virtual environments with pip (ensurepip is not available): install it with `apt-get install python3-venv`";

/**
 * The one line a failed `python3 -m venv` comes to: what to install when that is the cause (Debian
 * splits venv's pip bootstrap, ensurepip, into the python3-venv package, and says so on stdout), else
 * the command's first line of output.
 */
export function venvFailure(error: unknown): string {
	const failure = error as NodeJS.ErrnoException & { stdout?: Buffer | string; stderr?: Buffer | string };
	if (failure.code === "ENOENT") return PYTHON_MISSING;
	const output = `${String(failure.stdout ?? "")}\n${String(failure.stderr ?? "")}`;
	if (/ensurepip/i.test(output)) return VENV_MISSING;
	const first = output.split("\n").find((line) => line.trim() !== "");
	return `python3 -m venv failed: ${first?.trim() ?? (error instanceof Error ? error.message.split("\n")[0] : String(error))}`;
}

/** Makes a virtual environment with pip at `dir`, or throws one line saying what to install. */
export function makeVenv(dir: string, python = "python3"): void {
	try {
		execFileSync(python, ["-m", "venv", dir], { stdio: "pipe" });
	} catch (error) {
		throw new Error(venvFailure(error));
	}
}

/** makeVenv without blocking the process (the global setup's background making). */
async function makeVenvAsync(dir: string, options: ExecFileOptions = {}): Promise<void> {
	try {
		await execFileAsync("python3", ["-m", "venv", dir], options);
	} catch (error) {
		throw new Error(venvFailure(error));
	}
}

async function ensureGeneration(generation: HubGeneration): Promise<PythonEnv> {
	const dir = envDir(generation);
	const pip = join(dir, "bin", "pip");
	await buildOnce(dir, async () => {
		await makeVenvAsync(dir);
		const own = join(dir, "requirements-own.txt");
		const ownPins = pins(REQUIREMENTS_OF[generation]).filter((pin) => !SHARED_PACKAGES.includes(pin.name));
		writeFileSync(own, `${ownPins.map((pin) => pin.line).join("\n")}\n`);
		// The shared torch folder and this environment's own packages at once: pip waits on the package
		// mirror and the disk most of the time, so the installs overlap well even on 2 cores.
		const [shared] = await Promise.all([ensureShared(pip), pipInstall(pip, own, [])]);
		writeFileSync(pthFile(dir), sharedPth(shared));
		const problems = await unexpectedPipProblemsAsync(generation, join(dir, "bin", "python"));
		if (problems.length > 0) {
			throw new Error(
				`pip check found problems in the "${generation}" environment (${dir}):\n${problems.join("\n")}`,
			);
		}
	});
	// A ready venv whose shared folder changed (new torch pins or guard) is pointed at the new one.
	const expected = sharedPth(await ensureShared(pip));
	if (readFileSync(pthFile(dir), "utf8") !== expected) writeFileSync(pthFile(dir), expected);
	return describeEnv(generation, dir);
}

/**
 * Creates the environments when missing, all generations at once (idempotent; safe to call from several
 * processes); returns "hub2".
 */
export async function ensurePythonEnv(): Promise<PythonEnv> {
	const [hub2] = await Promise.all(HUB_GENERATIONS.map((generation) => ensureGeneration(generation)));
	return hub2 as PythonEnv;
}

/**
 * Starts making the environments in the background (the global setup): the test files that need them
 * wait in pythonEnv() until they are made, or fail with the reason they could not be; the others run
 * meanwhile (making them takes minutes on a fresh clone, mostly waiting on the package mirror and disk).
 * The promise settles when the making has ended (never rejects: the reason is recorded and returned).
 */
export function startPythonEnv(): Promise<string | undefined> {
	recordPythonProblem(undefined);
	mkdirSync(cacheDir, { recursive: true });
	writeFileSync(PENDING_FILE, String(process.pid));
	return ensurePythonEnv()
		.then(
			() => undefined,
			(error: unknown) => {
				const problem = error instanceof Error ? error.message : String(error);
				recordPythonProblem(problem);
				return problem;
			},
		)
		.finally(() => rmSync(PENDING_FILE, { force: true }));
}

/**
 * Waits (without blocking the process) until no making of the environments is under way: made, failed
 * with a recorded reason, or its process gone. Bounded like a build: 20 minutes.
 */
export async function waitForPythonEnvs(): Promise<void> {
	const deadline = Date.now() + 20 * 60_000;
	while (!pythonEnvsReady() && !existsSync(PROBLEM_FILE) && makingUnderWay()) {
		if (Date.now() > deadline) throw new Error("Timed out waiting for the Python environments to be made");
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** Whether both environments are made already (then nothing needs to wait for them). */
export function pythonEnvsReady(): boolean {
	return HUB_GENERATIONS.every((generation) => existsSync(join(envDir(generation), ".ready")));
}
