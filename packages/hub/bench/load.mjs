// A small HTTP/1.1 load generator over raw keep-alive sockets: `connections` sockets, each sending one
// request after the other (no pipelining) for `seconds`. Written here because autocannon (the other
// benchmarks' generator) waits for a body after a HEAD whose answer has a Content-Length, and HEAD is
// what huggingface_hub sends first for every file. It parses only what it needs: the status line,
// Content-Length and Connection (answers must carry a Content-Length: chunked ones count as errors).
import { connect } from "node:net";
import { performance } from "node:perf_hooks";

const HEADER_END = Buffer.from("\r\n\r\n");
/** An answer's head larger than this is an error (no server measured here sends one). */
const MAX_HEAD_BYTES = 64 * 1024;

/** Reads the head of an answer: status, body length (-1: none given), whether the server closes. */
function parseHead(head) {
	const text = head.toString("latin1");
	const status = Number(text.slice(9, 12));
	const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(text);
	const close = /\r\nconnection:[ \t]*close/i.test(text);
	return { status, length: length ? Number(length[1]) : -1, close };
}

/**
 * Loads `url` with `method` (GET or HEAD) from `connections` keep-alive sockets for `seconds`. Returns
 * `{ requests, seconds, rps, p50Ms, p99Ms, errors, statuses }`: every answer is counted, non-2xx/304
 * statuses and broken answers as errors.
 */
export function loadRaw(url, { connections, seconds, method = "GET", headers = {} }) {
	const target = new URL(url);
	const lines = [`${method} ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`];
	for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
	const request = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
	const latencies = [];
	const statuses = {};
	let errors = 0;
	let requests = 0;
	const started = performance.now();
	const deadline = started + seconds * 1000;

	return new Promise((resolve) => {
		let open = 0;
		const finish = () => {
			if (--open > 0) return;
			const elapsed = (performance.now() - started) / 1000;
			latencies.sort((a, b) => a - b);
			const at = (q) =>
				latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] : 0;
			resolve({
				requests,
				seconds: elapsed,
				rps: Math.round(requests / elapsed),
				p50Ms: Math.round(at(0.5) * 100) / 100,
				p99Ms: Math.round(at(0.99) * 100) / 100,
				errors,
				statuses,
			});
		};

		const run = () => {
			open++;
			const socket = connect(Number(target.port), target.hostname);
			socket.setNoDelay(true);
			let buffer = Buffer.alloc(0);
			let head;
			let sentAt = 0;
			let done = false;
			const send = () => {
				if (performance.now() >= deadline) {
					done = true;
					socket.end();
					return;
				}
				sentAt = performance.now();
				socket.write(request);
			};
			const answered = (status, close) => {
				requests++;
				statuses[status] = (statuses[status] ?? 0) + 1;
				if (!((status >= 200 && status < 300) || status === 304)) errors++;
				latencies.push(performance.now() - sentAt);
				if (close) {
					done = true;
					socket.end();
					if (performance.now() < deadline) run();
					return;
				}
				send();
			};
			socket.on("connect", send);
			socket.on("data", (chunk) => {
				buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
				for (;;) {
					if (head === undefined) {
						const end = buffer.indexOf(HEADER_END);
						if (end < 0) {
							if (buffer.length > MAX_HEAD_BYTES) socket.destroy(new Error("answer head too large"));
							return;
						}
						head = parseHead(buffer.subarray(0, end));
						buffer = buffer.subarray(end + 4);
						if (head.length < 0 && method !== "HEAD" && head.status !== 304 && head.status !== 204) {
							socket.destroy(new Error("an answer without Content-Length"));
							return;
						}
					}
					const bodyLength = method === "HEAD" || head.status === 304 ? 0 : head.length;
					if (buffer.length < bodyLength) return;
					buffer = buffer.subarray(bodyLength);
					const { status, close } = head;
					head = undefined;
					answered(status, close);
					if (done || buffer.length === 0) return;
				}
			});
			socket.on("error", () => {
				if (!done) errors++;
				done = true;
			});
			socket.on("close", () => {
				if (!done && performance.now() < deadline) {
					errors++;
					run();
				}
				finish();
			});
		};
		for (let n = 0; n < connections; n++) run();
	});
}
