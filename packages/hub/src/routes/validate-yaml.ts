import type { FastifyInstance } from "fastify";
import type { Unchecked } from "../api/unchecked.js";
import type { ValidateYamlAnswer, ValidateYamlRequest } from "../api/uploads.js";
import { readFrontMatter } from "../cards/front-matter.js";
import { HubError } from "../errors.js";
import { JSON_TYPE } from "../http.js";

const MAX_CONTENT = 1024 * 1024;

/**
 * `POST /api/validate-yaml` `{ content, repoType }`: huggingface_hub calls it before uploading a
 * README.md, and fails early with the `errors`' messages on a 400 (warnings are shown, not fatal).
 */
export function validateYamlRoute(app: FastifyInstance): void {
	app.post("/api/validate-yaml", async (request, reply) => {
		const body = (
			typeof request.body === "object" && request.body !== null ? request.body : {}
		) as Unchecked<ValidateYamlRequest>;
		if (typeof body.content !== "string") throw new HubError("Invalid", "'content' must be a string");
		if (body.content.length > MAX_CONTENT) {
			throw new HubError("TooLarge", `'content' must be at most ${MAX_CONTENT} characters`);
		}
		if (body.repoType !== undefined && body.repoType !== "model") {
			throw new HubError("Invalid", 'only model cards are validated by this hub (repoType must be "model")');
		}
		const result = readFrontMatter(body.content);
		const warnings = result.warnings.map((message) => ({ message }));
		if (result.errors.length > 0) {
			const errors = result.errors.map((message) => ({ message }));
			throw new HubError("Invalid", result.errors.join("; "), {
				body: { errors, warnings } satisfies Omit<ValidateYamlAnswer, "error">,
			});
		}
		return reply.type(JSON_TYPE).send({ errors: [], warnings } satisfies ValidateYamlAnswer);
	});
}
