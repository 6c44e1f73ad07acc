import { describe, expect, it } from "vitest";
import {
	ConflictError,
	ERROR_STATUS,
	entryNotFound,
	errorAnswer,
	HubError,
	kindOfStatus,
	repoNotFound,
	revisionNotFound,
	reword,
	tooManyRequests,
	unavailable,
	type ErrorKind,
} from "./errors.js";

// Written out here rather than read from ERROR_STATUS, so a changed status fails this test.
const EXPECTED: Record<ErrorKind, number> = {
	Invalid: 400,
	Unauthorized: 401,
	Forbidden: 403,
	NotFound: 404,
	MethodNotAllowed: 405,
	Conflict: 409,
	PreconditionFailed: 412,
	TooLarge: 413,
	UnsupportedMediaType: 415,
	RangeNotSatisfiable: 416,
	Unprocessable: 422,
	TooManyRequests: 429,
	Internal: 500,
	NotImplemented: 501,
	BadGateway: 502,
	Unavailable: 503,
	GatewayTimeout: 504,
};

describe("error kinds", () => {
	it("answer each kind with its status, no headers of their own and a bare { error }", () => {
		expect(Object.keys(ERROR_STATUS).sort()).toEqual(Object.keys(EXPECTED).sort());
		for (const [kind, status] of Object.entries(EXPECTED) as Array<[ErrorKind, number]>) {
			const error = new HubError(kind, `a ${kind} error`);
			expect(error.status).toBe(status);
			expect(errorAnswer(error)).toEqual({ status, headers: {}, body: { error: `a ${kind} error` } });
			expect(kindOfStatus(status)).toBe(kind);
		}
	});

	it("send the public hub's X-Error-Code with its message as X-Error-Message", () => {
		expect(errorAnswer(repoNotFound())).toEqual({
			status: 404,
			headers: { "x-error-code": "RepoNotFound", "x-error-message": "Repository not found" },
			body: { error: "Repository not found" },
		});
		expect(errorAnswer(revisionNotFound("v2"))).toEqual({
			status: 404,
			headers: { "x-error-code": "RevisionNotFound", "x-error-message": "Invalid rev id: v2" },
			body: { error: "Invalid rev id: v2" },
		});
		const commit = "a".repeat(40);
		const entry = errorAnswer(entryNotFound("Entry not found: ünï.txt", commit));
		// The header keeps printable ASCII only; the body keeps the text as it is.
		expect(entry.headers).toEqual({
			"x-error-code": "EntryNotFound",
			"x-error-message": "Entry not found: ?n?.txt",
			"x-repo-commit": commit,
		});
		expect(entry.body).toEqual({ error: "Entry not found: ünï.txt" });
		expect(Object.keys(errorAnswer(entryNotFound("Entry not found: x")).headers)).toEqual([
			"x-error-code",
			"x-error-message",
		]);
	});

	it("carry challenges, shown messages, Retry-After and extra body fields", () => {
		const refused = new HubError("Unauthorized", "no token", {
			challenge: 'Bearer realm="modelhub"',
			messageHeader: "Invalid credentials",
		});
		expect(errorAnswer(refused)).toEqual({
			status: 401,
			headers: { "www-authenticate": 'Bearer realm="modelhub"', "x-error-message": "Invalid credentials" },
			body: { error: "no token" },
		});
		expect(errorAnswer(unavailable("the database"))).toEqual({
			status: 503,
			headers: { "retry-after": "5" },
			body: { error: "the database is unavailable; retry in a few seconds" },
		});
		expect(errorAnswer(tooManyRequests("slow down", 60))).toEqual({
			status: 429,
			headers: { "retry-after": "60" },
			body: { error: "slow down" },
		});
		const exists = new ConflictError("You already created this model repo", {
			body: { url: "http://h/a/b" },
		});
		expect(exists).toBeInstanceOf(HubError);
		expect(errorAnswer(exists)).toEqual({
			status: 409,
			headers: {},
			body: { error: "You already created this model repo", url: "http://h/a/b" },
		});
		// `error` comes first in the body, as clients print it.
		expect(JSON.stringify(errorAnswer(exists).body)).toBe(
			'{"error":"You already created this model repo","url":"http://h/a/b"}',
		);
	});

	it("give statuses without a kind of their own a kind (a 4xx reads as Invalid, a 5xx as Internal)", () => {
		expect(kindOfStatus(418)).toBe("Invalid");
		expect(kindOfStatus(507)).toBe("Internal");
	});

	it("reword only the errors of the named class", async () => {
		class Narrow extends Error {}
		const told = (error: unknown) =>
			Promise.reject(error).catch(reword(Narrow, () => new HubError("TooLarge", "too big")));
		await expect(told(new Narrow("x"))).rejects.toMatchObject({ kind: "TooLarge", message: "too big" });
		const other = new Error("other");
		await expect(told(other)).rejects.toBe(other);
	});
});
