/** python / requests: the raw HTTP call our client makes (URL, headers, JSON body or file bytes). */
import * as literals from "@modelhub/tasks/literals";
import { pyAuthorization, readsEnv } from "../auth.js";
import { FILE_BASE64, FILE_DATA_URL, INDENT, py } from "../code.js";
import { answeredAtOnce } from "../kinds.js";
import type { ClientTemplates, SnippetClient, SnippetContext, Template } from "../types.js";

/** Two indentation steps (a literal, so that a bundle without snippets keeps nothing of it). */
const I2 = "        ";

/** The answer is an image file (opened with PIL). */
function isImageBytes(ctx: SnippetContext): boolean {
	return ctx.answer === "image-file";
}

function usesAudioPlayer(ctx: SnippetContext): boolean {
	return ctx.answer === "audio-array" || ctx.answer === "audio-file";
}

function fileVariable(ctx: SnippetContext): string {
	const media = ctx.file?.contentType.startsWith("audio/") ? "audio" : "image";
	return ctx.file?.encoding === "data-url" ? `${media}_url` : `${media}_base64`;
}

function setup(ctx: SnippetContext): string {
	const standard: string[] = [];
	if (ctx.file?.encoding === "base64" || ctx.file?.encoding === "data-url") standard.push("import base64");
	if (isImageBytes(ctx)) standard.push("import io");
	if (ctx.kind === "conversationalStream") standard.push("import json");
	if (readsEnv(ctx.token)) standard.push("import os");
	const thirdParty = ["import requests"];
	if (usesAudioPlayer(ctx)) thirdParty.push("from IPython.display import Audio");
	if (isImageBytes(ctx)) thirdParty.push("from PIL import Image");

	const lines = [...standard, ...(standard.length > 0 ? [""] : []), ...thirdParty, ""];
	lines.push(`API_URL = ${literals.pyString(ctx.request.url)}`);
	lines.push("headers = {");
	if (ctx.request.authorization)
		lines.push(`${INDENT}"Authorization": ${pyAuthorization(ctx.request.authorization)},`);
	for (const [name, value] of ctx.request.headers) {
		// requests sets Content-Type itself for `json=` bodies; file bodies name their type in query().
		if (name === "Content-Type") continue;
		lines.push(`${INDENT}${literals.pyString(name)}: ${literals.pyString(value)},`);
	}
	// With the blank line the snippet adds after this, two blank lines come before `def query` (PEP 8).
	lines.push("}", "");
	return lines.join("\n");
}

/** Lines that read the example file into the variable the body refers to. */
function readFile(ctx: SnippetContext): string[] {
	const file = ctx.file;
	if (file?.encoding !== "base64" && file?.encoding !== "data-url") return [];
	const encoded = 'base64.b64encode(f.read()).decode("utf-8")';
	const value =
		file.encoding === "data-url"
			? `${literals.pyString(`data:${file.contentType};base64,`)} + ${encoded}`
			: encoded;
	return [
		`with open(${literals.pyString(file.name)}, "rb") as f:`,
		`${INDENT}${fileVariable(ctx)} = ${value}`,
		"",
	];
}

function postJson(result: "json" | "bytes"): string {
	return [
		"def query(payload):",
		`${INDENT}response = requests.post(API_URL, headers=headers, json=payload)`,
		`${INDENT}response.raise_for_status()`,
		`${INDENT}return ${result === "json" ? "response.json()" : "response.content"}`,
	].join("\n");
}

/** `name = query({...body...})`, with file markers replaced by the variable read before. */
function queryCall(ctx: SnippetContext, name: string): string {
	const holes = { [FILE_BASE64]: fileVariable(ctx), [FILE_DATA_URL]: fileVariable(ctx) };
	return `${name} = query(${py(ctx.request.body, "", holes)})`;
}

function jsonTask(ctx: SnippetContext): string {
	return [postJson("json"), "", "", ...readFile(ctx), queryCall(ctx, "output"), "", "print(output)"].join(
		"\n",
	);
}

/** A multipart upload: the file part (named as the client names it) and the text fields. */
function multipartTask(ctx: SnippetContext): string {
	const file = ctx.file as NonNullable<SnippetContext["file"]>;
	const form = ctx.request.form ?? { fileName: file.name, fields: [] };
	const fields = Object.fromEntries(form.fields);
	return [
		"def query(filename):",
		`${INDENT}with open(filename, "rb") as f:`,
		`${I2}response = requests.post(`,
		`${I2}${INDENT}API_URL,`,
		`${I2}${INDENT}headers=headers,`,
		`${I2}${INDENT}files={"file": (${literals.pyString(form.fileName)}, f, ${literals.pyString(file.contentType)})},`,
		`${I2}${INDENT}data=${py(fields, I2 + INDENT)},`,
		`${I2})`,
		`${INDENT}response.raise_for_status()`,
		`${INDENT}return response.json()`,
		"",
		"",
		`output = query(${literals.pyString(file.name)})`,
		"",
		"print(output)",
	].join("\n");
}

/** A raw file upload: the bytes as the body, typed as the client types them. */
function binaryTask(ctx: SnippetContext, file: NonNullable<SnippetContext["file"]>): string {
	return [
		"def query(filename):",
		`${INDENT}with open(filename, "rb") as f:`,
		`${I2}data = f.read()`,
		`${INDENT}response = requests.post(`,
		`${I2}API_URL,`,
		`${I2}headers={**headers, "Content-Type": ${literals.pyString(file.contentType)}},`,
		`${I2}data=data,`,
		`${INDENT})`,
		`${INDENT}response.raise_for_status()`,
		`${INDENT}return response.json()`,
		"",
		"",
		`output = query(${literals.pyString(file.name)})`,
		"",
		"print(output)",
	].join("\n");
}

/** A JSON request whose answer is a file (`bytes`, opened with `open`) or hf-inference's `[samples, rate]`. */
function fileAnswerTask(ctx: SnippetContext, result: "json" | "bytes", name: string, open: string[]): string {
	return [postJson(result), "", "", ...readFile(ctx), queryCall(ctx, name), "", ...open].join("\n");
}

/**
 * Every one-shot shape: the file's encoding says how the request carries it, the answer kind (the
 * task registry's, through `ctx.answer`) how the answer is read — no template per task.
 */
const render: Template = (ctx) => {
	const file = ctx.file;
	if (file?.encoding === "multipart") return multipartTask(ctx);
	if (file?.encoding === "binary") return binaryTask(ctx, file);
	switch (ctx.answer) {
		case "image-file":
			return fileAnswerTask(ctx, "bytes", "image_bytes", ["image = Image.open(io.BytesIO(image_bytes))"]);
		case "audio-file":
			return fileAnswerTask(ctx, "bytes", "audio_bytes", ["# Play it in a notebook:", "Audio(audio_bytes)"]);
		case "audio-array":
			return fileAnswerTask(ctx, "json", "audio, sampling_rate", [
				"# Play it in a notebook:",
				"Audio(audio, rate=sampling_rate)",
			]);
		default:
			return jsonTask(ctx);
	}
};

const conversational: Template = (ctx) =>
	[postJson("json"), "", "", queryCall(ctx, "response"), "", 'print(response["choices"][0]["message"])'].join(
		"\n",
	);

const conversationalStream: Template = (ctx) =>
	[
		"def query(payload):",
		`${INDENT}response = requests.post(API_URL, headers=headers, json=payload, stream=True)`,
		`${INDENT}response.raise_for_status()`,
		`${INDENT}for line in response.iter_lines():`,
		`${I2}if not line.startswith(b"data:"):`,
		`${I2}${INDENT}continue`,
		`${I2}data = line[len(b"data:"):].strip()`,
		`${I2}if data == b"[DONE]":`,
		`${I2}${INDENT}return`,
		`${I2}yield json.loads(data)`,
		"",
		"",
		queryCall(ctx, "chunks"),
		"",
		"for chunk in chunks:",
		`${INDENT}if chunk["choices"]:`,
		`${I2}print(chunk["choices"][0]["delta"].get("content") or "", end="")`,
	].join("\n");

const templates: ClientTemplates = {
	basic: render,
	basicAudio: render,
	basicImage: render,
	conversational,
	conversationalStream,
	documentQuestionAnswering: render,
	imageToImage: render,
	tabular: render,
	textToAudio: render,
	textToImage: render,
	textToSpeech: render,
	zeroShotClassification: render,
	zeroShotImageClassification: render,
};

/**
 * Answered at once; text-to-image only when the answer is the image itself (3.12.1 renders it for
 * hf-inference only, the provider that answers so).
 */
function offers(ctx: SnippetContext): boolean {
	return answeredAtOnce(ctx) && (ctx.kind !== "textToImage" || ctx.answer === "image-file");
}

export const requests: SnippetClient = {
	language: "python",
	client: "requests",
	templates,
	setup,
	offers,
};
