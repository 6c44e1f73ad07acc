import { SseParser } from "../core/sse.js";
import { checkedNumber, type CallContext } from "../internal/context.js";
import {
	connectionError,
	errorObjectMessage,
	protocolError,
	type PreparedRequest,
} from "../internal/http.js";

type Opened = {
	response: Response;
	request: PreparedRequest;
	/** Turns each parsed payload into the chunk handed out (text generation over OpenAI-style routes). */
	transform?: (payload: unknown) => unknown;
};

const DONE: IteratorReturnResult<void> = { done: true, value: undefined };

function forwardedMessage(error: unknown): string {
	return typeof error === "string" ? error : (errorObjectMessage(error) ?? JSON.stringify(error));
}

/** The `maxEventSize` option: a positive number of characters, or the parser's default. */
function maxEventSizeOf(ctx: CallContext): number | undefined {
	const value = ctx.options.maxEventSize;
	return value === undefined
		? undefined
		: checkedNumber(value, "maxEventSize", "a positive number of characters");
}

/**
 * The chunks of a streaming call, as an AsyncGenerator. Written by hand rather than as an `async
 * function*` because a generator costs several promise hops per chunk: here the chunks of one network
 * read are parsed together and handed out from a buffer with one resolved promise each. Semantics
 * follow 3.12.1's generator: nothing is sent before the first `next()`; `[DONE]` or the end of
 * the body ends it; a forwarded error or bad JSON is thrown after the chunks before it; `return()`
 * (e.g. `break`) cancels the body.
 */
export class EventStream<T> implements AsyncGenerator<T, void, unknown> {
	private buffer: T[] = [];
	private index = 0;
	private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
	private parser: SseParser | undefined;
	private ctx: CallContext | undefined;
	private opened: Opened | undefined;
	private pendingError: unknown;
	private hasPendingError = false;
	/** No more network reads: [DONE] seen or the body ended. */
	private drained = false;
	private closed = false;
	private pulling: Promise<IteratorResult<T, void>> | undefined;

	/** `makeContext` runs at the first `next()`: the timeout starts then, and a bad option is reported then. */
	constructor(
		private readonly open: (ctx: CallContext) => Promise<Opened>,
		private readonly makeContext: () => CallContext,
	) {}

	next(): Promise<IteratorResult<T, void>> {
		if (this.index < this.buffer.length) {
			return Promise.resolve({ done: false, value: this.buffer[this.index++] as T });
		}
		if (this.pulling) return this.pulling.then(() => this.next());
		const pull = this.pull();
		this.pulling = pull;
		const clear = () => {
			if (this.pulling === pull) this.pulling = undefined;
		};
		pull.then(clear, clear);
		return pull;
	}

	async return(): Promise<IteratorResult<T, void>> {
		await this.close();
		return DONE;
	}

	async throw(error: unknown): Promise<IteratorResult<T, void>> {
		await this.close();
		throw error;
	}

	[Symbol.asyncIterator](): this {
		return this;
	}

	async [Symbol.asyncDispose](): Promise<void> {
		await this.close();
	}

	private async pull(): Promise<IteratorResult<T, void>> {
		try {
			for (;;) {
				if (this.index < this.buffer.length) return { done: false, value: this.buffer[this.index++] as T };
				if (this.hasPendingError) {
					this.hasPendingError = false;
					throw this.pendingError;
				}
				if (this.closed || this.drained) {
					await this.close();
					return DONE;
				}
				if (!this.opened) {
					this.ctx ??= this.makeContext();
					this.parser = new SseParser({ maxEventSize: maxEventSizeOf(this.ctx) });
					this.opened = await this.open(this.ctx);
					if (!this.opened.response.body) {
						this.drained = true;
						continue;
					}
					this.reader = this.opened.response.body.getReader();
				}
				const { response, request } = this.opened;
				let chunk: ReadableStreamReadResult<Uint8Array>;
				try {
					chunk = await (this.reader as ReadableStreamDefaultReader<Uint8Array>).read();
				} catch (error) {
					throw connectionError(request.url, error, this.ctx?.signal, true);
				}
				if (chunk.done) this.drained = true;
				const parser = this.parser as SseParser;
				this.fill(chunk.done ? parser.finish() : parser.feed(chunk.value));
				// Past maxEventSize: a line or an event that never ends is not buffered any further;
				// the chunks before it are handed out first.
				if (parser.error && !this.hasPendingError)
					this.fail(protocolError(parser.error.message, response, request));
			}
		} catch (error) {
			await this.close();
			throw this.ctx ? this.ctx.normalizeError(error) : error;
		}
	}

	/** Parses the events of one read into the buffer; an error waits until the chunks before it are taken. */
	private fill(events: Array<{ data: string }>): void {
		const { response, request, transform } = this.opened as Opened;
		const buffer: T[] = [];
		for (let i = 0; i < events.length; i++) {
			const data = (events[i] as { data: string }).data;
			if (data.length === 0) continue;
			if (data === "[DONE]") {
				this.drained = true;
				break;
			}
			let parsed: unknown;
			try {
				parsed = JSON.parse(data);
			} catch (error) {
				this.fail(error);
				break;
			}
			if (typeof parsed === "object" && parsed !== null && "error" in parsed) {
				const message = forwardedMessage((parsed as { error: unknown }).error);
				this.fail(protocolError(`Error forwarded from backend: ${message}`, response, request));
				break;
			}
			buffer.push((transform ? transform(parsed) : parsed) as T);
		}
		this.buffer = buffer;
		this.index = 0;
	}

	private fail(error: unknown): void {
		this.pendingError = error;
		this.hasPendingError = true;
		this.drained = true;
	}

	private async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		this.buffer = [];
		this.index = 0;
		const reader = this.reader;
		this.reader = undefined;
		if (reader) {
			await reader.cancel().catch(() => undefined);
			reader.releaseLock();
		}
		this.ctx?.dispose();
	}
}
