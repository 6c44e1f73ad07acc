// SSE throughput: chatCompletionStream over a local 50,000-chunk stream, against a floor of raw
// fetch + line splitting + JSON.parse in the same run. Needs `npm run build` first.
// Prints one JSON line: {"bench":"sse", chunks, ours_chunks_per_s, floor_chunks_per_s, ratio, ...}.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const { chatCompletionStream } = await import(join(here, "..", "dist", "index.js"));

const CHUNKS = 50_000;
const ROUNDS = 9;

// The server runs in its own process so that it does not share the event loop with the client.
const serverSource = `
import { createServer } from "node:http";
const n = ${CHUNKS};
const parts = [];
for (let i = 0; i < n; i++) {
	parts.push("data: " + JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m",
		choices: [{ index: 0, delta: { role: "assistant", content: "tok" + (i % 100) }, finish_reason: null }] }) + "\\n\\n");
}
parts.push("data: [DONE]\\n\\n");
const payload = Buffer.from(parts.join(""));
const server = createServer((req, res) => {
	req.resume();
	req.on("end", () => {
		res.writeHead(200, { "content-type": "text/event-stream" });
		let offset = 0;
		const step = 16384;
		const pump = () => {
			while (offset < payload.length) {
				const ok = res.write(payload.subarray(offset, offset + step));
				offset += step;
				if (!ok) return res.once("drain", pump);
			}
			res.end();
		};
		pump();
	});
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

const child = spawn(process.execPath, ["--input-type=module", "-e", serverSource], {
	stdio: ["ignore", "pipe", "inherit"],
});
const port = await new Promise((resolve) =>
	child.stdout.once("data", (data) => resolve(Number(String(data).trim()))),
);
const url = `http://127.0.0.1:${port}/v1/chat/completions`;

async function ours() {
	let count = 0;
	for await (const chunk of chatCompletionStream({
		endpointUrl: url,
		messages: [{ role: "user", content: "hi" }],
	})) {
		if (chunk.choices[0].delta.content) count++;
	}
	return count;
}

async function floor() {
	const response = await fetch(url, {
		method: "POST",
		headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], stream: true }),
	});
	const decoder = new TextDecoder();
	let rest = "";
	let count = 0;
	for await (const bytes of response.body) {
		const lines = (rest + decoder.decode(bytes, { stream: true })).split("\n");
		rest = lines.pop();
		for (const line of lines) {
			if (!line.startsWith("data: ")) continue;
			const data = line.slice(6);
			if (data === "[DONE]") continue;
			if (JSON.parse(data).choices[0].delta.content) count++;
		}
	}
	return count;
}

async function timed(fn) {
	const start = performance.now();
	const count = await fn();
	if (count !== CHUNKS) throw new Error(`expected ${CHUNKS} chunks, got ${count}`);
	return CHUNKS / ((performance.now() - start) / 1000);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
	// Warm-up (JIT, connection pool), then alternate so both see the same machine state.
	await timed(floor);
	await timed(ours);
	const oursRates = [];
	const floorRates = [];
	for (let round = 0; round < ROUNDS; round++) {
		floorRates.push(await timed(floor));
		oursRates.push(await timed(ours));
	}
	// Each round runs the floor and ours back to back, so their ratio is little disturbed by other work
	// on the machine; the reported ratio is the median of the per-round ratios.
	const oursRate = median(oursRates);
	const floorRate = median(floorRates);
	const ratio = median(oursRates.map((rate, round) => rate / floorRates[round]));
	console.log(
		JSON.stringify({
			bench: "sse",
			chunks: CHUNKS,
			rounds: ROUNDS,
			ours_chunks_per_s: Math.round(oursRate),
			floor_chunks_per_s: Math.round(floorRate),
			ratio: Number(ratio.toFixed(3)),
			target_ratio: 0.9,
		}),
	);
} finally {
	child.kill();
}
