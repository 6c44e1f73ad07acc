import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import type { ReadRange } from "../analysis/types.js";
import { HubError, RETRY_AFTER_SECONDS } from "../errors.js";
import {
	PARSE_JOB_SUBJECT,
	type FromWorker,
	type ParseJobInput,
	type ParseJobName,
	type ParseJobOutput,
	type ToWorker,
} from "./jobs.js";
import { parseWorkerScript } from "./script.js";

/** The bounds of the parsing workers (one pool per hub process). */
export interface ParseSettings {
	/** Worker threads parsing at once (MODELHUB_PARSE_WORKERS). */
	workers: number;
	/** Requests' jobs (validate-yaml) that may wait for a worker; past them a 503 (MODELHUB_PARSE_QUEUE). */
	maxQueued: number;
	/**
	 * Milliseconds one job may run, not counting its waits for storage (MODELHUB_PARSE_TIMEOUT_MS); then
	 * its worker is terminated and replaced.
	 */
	timeoutMs: number;
	/** V8 heap of each worker in MiB (MODELHUB_PARSE_WORKER_MEMORY_MB): a parse needing more ends its worker only. */
	memoryMb: number;
}

export const DEFAULT_PARSE_SETTINGS: ParseSettings = {
	workers: 2,
	maxQueued: 64,
	timeoutMs: 30_000,
	memoryMb: 1024,
};

/** Every worker is busy and the queue is full, or the hub is stopping: 503, retry later. */
export class ParseBusyError extends HubError {
	override name = "ParseBusyError";
	constructor(message: string) {
		super("Unavailable", message, { headers: { "retry-after": String(RETRY_AFTER_SECONDS) } });
	}
}

/** The input cost more than a worker may spend (time or memory): its worker was replaced. */
export class ParseLimitError extends HubError {
	override name = "ParseLimitError";
	constructor(message: string) {
		super("Invalid", message);
	}
}

export interface ParseRunOptions {
	/** Where the job's file reads go (analysis jobs); a job without one reads nothing. */
	read?: ReadRange | undefined;
	/**
	 * A request's job, refused with ParseBusyError when the queue is full. The hub's own jobs (analysis,
	 * commits) wait instead: their number is bounded by the analysis's concurrency and the requests in flight.
	 */
	refusable?: boolean;
}

interface Job {
	name: ParseJobName;
	input: unknown;
	read: ReadRange | undefined;
	resolve: (value: unknown) => void;
	reject: (error: Error) => void;
}

interface Running {
	id: number;
	job: Job;
	/** Time left of the job's limit when its clock last stopped. */
	remainingMs: number;
	startedAt: number;
	timer: ReturnType<typeof setTimeout> | undefined;
	/** Reads the main thread is answering: the job's clock stops meanwhile. */
	readsInFlight: number;
}

interface Slot {
	worker: Worker;
	running: Running | undefined;
}

function stopping(): ParseBusyError {
	return new ParseBusyError("the hub is stopping; retry in a few seconds");
}

/** Bytes that can be handed to a worker without copying (their own whole buffer), else a copy. */
function transferable(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
	return bytes.buffer instanceof ArrayBuffer &&
		bytes.byteOffset === 0 &&
		bytes.byteLength === bytes.buffer.byteLength
		? (bytes as Uint8Array<ArrayBuffer>)
		: bytes.slice();
}

/**
 * A small pool of worker threads that run the hub's parsing (jobs.ts), so that a large or hostile file
 * never holds the event loop: a 256 KiB card's front matter costs about a second of CPU, a config.json
 * or a safetensors index tens to hundreds of milliseconds. Workers start on first use, run one job
 * each, and do not keep the process alive while idle. A job over its time limit has its worker
 * terminated (a replacement starts for the next job) and rejects with ParseLimitError; a full queue
 * refuses requests' jobs with ParseBusyError; closing terminates every worker.
 */
export class ParsePool {
	readonly settings: ParseSettings;
	private readonly queue: Job[] = [];
	private readonly slots = new Set<Slot>();
	private readonly terminations = new Set<Promise<unknown>>();
	private script: URL | undefined;
	private loading: Promise<void> | undefined;
	private nextId = 0;
	private closed = false;
	/** Workers terminated (a job overran) or lost (out of memory, crashed) and so replaced. */
	replaced = 0;

	constructor(
		settings: Partial<ParseSettings> = {},
		private readonly scriptOf: () => Promise<URL> = parseWorkerScript,
	) {
		this.settings = { ...DEFAULT_PARSE_SETTINGS, ...settings };
	}

	/** Worker threads alive. */
	get threads(): number {
		return this.slots.size;
	}

	/** Jobs running in a worker now. */
	get running(): number {
		let count = 0;
		for (const slot of this.slots) if (slot.running) count++;
		return count;
	}

	/** Jobs waiting for a worker. */
	get queued(): number {
		return this.queue.length;
	}

	/** Runs a job in a worker; rejects with ParseLimitError, ParseBusyError, or the job's own failure. */
	run<Name extends ParseJobName>(
		name: Name,
		input: ParseJobInput<Name>,
		options: ParseRunOptions = {},
	): Promise<ParseJobOutput<Name>> {
		if (this.closed) return Promise.reject(stopping());
		const free = this.settings.workers - this.running;
		if (options.refusable && this.queue.length >= free + this.settings.maxQueued) {
			const { workers, maxQueued } = this.settings;
			return Promise.reject(
				new ParseBusyError(
					`the hub is busy parsing: ${workers} workers busy and ${maxQueued} jobs waiting (MODELHUB_PARSE_WORKERS, MODELHUB_PARSE_QUEUE); retry in ${RETRY_AFTER_SECONDS} seconds`,
				),
			);
		}
		return new Promise<ParseJobOutput<Name>>((resolve, reject) => {
			this.queue.push({
				name,
				input,
				read: options.read,
				resolve: resolve as (value: unknown) => void,
				reject,
			});
			this.pump();
		});
	}

	/** Stops taking jobs, fails those waiting or running, and terminates every worker. */
	async close(): Promise<void> {
		this.closed = true;
		for (const job of this.queue.splice(0)) job.reject(stopping());
		for (const slot of [...this.slots]) {
			const running = slot.running;
			this.slots.delete(slot);
			slot.running = undefined;
			if (running) {
				clearTimeout(running.timer);
				running.job.reject(stopping());
			}
			this.terminate(slot.worker);
		}
		await Promise.allSettled(this.terminations);
	}

	private pump(): void {
		if (this.closed || this.queue.length === 0) return;
		const script = this.script;
		if (!script) {
			this.loading ??= this.scriptOf().then(
				(url) => {
					this.script = url;
					this.loading = undefined;
					this.pump();
				},
				(error: unknown) => {
					this.loading = undefined;
					const failure = new Error(`the parsing worker could not be loaded: ${(error as Error).message}`);
					for (const job of this.queue.splice(0)) job.reject(failure);
				},
			);
			return;
		}
		while (this.queue.length > 0) {
			let slot: Slot | undefined;
			for (const candidate of this.slots) if (!candidate.running) slot = candidate;
			if (!slot) {
				if (this.slots.size >= this.settings.workers) return;
				try {
					slot = this.spawn(script);
				} catch (error) {
					const failure = new Error(`the parsing worker could not be started: ${(error as Error).message}`);
					for (const job of this.queue.splice(0)) job.reject(failure);
					return;
				}
			}
			this.start(slot, this.queue.shift() as Job);
		}
	}

	private spawn(script: URL): Slot {
		const worker = new Worker(script, {
			resourceLimits: { maxOldGenerationSizeMb: this.settings.memoryMb },
		});
		// An idle worker does not keep the process alive (start() refs it while it works).
		worker.unref();
		const slot: Slot = { worker, running: undefined };
		this.slots.add(slot);
		worker.on("message", (message: FromWorker) => this.onMessage(slot, message));
		worker.on("error", (error: Error & { code?: string }) => {
			this.lose(slot, (subject) =>
				error.code === "ERR_WORKER_OUT_OF_MEMORY"
					? new ParseLimitError(
							`${subject} needed more than ${this.settings.memoryMb} MiB of memory to parse (MODELHUB_PARSE_WORKER_MEMORY_MB)`,
						)
					: new Error(`${subject}: the parsing worker failed: ${error.message}`),
			);
		});
		worker.on("exit", (code) =>
			this.lose(slot, (subject) => new Error(`${subject}: the parsing worker exited (code ${code})`)),
		);
		return slot;
	}

	private start(slot: Slot, job: Job): void {
		const running: Running = {
			id: this.nextId++,
			job,
			remainingMs: this.settings.timeoutMs,
			startedAt: 0,
			timer: undefined,
			readsInFlight: 0,
		};
		slot.running = running;
		slot.worker.ref();
		this.resumeClock(slot, running);
		try {
			slot.worker.postMessage({
				type: "job",
				id: running.id,
				name: job.name,
				input: job.input,
			} satisfies ToWorker);
		} catch (error) {
			this.finish(slot, running);
			job.reject(error as Error);
		}
	}

	private onMessage(slot: Slot, message: FromWorker): void {
		const running = slot.running;
		if (!running || message.id !== running.id) return;
		if (message.type === "read") {
			this.serveRead(slot, running, message);
		} else if (message.type === "done") {
			this.finish(slot, running);
			running.job.resolve(message.result);
		} else {
			this.finish(slot, running);
			running.job.reject(new Error(`${PARSE_JOB_SUBJECT[running.job.name]}: ${message.message}`));
		}
	}

	/** Answers a worker's read from storage; the job's clock stops while the main thread reads. */
	private serveRead(slot: Slot, running: Running, message: Extract<FromWorker, { type: "read" }>): void {
		const { readId } = message;
		const read = running.job.read;
		if (!read) {
			slot.worker.postMessage({
				type: "read-failed",
				readId,
				message: "this job reads no files",
			} satisfies ToWorker);
			return;
		}
		if (running.readsInFlight++ === 0) this.stopClock(running);
		read(message.path, message.start, message.end)
			.then(
				(bytes) => {
					if (slot.running !== running) return;
					const owned = transferable(bytes);
					slot.worker.postMessage({ type: "read-result", readId, bytes: owned } satisfies ToWorker, [
						owned.buffer,
					]);
				},
				(error: unknown) => {
					if (slot.running !== running) return;
					const text = error instanceof Error ? error.message : String(error);
					slot.worker.postMessage({ type: "read-failed", readId, message: text } satisfies ToWorker);
				},
			)
			.finally(() => {
				if (slot.running === running && --running.readsInFlight === 0) this.resumeClock(slot, running);
			});
	}

	private resumeClock(slot: Slot, running: Running): void {
		running.startedAt = performance.now();
		running.timer = setTimeout(() => this.overran(slot, running), Math.max(0, running.remainingMs));
	}

	private stopClock(running: Running): void {
		clearTimeout(running.timer);
		running.timer = undefined;
		running.remainingMs -= performance.now() - running.startedAt;
	}

	private overran(slot: Slot, running: Running): void {
		if (slot.running !== running) return;
		this.retire(slot);
		running.job.reject(
			new ParseLimitError(
				`${PARSE_JOB_SUBJECT[running.job.name]} took longer than ${this.settings.timeoutMs} ms to parse (MODELHUB_PARSE_TIMEOUT_MS)`,
			),
		);
		this.pump();
	}

	/** A worker died (out of memory, crashed, exited): its job fails, a new worker takes the next. */
	private lose(slot: Slot, reason: (subject: string) => Error): void {
		if (!this.slots.has(slot)) return;
		const running = slot.running;
		this.retire(slot);
		if (running) running.job.reject(reason(PARSE_JOB_SUBJECT[running.job.name]));
		this.pump();
	}

	/** Takes a worker out of the pool and terminates it. */
	private retire(slot: Slot): void {
		this.slots.delete(slot);
		if (slot.running) clearTimeout(slot.running.timer);
		slot.running = undefined;
		this.replaced++;
		this.terminate(slot.worker);
	}

	private terminate(worker: Worker): void {
		const terminated: Promise<unknown> = worker
			.terminate()
			.catch(() => undefined)
			.finally(() => this.terminations.delete(terminated));
		this.terminations.add(terminated);
	}

	private finish(slot: Slot, running: Running): void {
		clearTimeout(running.timer);
		if (slot.running === running) slot.running = undefined;
		slot.worker.unref();
		this.pump();
	}
}
