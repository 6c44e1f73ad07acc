/**
 * Runs shell snippets in real bash with every external command replaced by a recorder, to see the
 * argument vectors bash would really pass (after quoting, `$(...)`, backticks, `~`, `$VAR`). It is
 * what shows that a model id stays one intact argument and never becomes a command of its own.
 *
 * `PATH` points at a missing folder, so no program can start: bash calls `command_not_found_handle`
 * instead, which records the command and its arguments on a log descriptor that command
 * substitutions share. Commands given by path (`./llama-server`) never reach that hook, so the
 * caller names them and they get recording functions; so may the programs a caller expects, as bash
 * runs the hook in a forked subshell (a function records the same argument vector without one). Each snippet runs sourced in its own subshell,
 * with an empty temporary HOME and working folder and no stdin; all of it in one bash process.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One command bash tried to start: its name, then its arguments. */
export type RecordedCommand = string[];

const UNIT = "\x1f";
const RECORD = "\x1e";
const SNIPPET = "\x1d";

function shellQuote(text: string): string {
	return `'${text.replace(/'/g, "'\\''")}'`;
}

export function recordShellCommands(snippets: string[], pathCommands: string[] = []): RecordedCommand[][] {
	if (snippets.length === 0) return [];
	const dir = mkdtempSync(join(tmpdir(), "modelhub-shell-run-"));
	try {
		const log = join(dir, "commands.log");
		snippets.forEach((code, index) => {
			writeFileSync(join(dir, `${index}.sh`), code);
			mkdirSync(join(dir, `work-${index}`));
		});
		// One write per command: both sides of a pipeline run at once and share the log, so a record
		// written in two pieces could interleave with the other side's (seen as an empty command).
		const record = `local line; printf -v line '%s${UNIT}' "$@"; printf '%s${RECORD}' "$line" >&3`;
		const script = [
			`exec 3>${shellQuote(log)}`,
			`command_not_found_handle() { ${record}; return 127; }`,
			...pathCommands.map((name) => `function ${name} { set -- ${shellQuote(name)} "$@"; ${record}; }`),
			// Only builtins here: with no PATH, even `seq` or `mkdir` would be recorded instead of run.
			`for ((i = 0; i < ${snippets.length}; i++)); do`,
			`  printf '${SNIPPET}' >&3`,
			`  ( cd ${shellQuote(dir)}/work-"$i" && . ${shellQuote(dir)}/"$i".sh ) </dev/null >/dev/null 2>&1`,
			"done",
			// A snippet's own failure (a command "not found", a syntax error) is not the runner's.
			"exit 0",
		].join("\n");
		execFileSync("/bin/bash", ["-c", script], {
			env: { PATH: join(dir, "no-such-folder"), HOME: dir, LANG: "C.UTF-8" },
			cwd: dir,
			maxBuffer: 64 * 1024 * 1024,
		});
		const text = readFileSync(log, "utf8");
		return text
			.split(SNIPPET)
			.slice(1)
			.map((part) =>
				part
					.split(RECORD)
					.slice(0, -1)
					.map((command) => command.split(UNIT).slice(0, -1)),
			);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
