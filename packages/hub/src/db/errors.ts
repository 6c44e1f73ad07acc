import { StorageUnavailableError } from "../storage/types.js";
import { pgErrorCode } from "./types.js";

// PostgreSQL SQLSTATEs of a server that is down, starting, stopping, full or too busy to answer in time
// (classes 08 and 57P, too many connections, out of memory, and 57014: the hub's statement timeout).
const UNAVAILABLE_CODES = /^(08...|57P0[1-4]|53300|53200|57014)$/;
const NETWORK_CODES = new Set([
	"ECONNREFUSED",
	"ECONNRESET",
	"ENOTFOUND",
	"ETIMEDOUT",
	"EPIPE",
	"EHOSTUNREACH",
]);
// node-postgres and PGlite say so in words only.
const UNAVAILABLE_MESSAGES =
	/Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|Connection ended unexpectedly|PGlite is closed|terminating connection/i;

/** What is unavailable, when `error` means the database or the file storage cannot be reached right now. */
export function unavailableService(error: unknown): "database" | "file storage" | undefined {
	if (error instanceof StorageUnavailableError) return "file storage";
	const code = pgErrorCode(error);
	if (code !== undefined && (UNAVAILABLE_CODES.test(code) || NETWORK_CODES.has(code))) return "database";
	// A Unix socket that is gone (the server stopped); other ENOENTs are file errors, not outages.
	if (code === "ENOENT" && (error as { syscall?: unknown }).syscall === "connect") return "database";
	if (error instanceof Error && UNAVAILABLE_MESSAGES.test(error.message)) return "database";
	return undefined;
}
