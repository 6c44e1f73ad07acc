import type { FastifyRequest } from "fastify";
import type { Unchecked } from "../api/unchecked.js";
import { HubError } from "../errors.js";

/** The fields of a JSON object body, named by the request's contract type (checked by the caller). */
export function objectBody<Request>(request: FastifyRequest): Unchecked<Request> {
	const value = request.body;
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		throw new HubError("Invalid", "request body must be a JSON object");
	}
	return value as Unchecked<Request>;
}
