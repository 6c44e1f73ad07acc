import type { FastifyInstance } from "fastify";
import type { Unchecked } from "../api/unchecked.js";
import type { ValidateYamlAnswer, ValidateYamlRequest } from "../api/uploads.js";
import { FailureLimiter } from "../accounts/rate-limit.js";
import { HubError, tooManyRequests } from "../errors.js";
import { JSON_TYPE } from "../http.js";
import type { ParsePool } from "../parsing/pool.js";

const MAX_CONTENT = 1024 * 1024;
const WINDOW_MS = 60_000;
export const DEFAULT_VALIDATE_YAML_PER_MINUTE = 60;

/**
 * `POST /api/validate-yaml` `{ content, repoType }`: huggingface_hub calls it before uploading a
 * README.md, and fails early with the `errors`' messages on a 400 (warnings are shown, not fatal).
 * The card is parsed by a worker (src/parsing/): a full queue answers 503 with Retry-After, a card
 * that overruns the time limit 400.
 */
export function validateYamlRoute(
	app: FastifyInstance,
	parsing: ParsePool,
	perMinute: number = DEFAULT_VALIDATE_YAML_PER_MINUTE,
): void {
	// The route needs no token (huggingface_hub sends one when it has one): each validation costs up to a
	// second of a worker's CPU, so callers get a budget per minute, anonymous ones per address, signed-in
	// ones per account. Every call counts (the limiter counts "failures").
	const calls = new FailureLimiter({ maxFailures: perMinute, windowMs: WINDOW_MS });
	app.post("/api/validate-yaml", async (request, reply) => {
		const viewer = request.viewer;
		if (viewer?.kind !== "admin") {
			const caller = viewer?.kind === "user" ? `account:${viewer.account.objectId}` : `address:${request.ip}`;
			const blocked = calls.blockedFor(caller);
			if (blocked > 0) {
				throw tooManyRequests(
					`Too many YAML validations from this ${viewer?.kind === "user" ? "account" : "address"}: retry in ${blocked} seconds`,
					blocked,
				);
			}
			calls.fail(caller);
		}
		const body = (
			typeof request.body === "object" && request.body !== null ? request.body : {}
		) as Unchecked<ValidateYamlRequest>;
		if (typeof body.content !== "string") throw new HubError("Invalid", "'content' must be a string");
		if (body.content.length > MAX_CONTENT) {
			throw new HubError("TooLarge", `'content' must be at most ${MAX_CONTENT} characters`);
		}
		if (body.repoType !== undefined && body.repoType !== "model" && body.repoType !== "dataset") {
			throw new HubError(
				"Invalid",
				'only model and dataset cards are validated by this hub (repoType must be "model" or "dataset")',
			);
		}
		const kind = body.repoType === "dataset" ? "dataset" : "model";
		const result = await parsing.run("frontMatter", { content: body.content, kind }, { refusable: true });
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
