import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";

/** Another live process holds the embedded database. */
export class DataDirInUseError extends Error {
	override name = "DataDirInUseError";
}

function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: the process exists but belongs to someone else.
		return (error as { code?: string }).code === "EPERM";
	}
}

function readPid(path: string): number | undefined {
	try {
		const text = readFileSync(path, "utf8").trim();
		return /^\d+$/.test(text) ? Number(text) : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Takes an exclusive lock on the embedded database folder: a file holding our process id. The embedded
 * database must never be opened by two processes at once (it would be corrupted), so a second server or
 * an import while the server runs is refused with a clear message. A lock left by a dead process (for
 * example after SIGKILL) is taken over. Returns the function that releases the lock.
 */
export function acquireDataDirLock(path: string): () => void {
	for (let attempt = 0; attempt < 2; attempt++) {
		let fd: number;
		try {
			fd = openSync(path, "wx", 0o600);
		} catch (error) {
			if ((error as { code?: string }).code !== "EEXIST") throw error;
			const owner = readPid(path);
			if (owner !== undefined && owner !== process.pid && processAlive(owner)) {
				throw new DataDirInUseError(
					`the embedded database is in use by process ${owner} (lock file ${path}); stop that hub first, ` +
						`or send writes to it over HTTP. If no hub is running, delete the lock file.`,
				);
			}
			try {
				unlinkSync(path);
			} catch {
				// someone else removed it first: retry
			}
			continue;
		}
		writeSync(fd, `${process.pid}\n`);
		closeSync(fd);
		return () => {
			if (readPid(path) === process.pid) {
				try {
					unlinkSync(path);
				} catch {
					// already gone
				}
			}
		};
	}
	throw new DataDirInUseError(`could not take the lock file ${path}`);
}
