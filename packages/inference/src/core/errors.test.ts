import { describe, expect, it } from "vitest";
import {
	InferenceError,
	InferenceHubError,
	InferenceHubRateLimitError,
	InferenceInputError,
	InferenceOutputError,
	InferenceProviderApiError,
	InferenceTimeoutError,
} from "./errors.js";

describe("error ladder", () => {
	it("InferenceOutputError is a TypeError with 3.12.1's wording", () => {
		const error = new InferenceOutputError("Expected Blob");
		expect(error).toBeInstanceOf(TypeError);
		expect(error.name).toBe("InferenceOutputError");
		expect(error.message).toBe(
			"Invalid inference output: Expected Blob. Use the 'request' method with the same parameters to do a custom call with no type checking.",
		);
	});

	it("every class is recognised by InferenceError.isInstance, also across copies (Symbol.for marker)", () => {
		const request = { method: "POST", url: "u", headers: {} };
		for (const error of [
			new InferenceInputError("a"),
			new InferenceHubError("b"),
			new InferenceHubRateLimitError("b", { retryAfterMs: undefined, url: "u" }),
			new InferenceProviderApiError("c", { status: 500, request }),
			new InferenceTimeoutError(5),
			new InferenceOutputError("d"),
		]) {
			expect(InferenceError.isInstance(error)).toBe(true);
		}
		const foreign = Object.assign(new Error("x"), { [Symbol.for("modelhub.inference.error")]: true });
		expect(InferenceError.isInstance(foreign)).toBe(true);
		expect(InferenceError.isInstance(new Error("x"))).toBe(false);
	});

	it("provider API errors say whether a retry can help", () => {
		const request = { method: "POST", url: "u", headers: {} };
		expect(new InferenceProviderApiError("x", { status: 429, request }).isRetryable).toBe(true);
		expect(new InferenceProviderApiError("x", { status: 400, request }).isRetryable).toBe(false);
	});
});
