/**
 * Server-sent events (https://html.spec.whatwg.org/multipage/server-sent-events.html) as the
 * 3.12.1 client reads them: lines end at \n, \r or \r\n; a line without a colon is ignored; an
 * event still open when the stream ends is dropped. The parser is pure and keeps its own state,
 * so any chunking of the same bytes gives the same events.
 */
export interface SseEvent {
	event: string;
	data: string;
	id: string;
	retry?: number;
}

const LF = 10;

/** Default bound of one event (its data lines together) and of one line: 4 Mi characters. */
export const DEFAULT_MAX_EVENT_SIZE = 4_194_304; // 4 Mi

export interface SseParserOptions {
	/**
	 * Largest event (its `data` lines together) and largest single line (field name included), in
	 * characters (bytes for ASCII). Past it the parser stops instead of buffering without end (see
	 * `SseParser.error`). Default 4 Mi.
	 */
	maxEventSize?: number;
}

export class SseParser {
	private readonly maxEventSize: number;
	private readonly decoder = new TextDecoder();
	/** Start of a line whose end has not arrived yet. */
	private pending = "";
	/** The previous chunk ended with \r: a \n at the start of the next one completes that line break. */
	private afterCarriageReturn = false;
	private data: string | undefined;
	private eventType = "";
	private lastId = "";
	private retry: number | undefined;
	/**
	 * Set once a line or an event passed `maxEventSize`: the `feed` that met it returned the events
	 * completed before it, and every later `feed` or `finish` throws this RangeError.
	 */
	error: RangeError | undefined;

	constructor(options: SseParserOptions = {}) {
		this.maxEventSize = options.maxEventSize ?? DEFAULT_MAX_EVENT_SIZE;
	}

	/** Feeds one chunk of bytes; returns the events it completed (possibly none). Throws once `error` is set. */
	feed(chunk: Uint8Array): SseEvent[] {
		if (this.error) throw this.error;
		return this.push(this.decoder.decode(chunk, { stream: true }));
	}

	/** Ends the stream. An event not followed by a blank line is dropped, as in 3.12.1. */
	finish(): SseEvent[] {
		if (this.error) throw this.error;
		const events = this.push(this.decoder.decode());
		this.pending = "";
		this.data = undefined;
		this.eventType = "";
		return events;
	}

	private push(text: string): SseEvent[] {
		const events: SseEvent[] = [];
		if (text.length === 0) return events;
		let start = 0;
		if (this.afterCarriageReturn) {
			this.afterCarriageReturn = false;
			if (text.charCodeAt(0) === LF) start = 1;
		}
		const length = text.length;
		let nextLf = text.indexOf("\n", start);
		let nextCr = text.indexOf("\r", start);
		while (nextLf !== -1 || nextCr !== -1) {
			let end: number;
			let next: number;
			if (nextCr === -1 || (nextLf !== -1 && nextLf < nextCr)) {
				end = nextLf;
				next = end + 1;
			} else {
				end = nextCr;
				if (end + 1 === length) {
					this.afterCarriageReturn = true;
					next = length;
				} else {
					next = text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
				}
			}
			let line = text.slice(start, end);
			if (this.pending.length > 0) {
				line = this.pending + line;
				this.pending = "";
			}
			this.processLine(line, events);
			if (this.error) return events;
			start = next;
			if (nextLf !== -1 && nextLf < start) nextLf = text.indexOf("\n", start);
			if (nextCr !== -1 && nextCr < start) nextCr = text.indexOf("\r", start);
		}
		if (start < length) this.pending = this.bounded(this.pending + text.slice(start));
		return events;
	}

	/** A line or an event's data; past the limit, nothing, and the parser stops (`error`). */
	private bounded(text: string): string {
		if (text.length <= this.maxEventSize) return text;
		this.error ??= new RangeError(
			`Server-sent event larger than ${this.maxEventSize} characters (maxEventSize): a line or an event that does not end`,
		);
		return "";
	}

	private processLine(line: string, events: SseEvent[]): void {
		if (line.length === 0) {
			if (this.data !== undefined) {
				const event: SseEvent = { event: this.eventType, data: this.data, id: this.lastId };
				if (this.retry !== undefined) event.retry = this.retry;
				events.push(event);
			}
			this.data = undefined;
			this.eventType = "";
			return;
		}
		const colon = line.indexOf(":");
		// Comments start with ":"; 3.12.1 also ignores lines without any colon.
		if (colon <= 0) return;
		const field = line.slice(0, colon);
		const valueStart = line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1;
		const value = line.slice(valueStart);
		switch (field) {
			case "data":
				this.data = this.bounded(this.data === undefined ? value : this.data + "\n" + value);
				break;
			case "event":
				this.eventType = value;
				break;
			case "id":
				if (!value.includes("\0")) this.lastId = value;
				break;
			case "retry":
				if (/^\d+$/.test(value)) this.retry = Number(value);
				break;
		}
	}
}

/**
 * Reads a byte stream as SSE events. Stopping early (break, return, throw) cancels the stream so the
 * connection is released; the reader lock is released in every case.
 */
export async function* iterateSseEvents(
	stream: ReadableStream<Uint8Array>,
	options?: SseParserOptions,
): AsyncGenerator<SseEvent, void> {
	const reader = stream.getReader();
	const parser = new SseParser(options);
	let finished = false;
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) {
				finished = true;
				yield* parser.finish();
				return;
			}
			const events = parser.feed(value);
			for (let i = 0; i < events.length; i++) yield events[i] as SseEvent;
			if (parser.error) throw parser.error;
		}
	} finally {
		if (!finished) await reader.cancel().catch(() => undefined);
		reader.releaseLock();
	}
}
