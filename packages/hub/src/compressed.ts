import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";

/** A constant answer, compressed once in every encoding clients ask for. */
export interface PrecompressedBody {
	etag: string;
	identity: Buffer;
	gzip: Buffer;
	br: Buffer;
}

export function precompress(body: Buffer): PrecompressedBody {
	return {
		etag: createHash("sha256").update(body).digest("base64url").slice(0, 27),
		identity: body,
		gzip: gzipSync(body, { level: 9 }),
		br: brotliCompressSync(body, {
			params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength },
		}),
	};
}

/** The encoding to send for an Accept-Encoding header: br, else gzip, else none (q=0 excludes). */
export function pickEncoding(header: string | undefined): "br" | "gzip" | "identity" {
	if (!header) return "identity";
	const accepted = new Map<string, number>();
	for (const part of header.split(",")) {
		const [name = "", ...params] = part.trim().toLowerCase().split(";");
		const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
		accepted.set(name.trim(), q === undefined ? 1 : Number(q));
	}
	const weight = (name: string) => accepted.get(name) ?? accepted.get("*") ?? 0;
	if (weight("br") > 0) return "br";
	if (weight("gzip") > 0) return "gzip";
	return "identity";
}

function etagMatches(header: string | undefined, etag: string): boolean {
	if (!header) return false;
	return header.split(",").some((candidate) => {
		const value = candidate.trim().replace(/^W\//, "").replace(/^"|"$/g, "");
		return value === "*" || value === etag || value.startsWith(`${etag}-`);
	});
}

/** Sends a precompressed body (ETag per encoding, 304 on a match, Vary: Accept-Encoding). */
export function sendPrecompressed(
	request: FastifyRequest,
	reply: FastifyReply,
	body: PrecompressedBody,
	contentType: string,
): FastifyReply {
	const encoding = pickEncoding(request.headers["accept-encoding"]);
	const suffix = encoding === "identity" ? "" : `-${encoding === "br" ? "br" : "gz"}`;
	reply.headers({
		vary: "Accept-Encoding",
		etag: `"${body.etag}${suffix}"`,
		"cache-control": "public, max-age=3600",
	});
	if (etagMatches(request.headers["if-none-match"], body.etag)) return reply.code(304).send();
	if (encoding !== "identity") reply.header("content-encoding", encoding);
	return reply.type(contentType).send(body[encoding]);
}
