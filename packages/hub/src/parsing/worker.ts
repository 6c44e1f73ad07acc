/**
 * The parsing worker's entry (a worker thread; dist/parse-worker.js when built): runs one job at a time
 * from PARSE_JOBS and asks the main thread for the bytes a job reads, since storage (disk, S3) lives
 * there. Nothing here decides limits: the pool times jobs and replaces a worker that overran.
 */
import { parentPort } from "node:worker_threads";
import type { ReadRange } from "../analysis/types.js";
import { PARSE_JOBS, type FromWorker, type ParseJobName, type ToWorker } from "./jobs.js";

const port = parentPort;
if (!port) throw new Error("the parsing worker runs only as a worker thread");

const reads = new Map<number, { resolve: (bytes: Uint8Array) => void; reject: (error: Error) => void }>();
let nextReadId = 0;

function send(message: FromWorker): void {
	port?.postMessage(message);
}

async function run(id: number, name: ParseJobName, input: unknown): Promise<void> {
	const read: ReadRange = (path, start, end) =>
		new Promise((resolve, reject) => {
			const readId = nextReadId++;
			reads.set(readId, { resolve, reject });
			send({ type: "read", id, readId, path, start, end });
		});
	try {
		const job = PARSE_JOBS[name] as (input: unknown, read: ReadRange) => unknown;
		send({ type: "done", id, result: await job(input, read) });
	} catch (error) {
		send({
			type: "failed",
			id,
			message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
		});
	}
}

port.on("message", (message: ToWorker) => {
	if (message.type === "job") {
		void run(message.id, message.name, message.input);
		return;
	}
	const waiting = reads.get(message.readId);
	if (!waiting) return;
	reads.delete(message.readId);
	if (message.type === "read-result") waiting.resolve(message.bytes);
	else waiting.reject(new Error(message.message));
});
