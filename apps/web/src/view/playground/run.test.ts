import { describe, expect, it } from "vitest";
import { conversation, describeRunError, INITIAL_SESSION, runReducer, type RunAction } from "./run";

describe("the conversation sent", () => {
	it("sends completed turns only, so failed or stopped ones never make two user turns in a row", () => {
		const turns = [
			{ id: 1, user: "Hi", answer: "Hello!", status: "done" as const },
			{ id: 2, user: "Lost", answer: "", status: "failed" as const },
			{ id: 3, user: "Cut", answer: "Par", status: "stopped" as const },
		];
		expect(conversation(turns, "Next")).toEqual([
			{ role: "user", content: "Hi" },
			{ role: "assistant", content: "Hello!" },
			{ role: "user", content: "Next" },
		]);
		expect(conversation(turns, "  ")).toHaveLength(2);
	});
});

describe("the run state", () => {
	const request = { method: "POST", url: "https://p.example/v1", headers: [] };
	const play = (...actions: RunAction[]) => actions.reduce(runReducer, INITIAL_SESSION);

	it("streams a chat turn into place, then marks it done and stops running", () => {
		const history = [{ id: 1, user: "Hi", answer: "Hello!", status: "done" as const }];
		const state = play(
			{ type: "start", deadline: 1000, chat: { history, turnId: 2, question: "Next?" } },
			{ type: "sent", request },
			{ type: "token", turnId: 2, answer: "Par" },
			{ type: "deadline", deadline: 2000 },
		);
		expect(state.run).toEqual({ running: true, deadline: 2000 });
		expect(state.sent).toEqual(request);
		expect(state.turns.map((turn) => [turn.id, turn.answer, turn.status])).toEqual([
			[1, "Hello!", "done"],
			[2, "Par", "streaming"],
		]);
		const done = runReducer(state, { type: "answered", turnId: 2 });
		expect(done.run).toEqual({ running: false });
		expect(done.turns[1]?.status).toBe("done");
		// A deadline after the end changes nothing.
		expect(runReducer(done, { type: "deadline", deadline: 5 })).toBe(done);
	});

	it("a retried turn replaces the turns from it on; a new run clears the last output and sent request", () => {
		const first = play(
			{ type: "start", deadline: 1, chat: { history: [], turnId: 1, question: "A" } },
			{ type: "failed", turnId: 1, error: { kind: "network", message: "down" } },
			{ type: "start", deadline: 1, chat: { history: [], turnId: 2, question: "B" } },
		);
		expect(first.turns.map((turn) => turn.user)).toEqual(["B"]);
		const output = { kind: "text" as const, text: "ok" };
		const answered = play(
			{ type: "start", deadline: 1 },
			{ type: "sent", request },
			{ type: "answered", output },
		);
		expect(answered).toMatchObject({ output, sent: request, run: { running: false } });
		expect(runReducer(answered, { type: "start", deadline: 9 })).toEqual({
			turns: [],
			run: { running: true, deadline: 9 },
			sent: undefined,
			output: undefined,
		});
	});

	it("a failure is kept on its turn; Stop reads as stopped, and remove/clear drop the feedback", () => {
		const stopped = play(
			{ type: "start", deadline: 1, chat: { history: [], turnId: 7, question: "Q" } },
			{ type: "failed", turnId: 7, error: { kind: "stopped", message: "Stopped." } },
		);
		expect(stopped.turns[0]).toMatchObject({ status: "stopped", error: { kind: "stopped" } });
		expect(stopped.run).toEqual({
			running: false,
			error: { kind: "stopped", message: "Stopped." },
			stopped: true,
		});
		const failed = play(
			{ type: "start", deadline: 1 },
			{ type: "failed", error: { kind: "other", message: "x" } },
		);
		expect(failed.run).toEqual({ running: false, error: { kind: "other", message: "x" } });
		expect(runReducer(stopped, { type: "remove", turnId: 7 })).toMatchObject({
			turns: [],
			run: { running: false },
		});
		expect(runReducer(stopped, { type: "clear" }).run).toEqual({ running: false });
	});
});

describe("describeRunError", () => {
	it("says why a run ended: timeout, Stop, the provider's status, the network, or the error itself", () => {
		const timeoutMs = 60_000;
		expect(describeRunError(new Error("aborted"), { reason: "timeout", timeoutMs })).toEqual({
			kind: "timeout",
			message: "No answer within 60 s: the request was cancelled.",
		});
		expect(describeRunError(new Error("aborted"), { reason: "stopped", timeoutMs }).kind).toBe("stopped");
		expect(describeRunError(new Error("Model is loading"), { status: 503, timeoutMs })).toEqual({
			kind: "provider",
			message: "Model is loading",
			status: 503,
		});
		const network = describeRunError(new TypeError("Failed to fetch"), {
			url: "https://p.example:8443/v1",
			timeoutMs,
		});
		expect(network.kind).toBe("network");
		expect(network.message).toMatch(/^Could not reach p\.example:8443: Failed to fetch\. .*CORS/);
		expect(describeRunError("odd", { timeoutMs })).toEqual({ kind: "other", message: "odd" });
	});
});
