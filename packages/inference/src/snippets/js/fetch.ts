/** js / fetch: the raw HTTP call our client makes, with the platform's fetch. */
import * as literals from "@modelhub/tasks/literals";
import { jsAuthorization } from "../auth.js";
import { FILE_BASE64, FILE_DATA_URL, INDENT, js, jsKey } from "../code.js";
import { answeredAtOnce } from "../kinds.js";
import type { ClientTemplates, SnippetClient, SnippetContext, Template } from "../types.js";

/** Two and three indentation steps (literals, so that a bundle without snippets keeps nothing of them). */
const I2 = "        ";
const I3 = "            ";

type Answer = "json" | "blob";

/** A file answer (image or audio) is read as a Blob, anything else as JSON. */
function answerOf(ctx: SnippetContext): Answer {
	return ctx.answer === "image-file" || ctx.answer === "audio-file" ? "blob" : "json";
}

function readsFile(ctx: SnippetContext): boolean {
	return ctx.file !== undefined;
}

function fileVariable(ctx: SnippetContext): string {
	const media = ctx.file?.contentType.startsWith("audio/") ? "audio" : "image";
	return ctx.file?.encoding === "data-url" ? `${media}Url` : `${media}Base64`;
}

function queryFunction(ctx: SnippetContext, answer: Answer): string {
	const binary = ctx.file?.encoding === "binary";
	// fetch writes the multipart Content-Type (with its boundary) itself.
	const raw = binary || ctx.file?.encoding === "multipart";
	const headers: string[] = [];
	if (ctx.request.authorization)
		headers.push(`${I3}Authorization: ${jsAuthorization(ctx.request.authorization)},`);
	if (binary && ctx.file) headers.push(`${I3}"Content-Type": ${literals.jsString(ctx.file.contentType)},`);
	for (const [name, value] of ctx.request.headers) {
		headers.push(`${I3}${jsKey(name)}: ${literals.jsString(value)},`);
	}
	return [
		"async function query(data) {",
		`${INDENT}const response = await fetch(${literals.jsString(ctx.request.url)}, {`,
		`${I2}method: ${literals.jsString(ctx.request.method)},`,
		`${I2}headers: {`,
		...headers,
		`${I2}},`,
		`${I2}body: ${raw ? "data" : "JSON.stringify(data)"},`,
		`${INDENT}});`,
		`${INDENT}if (!response.ok) {`,
		`${I2}throw new Error(\`Request failed with status \${response.status}: \${await response.text()}\`);`,
		`${INDENT}}`,
		`${INDENT}return await response.${answer}();`,
		"}",
	].join("\n");
}

/** Lines that read the example file, for bodies that carry it as base64 or a data: URL. */
function readFileLines(ctx: SnippetContext): string[] {
	const file = ctx.file;
	if (file?.encoding !== "base64" && file?.encoding !== "data-url") return [];
	const bytes = `(await readFile(${literals.jsString(file.name)})).toString("base64")`;
	const value =
		file.encoding === "data-url"
			? `${literals.jsString(`data:${file.contentType};base64,`)} + ${bytes}`
			: bytes;
	return [`const ${fileVariable(ctx)} = ${value};`, ""];
}

/** Lines that build the multipart form: the file part (named as the client names it), then the text fields. */
function formLines(ctx: SnippetContext): string[] {
	const file = ctx.file;
	if (file?.encoding !== "multipart") return [];
	const form = ctx.request.form ?? { fileName: file.name, fields: [] };
	const blob = `new Blob([await readFile(${literals.jsString(file.name)})], { type: ${literals.jsString(file.contentType)} })`;
	return [
		"const form = new FormData();",
		`form.append("file", ${blob}, ${literals.jsString(form.fileName)});`,
		...form.fields.map(
			([name, value]) => `form.append(${literals.jsString(name)}, ${literals.jsString(value)});`,
		),
		"",
	];
}

function queryArgument(ctx: SnippetContext): string {
	if (ctx.file?.encoding === "binary") return `await readFile(${literals.jsString(ctx.file.name)})`;
	if (ctx.file?.encoding === "multipart") return "form";
	const holes = { [FILE_BASE64]: fileVariable(ctx), [FILE_DATA_URL]: fileVariable(ctx) };
	return js(ctx.request.body, "", holes);
}

const render: Template = (ctx) => {
	const answer = answerOf(ctx);
	const lines = [
		...(readsFile(ctx) ? ['import { readFile } from "node:fs/promises";', ""] : []),
		queryFunction(ctx, answer),
		"",
		...readFileLines(ctx),
		...formLines(ctx),
		`const output = await query(${queryArgument(ctx)});`,
		"",
	];
	lines.push(answer === "blob" ? "// output is a Blob holding the file" : "console.log(output);");
	return lines.join("\n");
};

const templates: ClientTemplates = {
	basic: render,
	basicAudio: render,
	basicImage: render,
	textToAudio: render,
	textToImage: render,
	textToSpeech: render,
	zeroShotClassification: render,
};

export const fetchClient: SnippetClient = {
	language: "js",
	client: "fetch",
	templates,
	offers: answeredAtOnce,
};
