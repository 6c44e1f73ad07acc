import type { FastifyInstance } from "fastify";
import multipart from "@fastify/multipart";
import { xetRoutes } from "../xet.js";
import { commitRoute } from "./commit.js";
import { lfsRoutes } from "./lfs.js";
import type { UploadRoutesOptions } from "./options.js";
import { preuploadRoute } from "./preupload.js";

/**
 * Every way bytes come in: preupload, commits (NDJSON and multipart), LFS, Xet. They live in their own
 * scope, whose bodies are handed to the routes as streams (never buffered: a 2 GB upload must not need
 * 2 GB of memory), except the small JSON ones.
 */
export async function uploadRoutes(app: FastifyInstance, options: UploadRoutesOptions): Promise<void> {
	await app.register(async (scope) => {
		const json = scope.getDefaultJsonParser("error", "error");
		scope.addContentTypeParser(/^application\/vnd\.git-lfs\+json/i, { parseAs: "string" }, json);
		// Streams: NDJSON commits, LFS uploads, Xet xorbs and shards (sent without a content type).
		scope.addContentTypeParser(
			["application/x-ndjson", "application/octet-stream"],
			(_request, payload, done) => done(null, payload),
		);
		scope.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
		// File names carry repository paths: keep their folders (busboy keeps only the base name otherwise).
		await scope.register(multipart, { preservePath: true, defCharset: "utf8", throwFileSizeLimit: true });
		preuploadRoute(scope, options);
		commitRoute(scope, options);
		lfsRoutes(scope, options);
		xetRoutes(scope, options);
	});
}
