// Bundle size: esbuild-minified, gzipped size of `import { chatCompletion }` alone and of
// `InferenceClient`, bundled from dist/index.js. Needs `npm run build` first.
// Prints one JSON line: {"bench":"bundle", chatCompletion_gzip_bytes, InferenceClient_gzip_bytes, ...}.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "..", "dist", "index.js");
// esbuild is installed as a dependency of tsup: resolve it from there.
const requireFromTsup = createRequire(createRequire(import.meta.url).resolve("tsup"));
const esbuild = requireFromTsup("esbuild");

async function measure(name) {
	const result = await esbuild.build({
		stdin: { contents: `export { ${name} } from ${JSON.stringify(dist)};`, resolveDir: here, loader: "js" },
		bundle: true,
		minify: true,
		format: "esm",
		platform: "neutral",
		write: false,
	});
	const code = result.outputFiles[0].contents;
	return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

const chat = await measure("chatCompletion");
const client = await measure("InferenceClient");
console.log(
	JSON.stringify({
		bench: "bundle",
		chatCompletion_min_bytes: chat.minified,
		chatCompletion_gzip_bytes: chat.gzip,
		InferenceClient_min_bytes: client.minified,
		InferenceClient_gzip_bytes: client.gzip,
		target_chatCompletion_gzip_bytes: 6 * 1024,
		target_InferenceClient_gzip_bytes: 25 * 1024,
	}),
);
