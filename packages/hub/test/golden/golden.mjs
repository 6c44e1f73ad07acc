// The golden answers: a fixed list of requests to a freshly seeded hub, and how one answer is captured.
// Shared by record.mjs (writes answers.json) and ../golden.test.ts (replays it), so both start the hub
// and read its answers in exactly the same way. Plain JavaScript so that the recorder runs with node alone.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** The admin token of the golden hub: fixed, so that admin answers are the same on every run. */
export const GOLDEN_ADMIN_TOKEN = "golden-admin-token-0123456789abcdef";

/**
 * Every request carries this Host, so that absolute URLs the hub writes (Link headers) do not depend on
 * the random port the hub listens on.
 */
export const GOLDEN_HOST = "hub.golden.test";

/** The response headers compared. Date, Connection and Keep-Alive vary by nature and are left out. */
export const RECORDED_HEADERS = [
	"content-type",
	"content-length",
	"content-encoding",
	"content-range",
	"accept-ranges",
	"etag",
	"last-modified",
	"cache-control",
	"vary",
	"location",
	"link",
	"x-next-cursor",
	"x-total-count",
	"x-repo-commit",
	"x-linked-etag",
	"x-linked-size",
	"x-error-code",
	"x-error-message",
	"retry-after",
	"www-authenticate",
	"allow",
	"access-control-allow-origin",
	"access-control-allow-methods",
	"access-control-allow-headers",
	"access-control-expose-headers",
	"access-control-allow-credentials",
	"access-control-max-age",
	"content-security-policy",
	"x-content-type-options",
	"referrer-policy",
	"x-frame-options",
];

/** Bodies up to this size are kept whole; larger ones as their SHA-256, length and first bytes. */
export const FULL_BODY_LIMIT = 64 * 1024;
const HEAD_BYTES = 2048;

/**
 * A stand-in for the built web app: the hub's part of a page (status, title and description written
 * into index.html, static files, their headers) without the answers changing whenever the web app's
 * build does (its asset names are content hashes). The files get a fixed modification time, which the
 * static files' ETag and Last-Modified are made from.
 */
const WEB_FILES = {
	"index.html": `<!doctype html>
<html lang="en">
	<head>
		<meta charset="utf-8" />
		<meta name="viewport" content="width=device-width, initial-scale=1" />
		<meta
			name="description"
			content="ModelHub: browse machine-learning tasks and libraries, and use any model."
		/>
		<link rel="icon" href="/favicon.svg" type="image/svg+xml" />
		<title>ModelHub</title>
		<script type="module" crossorigin src="/assets/index-golden.js"></script>
	</head>
	<body>
		<div id="root"></div>
	</body>
</html>
`,
	"favicon.svg": `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16"/></svg>\n`,
	"assets/index-golden.js": `document.getElementById("root").textContent = "golden";\n`,
};
const WEB_FILES_TIME = new Date("2025-01-01T00:00:00Z");

/**
 * Starts the hub as `npm start` does (the CLI's `serve`, seeding the empty embedded database) on a new
 * data folder, with nothing from the caller's environment but PATH.
 * @param {string} cli the built CLI (dist/cli.js or a build of the current sources)
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function startGoldenHub(cli) {
	const dir = mkdtempSync(join(tmpdir(), "modelhub-golden-"));
	const webDir = join(dir, "web");
	for (const [path, text] of Object.entries(WEB_FILES)) {
		const file = join(webDir, path);
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, text);
		utimesSync(file, WEB_FILES_TIME, WEB_FILES_TIME);
	}
	const child = spawn(process.execPath, [cli, "serve"], {
		env: {
			PATH: process.env.PATH ?? "",
			HOST: "127.0.0.1",
			PORT: "0",
			MODELHUB_DATA_DIR: join(dir, "data"),
			MODELHUB_WEB_DIR: webDir,
			MODELHUB_ADMIN_TOKEN: GOLDEN_ADMIN_TOKEN,
			MODELHUB_LOG_LEVEL: "warn",
		},
		stdio: ["ignore", "pipe", "pipe"],
	});
	let output = "";
	const exited = new Promise((resolve) => child.on("exit", resolve));
	const close = async () => {
		if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
		await exited;
		rmSync(dir, { recursive: true, force: true });
	};
	try {
		const url = await new Promise((resolve, reject) => {
			const timer = setTimeout(
				() => reject(new Error(`the hub did not start in 120 s:\n${output}`)),
				120_000,
			);
			const onData = (chunk) => {
				output += chunk.toString("utf8");
				const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
				if (match) {
					clearTimeout(timer);
					resolve(match[1]);
				}
			};
			child.stdout.on("data", onData);
			child.stderr.on("data", onData);
			child.on("exit", (code) => {
				clearTimeout(timer);
				reject(new Error(`the hub exited (${code}) before listening:\n${output}`));
			});
		});
		return { url, close };
	} catch (error) {
		await close();
		throw error;
	}
}

/**
 * Sends one request exactly as written (the path is not normalised, unlike fetch) and captures the answer.
 * @param {string} base the hub's URL
 * @param {{ method: string, path: string, headers?: Record<string, string>, body?: string }} request
 */
export function captureAnswer(base, request) {
	const url = new URL(base);
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			{
				host: url.hostname,
				port: url.port,
				method: request.method,
				path: request.path,
				// The recorder reads as the hub's own reader: its file requests are not downloads, so that no
				// answer depends on how many of them were counted before (src/services/downloads.ts).
				headers: { host: GOLDEN_HOST, "x-modelhub-internal-read": "golden", ...request.headers },
				// A new connection per request: nothing of one answer depends on the one before.
				agent: false,
			},
			(res) => {
				const chunks = [];
				res.on("data", (chunk) => chunks.push(chunk));
				res.on("error", reject);
				res.on("end", () => {
					const headers = {};
					for (const name of RECORDED_HEADERS) {
						const value = res.headers[name];
						if (value !== undefined) headers[name] = Array.isArray(value) ? value.join("\n") : value;
					}
					resolve({ status: res.statusCode ?? 0, headers, body: describeBody(Buffer.concat(chunks)) });
				});
			},
		);
		req.on("error", reject);
		req.setTimeout(60_000, () =>
			req.destroy(new Error(`no answer in 60 s to ${request.method} ${request.path}`)),
		);
		if (request.body !== undefined) req.write(request.body);
		req.end();
	});
}

/** A body as text (UTF-8) or base64 when small, otherwise its digest, length and first bytes. */
export function describeBody(bytes) {
	if (bytes.length > FULL_BODY_LIMIT) {
		return {
			sha256: createHash("sha256").update(bytes).digest("hex"),
			length: bytes.length,
			headBase64: bytes.subarray(0, HEAD_BYTES).toString("base64"),
		};
	}
	try {
		return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
	} catch {
		return { base64: bytes.toString("base64") };
	}
}

const JSON_BODY = { "content-type": "application/json" };
const FORM_BODY = { "content-type": "application/x-www-form-urlencoded" };
const ADMIN = { authorization: `Bearer ${GOLDEN_ADMIN_TOKEN}` };
/** What a browser sends with a page load (the encodings matter: the web app's files are precompressed). */
const HTML = { accept: "text/html,application/xhtml+xml", "accept-encoding": "gzip, deflate, br" };

/** In GOLDEN_REQUESTS: the next page of the request before. */
export const FOLLOW_LINK = { followLink: true };

const get = (path, headers) => ({ method: "GET", path, ...(headers ? { headers } : {}) });
const head = (path, headers) => ({ method: "HEAD", path, ...(headers ? { headers } : {}) });
const post = (path, body, headers) => ({ method: "POST", path, headers, body });

/** Models of every kind in the seed: chat LLMs, encoders, diffusion, audio, GGUF, legacy libraries. */
/**
 * The seed's commit of google-bert/bert-base-uncased: commit ids are made from the seed's own contents
 * and dates, so they are the same on every run.
 */
const BERT_COMMIT = "25cce1a60a7cd6b9bee81d12962e2a89371cddcc";

const MODELS = [
	"meta-llama/Llama-3.1-8B-Instruct",
	"meta-llama/Llama-3.3-70B-Instruct",
	"google-bert/bert-base-uncased",
	"openai/whisper-large-v3",
	"black-forest-labs/FLUX.1-dev",
	"sentence-transformers/all-MiniLM-L6-v2",
	"Qwen/Qwen2-0.5B-Instruct-GGUF",
	"unsloth/DeepSeek-R1-GGUF",
	"google/vit-base-patch16-224",
	"microsoft/resnet-50",
	"HuggingFaceTB/SmolVLM-Instruct",
	"allenai/bidaf-elmo",
	"facebook/audioseal",
	"sb3/dqn-SpaceInvadersNoFrameskip-v4",
	"ZhengPeng7/BiRefNet",
	"distilbert/distilbert-base-uncased",
];

/**
 * The requests, in order. FOLLOW_LINK stands for a GET of the `Link` target of the answer just before
 * (the next page): the recorder resolves it, and answers.json holds the plain request.
 */
export const GOLDEN_REQUESTS = [
	// Health and catalogues.
	get("/healthz"),
	get("/api/tasks"),
	get("/api/tasks", { "accept-encoding": "gzip" }),
	get("/api/tasks", { "accept-encoding": "br" }),
	get("/api/tasks", { "if-none-match": '"HLTtDMirUUJaGGDStVj2rSbXivA"' }),
	get("/api/libraries"),
	get("/api/pipelines"),

	// Listings.
	get("/api/models"),
	get("/api/models?limit=5"),
	get("/api/models?limit=3&full=true"),
	get("/api/models?limit=3&config=true"),
	get("/api/models?limit=3&cardData=true"),
	get("/api/models?limit=3&full=true&config=true&cardData=true"),
	get("/api/models?search=llama"),
	get("/api/models?search=llama%203.3"),
	get("/api/models?search=LLAMA&limit=4&sort=id&direction=1"),
	get("/api/models?author=meta-llama"),
	get("/api/models?author=META-LLAMA&sort=likes"),
	get("/api/models?author=nobody-at-all"),
	get("/api/models?filter=text-generation&limit=10"),
	get("/api/models?filter=text-generation&filter=transformers&filter=conversational"),
	get("/api/models?filter=gguf"),
	get("/api/models?filter=dataset:imagenet-1k"),
	get("/api/models?pipeline_tag=text-to-image"),
	get("/api/models?pipeline_tag=automatic-speech-recognition&library=transformers"),
	get("/api/models?library=sentence-transformers&sort=downloads&direction=1"),
	get("/api/models?library=diffusers&limit=5&sort=likes"),
	get("/api/models?sort=lastModified&limit=7"),
	get("/api/models?sort=createdAt&direction=1&limit=7"),
	get("/api/models?sort=trendingScore&limit=7"),
	get("/api/models?sort=id&limit=7"),
	get("/api/models?sort=id&direction=-1&limit=7"),
	get("/api/models?limit=4&expand[]=inferenceProviderMapping"),
	get("/api/models?limit=4&expand=inferenceProviderMapping&expand=safetensors"),
	get("/api/models?limit=3&expand[]=gguf&filter=gguf"),
	get("/api/models?limit=3&expand[]=sha&expand[]=siblings&expand[]=usedStorage"),
	get("/api/models?limit=3&expand[]=cardData&expand[]=config&expand[]=transformersInfo"),
	get("/api/models?limit=3&expand[]=spaces&expand[]=evalResults"),
	get("/api/models?inference_provider=together&limit=10"),
	get("/api/models?inference_provider=together,groq&limit=10"),
	get("/api/models?inference_provider=all&limit=10&sort=id"),
	get("/api/models?inference=warm&limit=10&sort=id"),
	get("/api/models?num_parameters=min:6B,max:128B&limit=10"),
	get("/api/models?num_parameters=min:500M&sort=id&limit=10"),
	get("/api/models?num_parameters=max:1.5B&sort=id&limit=10"),
	get("/api/models?gated=true"),
	get("/api/models?gated=false&limit=2"),
	get("/api/models?limit=2000&sort=id"),
	get("/api/models?limit=50&sort=id&full=true"),
	get("/api/models?limit=100&sort=id"),
	FOLLOW_LINK,
	get("/api/models?limit=60&sort=likes&direction=1"),
	FOLLOW_LINK,
	get("/api/models?limit=25&sort=lastModified&filter=transformers"),
	FOLLOW_LINK,
	get("/api/models?limit=20&sort=createdAt&direction=1"),
	FOLLOW_LINK,
	get("/api/models?limit=1000&full=true"),
	get("/api/models?limit=0"),
	get("/api/models?limit=-1"),
	get("/api/models?limit=1.5"),
	get("/api/models?limit=Infinity"),
	get("/api/models?limit=1e309"),
	get("/api/models?sort=bogus"),
	get("/api/models?direction=2"),
	get("/api/models?num_parameters=lots"),
	get("/api/models?cursor=not-a-cursor"),
	get("/api/models?apps=llama.cpp"),
	get("/api/models?search=" + "x".repeat(201)),
	get("/api/models?full=maybe"),
	get("/api/models?unknown_parameter=1&limit=1"),

	// Counts.
	get("/api/models-count"),
	get("/api/models-count?search=llama"),
	get("/api/models-count?author=meta-llama"),
	get("/api/models-count?filter=text-generation&filter=conversational"),
	get("/api/models-count?pipeline_tag=text-to-image&library=diffusers"),
	get("/api/models-count?inference_provider=all"),
	get("/api/models-count?num_parameters=min:1B&sort=likes&limit=3"),
	get("/api/models-count?limit=-1"),

	// One model.
	...MODELS.map((id) => get(`/api/models/${id}`)),
	get("/api/models/meta-llama/Llama-3.3-70B-Instruct?expand[]=inferenceProviderMapping"),
	get(
		"/api/models/meta-llama/Llama-3.3-70B-Instruct?expand=inferenceProviderMapping&expand=downloadsAllTime",
	),
	get("/api/models/google-bert/bert-base-uncased?blobs=true"),
	get("/api/models/google-bert/bert-base-uncased?securityStatus=true"),
	get("/api/models/Qwen/Qwen2-0.5B-Instruct-GGUF?expand[]=gguf&expand[]=siblings"),
	get("/api/models/META-LLAMA/llama-3.1-8b-instruct"),
	get("/api/models/meta-llama/Llama-3.1-8B-Instruct/revision/main"),
	get("/api/models/openai/whisper-large-v3/revision/main?blobs=true"),
	get(`/api/models/google-bert/bert-base-uncased/revision/${BERT_COMMIT}`),
	get(`/api/models/google-bert/bert-base-uncased/revision/${BERT_COMMIT.slice(0, 7)}`),
	get("/api/models/gpt2"),
	get("/api/models/openai-community/gpt2"),
	get("/api/models/does-not/exist"),
	get("/api/models/meta-llama/Llama-3.1-8B-Instruct/revision/no-such-branch"),
	get("/api/models/meta-llama/Llama-3.1-8B-Instruct/revision/0000000000000000000000000000000000000000"),
	get("/api/models/meta-llama/Llama-3.1-8B-Instruct/revision/refs%2Fpr%2F1"),
	get("/api/models/bad..id/model"),
	get("/api/models/-bad/model"),
	get("/api/models/a/b/c/d"),
	get("/api/models/%E0%A4%A/x"),
	get("/api/models/meta-llama/Llama-3.1-8B-Instruct?expand[]=notAProperty"),
	head("/api/models/google-bert/bert-base-uncased"),

	// Refs, commits, trees, paths-info.
	get("/api/models/meta-llama/Llama-3.1-8B-Instruct/refs"),
	get("/api/models/meta-llama/Llama-3.1-8B-Instruct/refs?include_prs=1"),
	get("/api/models/does-not/exist/refs"),
	get("/api/models/meta-llama/Llama-3.1-8B-Instruct/commits/main"),
	get("/api/models/google-bert/bert-base-uncased/commits/main"),
	get("/api/models/google-bert/bert-base-uncased/commits/nope"),
	get("/api/models/meta-llama/Llama-3.1-8B-Instruct/tree/main"),
	get("/api/models/meta-llama/Llama-3.1-8B-Instruct/tree/main?recursive=true"),
	get("/api/models/meta-llama/Llama-3.1-8B-Instruct/tree/main?expand=true"),
	get("/api/models/black-forest-labs/FLUX.1-dev/tree/main?recursive=true&expand=true"),
	get("/api/models/google-bert/bert-base-uncased/tree/main"),
	get(`/api/models/google-bert/bert-base-uncased/tree/${BERT_COMMIT}?recursive=true`),
	get("/api/models/google-bert/bert-base-uncased/tree/main/no-such-folder"),
	get("/api/models/google-bert/bert-base-uncased/tree/nope"),
	get("/api/models/does-not/exist/tree/main"),
	post(
		"/api/models/google-bert/bert-base-uncased/paths-info/main",
		"paths=config.json&paths=README.md&paths=missing.bin&paths=config.json&expand=false",
		FORM_BODY,
	),
	post(
		"/api/models/google-bert/bert-base-uncased/paths-info/main",
		JSON.stringify({ paths: ["README.md", ".gitattributes"], expand: true }),
		JSON_BODY,
	),
	post("/api/models/google-bert/bert-base-uncased/paths-info/main", "{not json", JSON_BODY),
	post("/api/models/google-bert/bert-base-uncased/paths-info/nope", "paths=README.md", FORM_BODY),

	// Downloads.
	get("/google-bert/bert-base-uncased/resolve/main/config.json"),
	head("/google-bert/bert-base-uncased/resolve/main/config.json"),
	get(`/google-bert/bert-base-uncased/resolve/${BERT_COMMIT}/config.json`),
	get("/google-bert/bert-base-uncased/resolve/main/config.json", {
		"if-none-match": '"c7a4f0d04c731696cb8b20e83bbdf70b1ca2a1e7"',
	}),
	get("/google-bert/bert-base-uncased/resolve/main/README.md"),
	get("/google-bert/bert-base-uncased/resolve/main/README.md", { range: "bytes=0-99" }),
	get("/google-bert/bert-base-uncased/resolve/main/README.md", { range: "bytes=-20" }),
	get("/google-bert/bert-base-uncased/resolve/main/README.md", { range: "bytes=99999999-" }),
	get("/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json"),
	head("/meta-llama/Llama-3.1-8B-Instruct/resolve/main/.gitattributes"),
	get("/google-bert/bert-base-uncased/resolve/main/missing.bin"),
	head("/google-bert/bert-base-uncased/resolve/main/missing.bin"),
	get("/google-bert/bert-base-uncased/resolve/nope/config.json"),
	get("/does-not/exist/resolve/main/config.json"),
	get("/gpt2/resolve/main/config.json"),

	// Accounts and validation.
	get("/api/whoami-v2"),
	get("/api/whoami-v2", { authorization: "Bearer mh_notARealTokenAtAll" }),
	get("/api/whoami-v2", ADMIN),
	get("/api/admin/users"),
	get("/api/admin/users", { authorization: "Bearer wrong-token-0123456789abcdef" }),
	get("/api/admin/users", ADMIN),
	get("/api/admin/orgs", ADMIN),
	post(
		"/api/validate-yaml",
		JSON.stringify({ content: "---\nlicense: mit\n---\n# Card\n", repoType: "model" }),
		JSON_BODY,
	),
	post(
		"/api/validate-yaml",
		JSON.stringify({ content: "---\nlicense: [\n---\n", repoType: "model" }),
		JSON_BODY,
	),
	post("/api/validate-yaml", "{}", JSON_BODY),
	post("/api/repos/create", JSON.stringify({ name: "x", type: "model" }), JSON_BODY),

	// Other addresses, CORS.
	get("/api/nothing-here"),
	get("/api"),
	{
		method: "OPTIONS",
		path: "/api/models",
		headers: {
			origin: "http://elsewhere.example",
			"access-control-request-method": "GET",
			"access-control-request-headers": "authorization",
		},
	},
	{
		method: "OPTIONS",
		path: "/api/models/google-bert/bert-base-uncased",
		headers: { origin: "http://elsewhere.example", "access-control-request-method": "POST" },
	},
	get("/api/models?limit=1", { origin: "http://elsewhere.example" }),
	get("/google-bert/bert-base-uncased/resolve/main/config.json", { origin: "http://elsewhere.example" }),

	// Web pages.
	get("/", HTML),
	// Without Accept-Encoding (curl's default) "/" was once refused with 403 by the static files' handler.
	get("/", { accept: "text/html" }),
	get("/"),
	get("/assets/", HTML),
	get("/assets/"),
	get("/models", HTML),
	get("/models?search=llama", HTML),
	get("/tasks", HTML),
	get("/tasks/text-generation", HTML),
	get("/tasks/not-a-task", HTML),
	get("/libraries/transformers", HTML),
	get("/meta-llama/Llama-3.1-8B-Instruct", HTML),
	get("/google-bert/bert-base-uncased", HTML),
	get("/does-not/exist", HTML),
	get("/some/deep/unknown/path", HTML),
	get("/favicon.svg"),
	get("/assets/index-golden.js"),
	get("/assets/index-golden.js", { "if-none-match": "*" }),
	get("/assets/missing.js", HTML),
	get("/nothing-here"),
];
