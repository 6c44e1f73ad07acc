import { isControlCode } from "@modelhub/tasks/literals";
import { Readable } from "node:stream";

/**
 * The parts of git's receive-pack protocol (git push over smart HTTP, protocol v0/v1: git speaks no v2
 * for push) the hub answers itself: the ref advertisement, the client's update commands (pkt-lines up
 * to a flush, then the pack), and the report (`unpack ok`, `ok <ref>` / `ng <ref> <reason>`), carried in
 * side-band 1 when the client asked for side-band-64k, with messages in band 2 that git prints as
 * `remote: …`. Formats from git's Documentation/gitprotocol-pack.txt and gitprotocol-common.txt.
 */

export const ZERO_ID = "0".repeat(40);

/** What the hub's receive-pack offers: report-status, deletions, side-band-64k, ofs-delta packs, quiet, its agent. */
export const RECEIVE_CAPABILITIES = [
	"report-status",
	"delete-refs",
	"side-band-64k",
	"ofs-delta",
	"quiet",
	"object-format=sha1",
	"agent=modelhub",
];

/** Longest pkt-line payload (65520 bytes in all, its 4-byte length included). */
const PKT_MAX = 65516;

/** pkt-line of a payload (length in 4 hex digits, itself included). */
export function pktLine(payload: string | Buffer): Buffer {
	const bytes = typeof payload === "string" ? Buffer.from(payload, "utf8") : payload;
	return Buffer.concat([Buffer.from((bytes.byteLength + 4).toString(16).padStart(4, "0")), bytes]);
}

export const FLUSH = Buffer.from("0000");

/** The advertisement for `info/refs?service=git-receive-pack`: the service line, then the refs. */
export function receiveAdvertisement(refs: ReadonlyMap<string, string>): Buffer {
	const parts = [pktLine("# service=git-receive-pack\n"), FLUSH];
	const capabilities = RECEIVE_CAPABILITIES.join(" ");
	const names = [...refs.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
	if (names.length === 0) parts.push(pktLine(`${ZERO_ID} capabilities^{}\0${capabilities}\n`));
	names.forEach((name, index) => {
		const line = `${refs.get(name)} ${name}`;
		parts.push(pktLine(index === 0 ? `${line}\0${capabilities}\n` : `${line}\n`));
	});
	parts.push(FLUSH);
	return Buffer.concat(parts);
}

/** One ref update a client asks for. */
export interface PushCommand {
	oldId: string;
	newId: string;
	ref: string;
}

export interface PushRequest {
	commands: PushCommand[];
	capabilities: Set<string>;
	/** The pack that follows the commands (empty when the client sent none). */
	pack: Readable;
}

/** A request git would never send: refused before anything is stored. */
export class PushProtocolError extends Error {
	override name = "PushProtocolError";
}

/** Bounds of the command list (a push names a few refs; these only stop abuse). */
const MAX_COMMANDS = 1000;
const MAX_COMMAND_BYTES = 1024 * 1024;

/**
 * Reads the update commands off the front of a receive-pack request body (`<old> <new> <ref>`, the
 * first with `\0<capabilities>`, up to a flush), leaving the rest of the stream (the pack) to read.
 * A body that is only a flush (git's probe before a large push, with http.postBuffer) has no commands.
 */
export async function readPushRequest(body: Readable): Promise<PushRequest> {
	const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
	let buffer: Buffer = Buffer.alloc(0);
	let ended = false;
	const need = async (bytes: number): Promise<boolean> => {
		while (buffer.byteLength < bytes && !ended) {
			const next = await chunks.next();
			if (next.done) ended = true;
			else buffer = Buffer.concat([buffer, next.value]);
			if (buffer.byteLength > MAX_COMMAND_BYTES + PKT_MAX)
				throw new PushProtocolError("the push's command list is too long");
		}
		return buffer.byteLength >= bytes;
	};
	const commands: PushCommand[] = [];
	let capabilities = new Set<string>();
	let read = 0;
	for (;;) {
		if (!(await need(4))) {
			if (buffer.byteLength === 0 && commands.length === 0) break;
			throw new PushProtocolError("the push request ended inside its command list");
		}
		const length = Number.parseInt(buffer.subarray(0, 4).toString("latin1"), 16);
		if (!/^[0-9a-f]{4}$/.test(buffer.subarray(0, 4).toString("latin1")) || (length > 0 && length < 4)) {
			throw new PushProtocolError("the push request is not in pkt-line format");
		}
		if (length === 0) {
			buffer = buffer.subarray(4);
			break;
		}
		if (!(await need(length))) throw new PushProtocolError("the push request ended inside a pkt-line");
		let line = buffer.subarray(4, length).toString("utf8");
		buffer = buffer.subarray(length);
		read += length;
		if (read > MAX_COMMAND_BYTES || commands.length >= MAX_COMMANDS)
			throw new PushProtocolError(`a push may update at most ${MAX_COMMANDS} refs`);
		if (line.startsWith("shallow ")) {
			throw new PushProtocolError(
				"pushing from a shallow clone is not supported: fetch the full history (git fetch --unshallow)",
			);
		}
		if (line.startsWith("push-cert")) throw new PushProtocolError("signed pushes are not supported");
		const nul = line.indexOf("\0");
		if (nul >= 0) {
			if (commands.length === 0)
				capabilities = new Set(
					line
						.slice(nul + 1)
						.trim()
						.split(" ")
						.filter(Boolean),
				);
			line = line.slice(0, nul);
		}
		const match = /^([0-9a-f]{40}) ([0-9a-f]{40}) (\S+)\n?$/.exec(line);
		if (!match) throw new PushProtocolError("a push command is not `<old id> <new id> <ref>`");
		commands.push({ oldId: match[1] as string, newId: match[2] as string, ref: match[3] as string });
	}
	const rest = buffer;
	const pack = Readable.from(
		(async function* () {
			if (rest.byteLength > 0) yield rest;
			if (ended) return;
			for (;;) {
				const next = await chunks.next();
				if (next.done) return;
				yield next.value;
			}
		})(),
		{ objectMode: false },
	);
	return { commands, capabilities, pack };
}

/** What became of one command. */
export type RefOutcome = { ref: string; ok: true } | { ref: string; ok: false; reason: string };

/** A reason on one line, as `ng` and `remote:` lines need it. */
export function oneLine(text: string, max = 400): string {
	const flat = [...text.replace(/[\r\n\t]+/g, " ")].filter((char) => !isControlCode(char.charCodeAt(0)));
	return flat.slice(0, max).join("").trim();
}

/**
 * The report-status answer (`unpack ok|<error>`, then `ok <ref>` or `ng <ref> <reason>` per command,
 * then a flush); with side-band-64k it goes in band 1, after `messages` in band 2 (git shows them as
 * `remote: …`), and the stream ends with a flush.
 */
export function reportStatus(
	unpack: string | undefined,
	outcomes: readonly RefOutcome[],
	options: { sideBand: boolean; messages?: readonly string[] },
): Buffer {
	const report = [pktLine(`unpack ${unpack === undefined ? "ok" : oneLine(unpack)}\n`)];
	for (const outcome of outcomes) {
		report.push(
			pktLine(outcome.ok ? `ok ${outcome.ref}\n` : `ng ${outcome.ref} ${oneLine(outcome.reason)}\n`),
		);
	}
	report.push(FLUSH);
	const status = Buffer.concat(report);
	if (!options.sideBand) return status;
	const parts: Buffer[] = [];
	for (const message of options.messages ?? []) {
		parts.push(
			pktLine(Buffer.concat([Buffer.from([2]), Buffer.from(`${oneLine(message, 1000)}\n`, "utf8")])),
		);
	}
	for (let start = 0; start < status.byteLength; start += PKT_MAX - 1) {
		parts.push(pktLine(Buffer.concat([Buffer.from([1]), status.subarray(start, start + PKT_MAX - 1)])));
	}
	parts.push(FLUSH);
	return Buffer.concat(parts);
}
